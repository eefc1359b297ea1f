/**
 * How soon an index is searchable: one API and one worker (the default settings, so embedding follows
 * the graph write), an index started through GraphQL as `scopegraph index` does, and keyword (BM25)
 * searches every 100 ms for names the corpus defines. The time from the mutation to the first hit on
 * each name is measured; embedding goes on after it. Shared by bench:fanout and bench:scale.
 */
import { gql } from '../../test/support/graphql-client';
import { API_READY, freePort, runId, WORKER_READY } from '../../test/support/processes';
import { startBuiltApp, stopApp } from '../support/bench-util';

export interface SearchableRun {
  /** Mutation to the first keyword hit on the first term. */
  searchableAfterMs: number;
  /** Mutation to the first hit on each term (in the order given). */
  termsAfterMs: Record<string, number>;
  /** Scopes the run had written when the first term was found. */
  scopesAtFirstHit: number;
  /** Mutation to the end of the graph write (the run's phase turned to embedding or done); null if not seen within the wait. */
  graphWrittenAfterMs: number | null;
}

const POLL_MS = 100;
/** How long the end of the graph write is waited for once every term was found. */
const GRAPH_WAIT_MS = 600_000;

/** SIGTERM, then SIGKILL: a worker in the middle of embedding would otherwise finish its job before it exits. */
async function stopNow(child: Parameters<typeof stopApp>[0]): Promise<void> {
  const timer = setTimeout(() => child?.kill('SIGKILL'), 3_000);
  await stopApp(child);
  clearTimeout(timer);
}

export async function searchableAfter(corpus: string, terms: string[], env: Record<string, string> = {}): Promise<SearchableRun> {
  const prefix = runId('srch');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  const repo = runId('srchrepo');
  const [api, worker] = await Promise.all([
    startBuiltApp('api', { QUEUE_PREFIX: prefix, API_PORT: String(port), ...env }, API_READY),
    startBuiltApp('worker', { QUEUE_PREFIX: prefix, ...env }, WORKER_READY),
  ]);
  try {
    const t0 = performance.now();
    const started = await gql(url, 'mutation($i: IndexRepositoryInput!) { indexRepository(input: $i) { id } }', { i: { path: corpus, name: repo } });
    if (started.body.errors) throw new Error(JSON.stringify(started.body.errors));
    const termsAfterMs: Record<string, number> = {};
    let scopesAtFirstHit = -1;
    let graphWrittenAfterMs: number | null = null;
    while (Object.keys(termsAfterMs).length < terms.length || (graphWrittenAfterMs === null && performance.now() - t0 < GRAPH_WAIT_MS)) {
      for (const term of terms.filter((t) => !(t in termsAfterMs))) {
        const { body } = await gql(url, 'query($i: SearchInput!) { search(input: $i) { results { scope { name } } } }', { i: { text: term, mode: 'BM25', repository: repo, topK: 1 } });
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        if (!body.data.search.results.length) continue;
        termsAfterMs[term] = Math.round(performance.now() - t0);
        if (scopesAtFirstHit < 0) {
          const { body: r } = await gql(url, '{ repositories { name indexRun { scopesWritten } } }');
          scopesAtFirstHit = r.data.repositories.find((x: { name: string }) => x.name === repo)?.indexRun?.scopesWritten ?? -1;
        }
      }
      if (graphWrittenAfterMs === null) {
        const { body } = await gql(url, '{ repositories { name indexRun { phase } } }');
        const phase = body.data.repositories.find((x: { name: string }) => x.name === repo)?.indexRun?.phase;
        if (phase === 'embedding' || phase === 'done') graphWrittenAfterMs = Math.round(performance.now() - t0);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return { searchableAfterMs: termsAfterMs[terms[0]], termsAfterMs, scopesAtFirstHit, graphWrittenAfterMs };
  } finally {
    await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: repo }).catch(() => undefined);
    await Promise.all([stopNow(api), stopNow(worker)]);
  }
}
