/**
 * LOCALIZE latency through the GraphQL API: every issue of a dataset sent against one repository (or
 * all, with --repo ''), `--rounds` times, after one unmeasured warm-up per mode; the modes are
 * interleaved per issue (LOCALIZE, then hybrid over the same issue cut at the query limit, as the
 * eval sends it), so both see the same load on this shared machine. Prints the server's own
 * timings.total and the round trip, p50/p95, per mode; LOCALIZE's stages (explain.localize.stages)
 * p50/p95; and the load average before and after.
 *
 * With --baseline-url (an API running other code over the same database), every search is also sent
 * there right after (which one goes first alternating), so both builds are timed under the same
 * load, and each LOCALIZE answer (its ranked functions and files) is compared with the baseline's.
 * With --rounds above 1 the first round is also shown apart: against APIs started just before, its
 * query texts are new to them (every query embedded), later rounds find their vectors cached.
 *
 *   node dist/bench/localize/latency.js --url http://127.0.0.1:4000/graphql --repo pythonnet \
 *     --dataset bench/localize/datasets/issues-dev.jsonl [--rounds 2] [--modes localize,hybrid] \
 *     [--baseline-url http://127.0.0.1:4001/graphql] [--top-k 10] [--json out.json]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { arg, percentile, printTable } from '../support/bench-util';

const QUERY = `query($input: SearchInput!) { search(input: $input) { results { scope { id } } files { path } timings { total localize embed semantic bm25 fetch } explain warnings } }`;
/** As the eval cuts an issue for the modes that take it as any query. */
const MAX_TEXT = 1_000;

type Mode = 'localize' | 'hybrid' | 'bm25';

interface Sample {
  server: number;
  roundTrip: number;
  stages: Record<string, number>;
  /** The ranked scope ids and files, for comparing two builds. */
  answer: string;
  /** Which round it was sent in (0: the first). */
  round?: number;
}

async function main(): Promise<void> {
  const url = arg('url', 'http://127.0.0.1:4000/graphql');
  const repo = arg('repo', '');
  const rounds = Number(arg('rounds', '2'));
  const baselineUrl = arg('baseline-url', '');
  const topK = Number(arg('top-k', '10'));
  const modes = arg('modes', 'localize,hybrid').split(',').map((m) => m.trim()) as Mode[];
  const issues = fs
    .readFileSync(arg('dataset', 'bench/localize/datasets/issues-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { query: string }).query);
  const send = async (text: string, mode: Mode, to = url): Promise<Sample> => {
    const input = {
      text: mode === 'localize' ? text : text.slice(0, MAX_TEXT),
      mode: mode.toUpperCase(),
      ...(mode === 'hybrid' ? { autoLocalize: false } : {}),
      topK,
      sourceChars: 0,
      ...(repo ? { repository: repo } : {}),
    };
    const t0 = performance.now();
    const res = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY, variables: { input } }) });
    const body = (await res.json()) as {
      data?: { search: { results: { scope: { id: string } }[]; files: { path: string }[] | null; timings: { total: number }; explain: { localize?: { stages?: Record<string, number> } } } };
      errors?: { message: string }[];
    };
    if (res.status !== 200 || body.errors) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body.errors)}`);
    const search = body.data!.search;
    const answer = JSON.stringify([search.results.map((r) => r.scope.id), (search.files ?? []).map((f) => f.path)]);
    return { server: search.timings.total, roundTrip: performance.now() - t0, stages: search.explain.localize?.stages ?? {}, answer };
  };
  for (const mode of modes) {
    await send(issues[0], mode);
    if (baselineUrl) await send(issues[0], mode, baselineUrl);
  }
  const samples = new Map<string, Sample[]>([...modes, ...(baselineUrl ? modes.map((m) => `${m} (baseline)`) : [])].map((m) => [m, []]));
  const differing: string[] = [];
  const failed: string[] = [];
  const loadBefore = os.loadavg();
  const started = Date.now();
  for (let r = 0; r < rounds; r++) {
    for (const text of issues) {
      for (const mode of modes) {
        // A search the shared database refused (its transaction timeout, under another helper's load)
        // is counted and left out, with its pair, rather than ending the run.
        try {
          if (!baselineUrl) {
            samples.get(mode)!.push({ ...(await send(text, mode)), round: r });
            continue;
          }
          // Which build goes first alternates: the second of a pair finds Neo4j's caches warm.
          const baseFirst = (r * issues.length + issues.indexOf(text)) % 2 === 1;
          const early = baseFirst ? await send(text, mode, baselineUrl) : undefined;
          const mine = await send(text, mode);
          const base = early ?? (await send(text, mode, baselineUrl));
          samples.get(mode)!.push({ ...mine, round: r });
          samples.get(`${mode} (baseline)`)!.push({ ...base, round: r });
          if (mode === 'localize' && mine.answer !== base.answer) differing.push(`round ${r + 1}, issue ${issues.indexOf(text) + 1}`);
        } catch (error) {
          failed.push(`round ${r + 1}, issue ${issues.indexOf(text) + 1}, ${mode}: ${(error as Error).message.slice(0, 120)}`);
        }
      }
    }
  }
  const loadAfter = os.loadavg();
  const fmt = (n: number) => n.toFixed(1);
  process.stdout.write(
    `${repo || 'all repositories'}: ${issues.length} issues x ${rounds} rounds per mode, modes interleaved; load average (1/5/15 min) ${loadBefore.map(fmt).join(' ')} -> ${loadAfter.map(fmt).join(' ')} on ${os.cpus().length} cores; ${((Date.now() - started) / 1000).toFixed(0)} s\n\n`,
  );
  const rows: (string | number)[][] = [['mode', 'searches', 'server p50', 'server p95', 'round trip p50', 'round trip p95']];
  for (const mode of samples.keys()) {
    const xs = samples.get(mode)!;
    rows.push([mode, xs.length, percentile(xs.map((s) => s.server), 50), percentile(xs.map((s) => s.server), 95), percentile(xs.map((s) => s.roundTrip), 50), percentile(xs.map((s) => s.roundTrip), 95)]);
  }
  printTable(rows);
  if (failed.length > 0) process.stdout.write(`\n${failed.length} searches failed and were left out (with their pair): ${failed.slice(0, 5).join('; ')}\n`);
  if (rounds > 1) {
    // Round 1 embeds every text the API has not seen (all of them, for APIs started just before);
    // later rounds find the query vectors in the API's cache.
    const perRound: (string | number)[][] = [['mode', 'round 1 p50', 'round 1 p95', 'later rounds p50', 'later rounds p95']];
    for (const mode of samples.keys()) {
      const first = samples.get(mode)!.filter((s) => s.round === 0).map((s) => s.server);
      const later = samples.get(mode)!.filter((s) => s.round !== 0).map((s) => s.server);
      perRound.push([mode, percentile(first, 50), percentile(first, 95), percentile(later, 50), percentile(later, 95)]);
    }
    process.stdout.write('\nServer time by round (round 1: query texts new to the API, unless sent before this run):\n');
    printTable(perRound);
  }
  if (modes.includes('hybrid') && modes.includes('localize')) {
    const ratio = (p: number) => percentile(samples.get('localize')!.map((s) => s.server), p) / percentile(samples.get('hybrid')!.map((s) => s.server), p);
    process.stdout.write(`\nLOCALIZE / hybrid (server time): p50 ${ratio(50).toFixed(2)}, p95 ${ratio(95).toFixed(2)}\n`);
  }
  if (baselineUrl && modes.includes('localize')) {
    const n = samples.get('localize')!.length;
    const shown = differing.slice(0, 10).join('; ') + (differing.length > 10 ? `; ${differing.length - 10} more` : '');
    process.stdout.write(`\nLOCALIZE answers (top ${topK} functions and the file roll-up) identical to the baseline's: ${n - differing.length} of ${n}${differing.length ? ` (differ: ${shown})` : ''}\n`);
    const ratio = (p: number) => percentile(samples.get('localize')!.map((s) => s.server), p) / percentile(samples.get('localize (baseline)')!.map((s) => s.server), p);
    process.stdout.write(`LOCALIZE / baseline LOCALIZE (server time): p50 ${ratio(50).toFixed(2)}, p95 ${ratio(95).toFixed(2)}\n`);
  }
  const loc = samples.get('localize');
  if (loc && loc.length > 0) {
    const names = [...new Set(loc.flatMap((s) => Object.keys(s.stages)))];
    process.stdout.write('\nLOCALIZE stages (ms; a list runs at once with the others of its phase, the phases add up):\n');
    const stageRows: (string | number)[][] = [['stage', 'p50', 'p95', 'mean']];
    for (const name of names) {
      const xs = loc.map((s) => s.stages[name] ?? 0);
      stageRows.push([name, percentile(xs, 50), percentile(xs, 95), xs.reduce((a, b) => a + b, 0) / xs.length]);
    }
    printTable(stageRows);
  }
  const out = arg('json', '');
  if (out) fs.writeFileSync(out, JSON.stringify({ repo, rounds, loadBefore, loadAfter, samples: Object.fromEntries(samples) }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
