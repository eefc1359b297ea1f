/**
 * LOCALIZE latency through the GraphQL API: every issue of a dataset sent in LOCALIZE mode against
 * one repository (or all, with --repo ''), `--rounds` times, after one unmeasured warm-up; prints the
 * server's own timings.total and the round trip, p50/p95, with the machine's load average.
 *
 *   node dist/bench/localize/latency.js --url http://127.0.0.1:4000/graphql --repo pythonnet \
 *     --dataset bench/localize/datasets/issues-dev.jsonl [--rounds 2]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { arg, percentile } from '../support/bench-util';

const QUERY = `query($input: SearchInput!) { search(input: $input) { results { scope { id } } timings { total localize embed semantic bm25 fetch } warnings } }`;

async function main(): Promise<void> {
  const url = arg('url', 'http://127.0.0.1:4000/graphql');
  const repo = arg('repo', '');
  const rounds = Number(arg('rounds', '2'));
  const issues = fs
    .readFileSync(arg('dataset', 'bench/localize/datasets/issues-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { query: string }).query);
  const send = async (text: string) => {
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY, variables: { input: { text, mode: 'LOCALIZE', topK: 10, sourceChars: 0, ...(repo ? { repository: repo } : {}) } } }) });
    const body = (await res.json()) as { data?: { search: { timings: { total: number } } }; errors?: { message: string }[] };
    if (res.status !== 200 || body.errors) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body.errors)}`);
    return { server: body.data!.search.timings.total, roundTrip: performance.now() - t0 };
  };
  await send(issues[0]);
  const server: number[] = [];
  const trip: number[] = [];
  const load = os.loadavg()[0];
  for (let r = 0; r < rounds; r++) {
    for (const text of issues) {
      const t = await send(text);
      server.push(t.server);
      trip.push(t.roundTrip);
    }
  }
  const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;
  process.stdout.write(`LOCALIZE on ${repo || 'all repositories'}: ${server.length} searches; server ${fmt(server)}; round trip ${fmt(trip)}; load average ${load.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
