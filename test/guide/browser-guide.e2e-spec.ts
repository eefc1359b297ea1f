import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { gql } from '../support/graphql-client';
import { API_READY, freePort, ROOT, runId, RunningApp, startApp } from '../support/processes';

/**
 * The Neo4j Browser guide (docs/neo4j-browser-guide.html) as users get it: served by the API to
 * Browser's origin without a key, and every query in it run against an indexed repository and a
 * rerank recorded by the real API. A query that no longer matches the graph model fails here.
 */
const GUIDE = path.join(ROOT, 'docs/neo4j-browser-guide.html');
/** Names in the fixture that have callers, callees, subtypes and users (each query needs one of them). */
const NAMES = ['Invoice', 'formatMoney', 'Auditable', 'main', 'render'];
const BROWSER_ORIGIN = 'http://localhost:7474';

function runnableBlocks(html: string): string[] {
  const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
  return [...html.matchAll(/<pre class="runnable">([\s\S]*?)<\/pre>/g)].map((m) => m[1].replace(/&(lt|gt|amp|quot|#39);/g, (e) => entities[e]).trim());
}

describe('Neo4j Browser guide', () => {
  const harness = new IngestHarness(runId('guidec'));
  const repoId = runId('guide');
  const key = `read-${Math.random().toString(36).slice(2)}`;
  let api: RunningApp;
  let base: string;
  let rerankId: string;
  let rerankHits: number;

  beforeAll(async () => {
    await harness.init();
    await harness.ingest.index({ path: FIXTURE, name: repoId });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // A key is set: the guide must still load (Browser cannot send one), and nothing else may.
    api = await startApp('api', { API_PORT: String(port), API_KEY: key, RERANK_PROVIDER: 'local', QUEUE_PREFIX: runId('guideq') }, API_READY);
    const headers = { 'x-api-key': key };
    const found = await gql(`${base}/graphql`, 'query($input: SearchInput!) { search(input: $input) { results { scope { id } } } }', { input: { text: 'invoice total', mode: 'BM25', repository: repoId, topK: 8 } }, headers);
    const scopeIds = found.body.data.search.results.map((r: { scope: { id: string } }) => r.scope.id);
    expect(scopeIds.length).toBeGreaterThan(2);
    // The local reranker completes at once; its result is recorded in the graph on completion.
    const started = await gql(`${base}/graphql`, 'mutation($input: StartRerankInput!) { startRerank(input: $input) { jobId status result { hits { scopeId } } } }', { input: { question: 'where is the invoice total computed?', scopeIds } }, headers);
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data.startRerank.status).toBe('COMPLETED');
    rerankId = started.body.data.startRerank.jobId;
    rerankHits = started.body.data.startRerank.result.hits.length;
  });

  afterAll(async () => {
    await api?.stop();
    await harness.neo4j.runStatement('MATCH (r:RerankRun {id: $id}) DETACH DELETE r', { id: rerankId ?? '' });
    await harness.dispose([repoId]);
  });

  it('is served to Neo4j Browser without a key, and only to origins the API accepts', async () => {
    const ok = await fetch(`${base}/guides/neo4j-browser.html`, { headers: { origin: BROWSER_ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(BROWSER_ORIGIN);
    const html = await ok.text();
    expect(html).toBe(fs.readFileSync(GUIDE, 'utf8'));
    // Browser splits a guide into <slide>s and makes <pre class="runnable"> clickable.
    expect(html.match(/<slide\b/g)?.length).toBeGreaterThanOrEqual(4);

    // Browser's fetch sends headers of its own, so a CORS preflight comes first.
    const preflight = await fetch(`${base}/guides/neo4j-browser.html`, { method: 'OPTIONS', headers: { origin: BROWSER_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-requested-with' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(BROWSER_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-requested-with');

    const foreign = await fetch(`${base}/guides/neo4j-browser.html`, { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    // The exemption is for the guide only: GraphQL refuses a page from another port unless listed.
    const graphql = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BROWSER_ORIGIN }, body: '{"query":"{ health { ok } }"}' });
    expect(graphql.status).toBe(403);
  });

  it('keeps a finished rerank as a RerankRun with one RANKED decision per hit', async () => {
    const rows = await harness.neo4j.runStatement<{ question: string; reranker: string; ranks: number[]; retrievalRanks: number[] }>(
      `MATCH (r:RerankRun {id: $id})-[j:RANKED]->(s:Scope)
       WITH r, j ORDER BY j.rank
       RETURN r.question AS question, r.reranker AS reranker, collect(j.rank) AS ranks, collect(j.retrievalRank) AS retrievalRanks`,
      { id: rerankId },
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].question).toBe('where is the invoice total computed?');
    expect(rows[0].reranker).toBe('local-keyword');
    expect(rows[0].ranks.map(Number)).toEqual(Array.from({ length: rerankHits }, (_, i) => i + 1));
    expect([...rows[0].retrievalRanks.map(Number)].sort((a, b) => a - b)).toEqual(Array.from({ length: rerankHits }, (_, i) => i + 1));
  });

  it('runs every query in the guide, each finding something on an indexed repository', async () => {
    const blocks = runnableBlocks(fs.readFileSync(GUIDE, 'utf8'));
    const params = blocks.filter((b) => b.startsWith(':param')).map((b) => /^:param\s+(\w+)\s*=>/.exec(b)?.[1]);
    const queries = blocks.filter((b) => !b.startsWith(':'));
    expect(queries.length).toBeGreaterThanOrEqual(12);
    // Every $parameter a query uses is one the guide tells the reader to set.
    for (const query of queries) for (const [, name] of query.matchAll(/\$(\w+)/g)) expect(params).toContain(name);

    const empty: string[] = [];
    for (const query of queries) {
      let found = 0;
      for (const name of NAMES) {
        const rows = await harness.neo4j.runStatement(query, { repo: repoId, name, run: rerankId });
        found += rows.length;
        if (found > 0) break;
      }
      if (found === 0) empty.push(query.split('\n')[0]);
    }
    expect(empty).toEqual([]);
  });

  it('shows a run\'s ranking best first with the moves it made', async () => {
    const query = runnableBlocks(fs.readFileSync(GUIDE, 'utf8')).find((b) => b.includes('AS moved'))!;
    const rows = await harness.neo4j.runStatement<{ rank: number; before: number; moved: number; scope: string }>(query, { run: rerankId });
    expect(rows).toHaveLength(rerankHits);
    expect(rows.map((r) => Number(r.rank))).toEqual(Array.from({ length: rerankHits }, (_, i) => i + 1));
    for (const r of rows) expect(Number(r.moved)).toBe(Number(r.before) - Number(r.rank));
  });
});
