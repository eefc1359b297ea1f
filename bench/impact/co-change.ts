// Co-change as prediction, and change review on real commits, over an indexed repository whose
// history was read (bench/impact/history.ts). node dist/bench/impact/co-change.js <name> [testCommits] [reviewCommits]
// 1. For each of the newest test commits changing 2-15 functions/methods the graph holds: hide one,
//    rank candidates from the others by static edges alone (callers and callees, then depth 2) and by
//    static + co-change (rules learnt only from commits older than the test commit, interleaved);
//    recall@10 of the hidden one, and the precision of the co-change suggestions.
// 2. Change review of the newest commits: scopes by line ranges (what reviewChange reports) against
//    scopes whose text changed (both versions parsed): exact when both sets are equal.
import { aggregate, CommitRecord, DEFAULT_AGGREGATE, HistoryRepository } from '@scopegraph/history';
import { changedByContent, ImpactService, ReviewService } from '@scopegraph/impact';
import { ParserService } from '@scopegraph/ingest';
import { execFileSync } from 'node:child_process';
import { IngestHarness } from '../../test/support/ingest-harness';

const K = 10;

async function main(): Promise<void> {
  const [name, testArg = '60', reviewArg = '20'] = process.argv.slice(2);
  const h = new IngestHarness();
  await h.neo4j.waitUntilReady();
  const impact = new ImpactService(h.neo4j);
  try {
    const commits = (await new HistoryRepository(h.neo4j).storedCommits(name)).sort((a, b) => a.time - b.time || (a.sha < b.sha ? -1 : 1));
    const fns = new Set(
      (await h.neo4j.runStatement<{ id: string }>("MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method'] RETURN s.id AS id", { r: name })).map((r) => r.id),
    );
    const tests = commits
      .map((c, i) => ({ c, i, s: c.leaves.filter((id) => fns.has(id)) }))
      .filter((t) => !t.c.mass && t.s.length >= 2 && t.s.length <= 15)
      .slice(-Number(testArg));
    const totals = { trials: 0, staticHits: 0, bothHits: 0, coHits: 0, coSuggested: 0, coCorrect: 0 };
    for (const t of tests) {
      const train: CommitRecord[] = commits.slice(0, t.i);
      const rules = new Map<string, { to: string; confidence: number }[]>();
      for (const r of aggregate(train, DEFAULT_AGGREGATE).scopeCoChanges) {
        const list = rules.get(r.from) ?? [];
        list.push({ to: r.to, confidence: r.confidence });
        rules.set(r.from, list);
      }
      for (const hidden of t.s) {
        const query = t.s.filter((x) => x !== hidden);
        const asked = new Set(query);
        const staticList = await staticCandidates(h, impact, name, query);
        const co = new Map<string, number>();
        for (const q of query) for (const r of rules.get(q) ?? []) if (!asked.has(r.to)) co.set(r.to, Math.max(co.get(r.to) ?? 0, r.confidence));
        const coList = [...co.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
        const both: string[] = [];
        for (let i = 0; both.length < K && (i < coList.length || i < staticList.length); i++) {
          for (const id of [coList[i], staticList[i]]) if (id && !both.includes(id) && both.length < K) both.push(id);
        }
        totals.trials++;
        if (staticList.slice(0, K).includes(hidden)) totals.staticHits++;
        if (both.includes(hidden)) totals.bothHits++;
        if (coList.slice(0, K).includes(hidden)) totals.coHits++;
        const suggested = coList.slice(0, K);
        totals.coSuggested += suggested.length;
        totals.coCorrect += suggested.filter((id) => t.s.includes(id)).length;
      }
    }
    const pct = (a: number, b: number) => (b ? (a / b).toFixed(3) : 'n/a');
    process.stdout.write(
      `co-change prediction over ${tests.length} commits, ${totals.trials} hide-one trials: recall@${K} static ${pct(totals.staticHits, totals.trials)}, ` +
        `static+co-change ${pct(totals.bothHits, totals.trials)}, co-change alone ${pct(totals.coHits, totals.trials)}; ` +
        `co-change suggestions ${totals.coSuggested}, precision ${pct(totals.coCorrect, totals.coSuggested)}\n`,
    );

    const [repo] = await h.neo4j.runStatement<{ rootPath: string }>('MATCH (r:Repository {id: $r}) RETURN r.rootPath AS rootPath', { r: name });
    const review = new ReviewService(h.neo4j, impact);
    const parser = new ParserService();
    await parser.init();
    const shas = execFileSync('git', ['-C', repo.rootPath, 'log', '--no-merges', '--format=%H', `-${reviewArg}`, '--', '*.ts', '*.py']).toString().trim().split('\n');
    let exact = 0;
    for (const sha of shas) {
      const r = await review.review({ repository: name, base: `${sha}~1`, head: sha, depth: 1 });
      const byRanges = new Set(r.changedScopes.map((s) => `${s.change} ${s.id}`));
      const byContent = new Set<string>();
      for (const f of r.files.filter((x) => x.parsed)) {
        const show = (ref: string) => {
          try {
            return execFileSync('git', ['-C', repo.rootPath, 'show', `${ref}:${f.path}`], { maxBuffer: 64 << 20 }).toString();
          } catch {
            return null;
          }
        };
        const before = show(`${sha}~1`);
        const after = show(sha);
        for (const s of changedByContent(f.path, before === null ? [] : parser.parseFile(f.path, before).scopes, after === null ? [] : parser.parseFile(f.path, after).scopes)) byContent.add(`${s.change} ${s.id}`);
      }
      const same = byRanges.size === byContent.size && [...byRanges].every((x) => byContent.has(x));
      if (same) exact++;
      else {
        const onlyRanges = [...byRanges].filter((x) => !byContent.has(x));
        const onlyContent = [...byContent].filter((x) => !byRanges.has(x));
        process.stdout.write(`  ${sha.slice(0, 10)}: ranges-only ${JSON.stringify(onlyRanges.slice(0, 4))} content-only ${JSON.stringify(onlyContent.slice(0, 4))}\n`);
      }
    }
    process.stdout.write(`change review: ${exact} of ${shas.length} commits with changed scopes exactly right (line ranges = changed text)\n`);
    await review.onModuleDestroy();
    parser.dispose();
  } finally {
    await h.neo4j.onModuleDestroy();
  }
}

/** Static neighbours of the query scopes, most-linked first: callers and callees, then depth 2 dependents. */
async function staticCandidates(h: IngestHarness, impact: ImpactService, repo: string, query: string[]): Promise<string[]> {
  const asked = new Set(query);
  const score = new Map<string, number>();
  const rows = await h.neo4j.runStatement<{ id: string; n: number }>(
    `UNWIND $ids AS id MATCH (q:Scope {id: id})-[:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
     WHERE NOT s:File RETURN s.id AS id, count(DISTINCT q) AS n`,
    { ids: query },
  );
  for (const r of rows) if (!asked.has(r.id)) score.set(r.id, 10 + r.n);
  const deeper = await impact.impact({ repository: repo, scopeIds: query, depth: 2, coChanged: 0, maxNodes: 200 });
  for (const l of deeper.levels) for (const s of l.scopes) if (!asked.has(s.scope.id) && !score.has(s.scope.id) && s.scope.kind !== 'file') score.set(s.scope.id, 10 - l.depth);
  return [...score.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}

void main();
