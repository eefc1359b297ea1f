import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { gql } from '../support/graphql-client';
import { SchemaFuzzer } from '../support/schema-fuzz';

// Schema-generated requests against the real API over an indexed repository: client mistakes must
// never answer INTERNAL_SERVER_ERROR or a 5xx, and reads must not change the graph.
// CI runs a small fixed-seed sample; by hand: FUZZ_COUNT=5000 FUZZ_SEED=7 npx jest --selectProjects e2e --testPathPatterns test/safety/fuzz

const COUNT = Number(process.env.FUZZ_COUNT ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 11);
const CONCURRENCY = 4;
const STACK_TRACE = /\bat [\w.<>]+ \(?\/.*:\d+:\d+|stacktrace/;

jest.setTimeout(Math.max(120_000, COUNT * 200));

describe(`schema fuzz (${COUNT} requests, seed ${SEED})`, () => {
  const harness = new IngestHarness(runId('fuzzc'));
  const repoId = runId('fuzz');
  let api: RunningApp;
  let url: string;
  const admin = `admin-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    await harness.init();
    await harness.ingest.index({ path: FIXTURE, name: repoId });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: admin, API_RATE_LIMIT_PER_MIN: '1000000', QUEUE_PREFIX: runId('fuzzq') }, API_READY);
  });

  afterAll(async () => {
    await api?.stop();
    await harness.dispose([repoId]);
  });

  async function graphFingerprint(): Promise<string> {
    const [row] = await harness.neo4j.runStatement<{ nodes: number; rels: number; props: number }>(
      'MATCH (n) WITH count(n) AS nodes, sum(size(keys(n))) AS props OPTIONAL MATCH ()-[r]->() RETURN nodes, props, count(r) AS rels',
    );
    return JSON.stringify(row);
  }

  it('answers every client mistake with a 4xx or a coded error, never a 5xx, and reads change nothing', async () => {
    const introspection = await gql<IntrospectionQuery>(url, getIntrospectionQuery(), {}, { 'x-api-key': admin });
    const fuzzer = new SchemaFuzzer(buildClientSchema(introspection.body.data!), SEED);
    const before = await graphFingerprint();

    const failures: string[] = [];
    const codes = new Map<string, number>();
    let sent = 0;
    const worker = async () => {
      while (sent < COUNT) {
        sent += 1;
        const request = fuzzer.next();
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': request.contentType, 'x-api-key': admin }, body: request.body });
        const text = await res.text();
        let code = `http ${res.status}`;
        try {
          const json = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
          code = json.errors?.[0]?.extensions?.code ?? (json.errors ? 'no code' : 'ok');
        } catch {
          // Not JSON: counted under its HTTP status.
        }
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (res.status >= 500 || /INTERNAL_SERVER_ERROR/.test(text) || STACK_TRACE.test(text)) {
          failures.push(`${request.kind} -> ${res.status} ${text.slice(0, 300)}\n  request: ${request.body.slice(0, 500)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    process.stdout.write(`fuzz ${JSON.stringify({ count: COUNT, seed: SEED, codes: Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])), failures: failures.length })}\n`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(await graphFingerprint()).toBe(before);
    // The sample reached the resolvers, not only the validator.
    expect(codes.get('ok') ?? 0).toBeGreaterThan(COUNT / 20);
  });
});
