// History as a prior in LOCALIZE, measured on the dev set (bench/localize/README.md):
//   node dist/bench/localize/history-prior.js [clonesDir=/work/corpora/hist] [cache.json]
// For each issue whose snapshot is indexed with embeddings and whose project has a clone in clonesDir
// (a full git clone of the project): LOCALIZE's top 50 functions, then the same list re-ranked by
// score × (1 + w × prior) for each prior and weight. The prior is read from the project's history up to
// the issue's base commit and never after (a detached worktree at the base commit; git log from there),
// attributed to the snapshot's scopes as the history read does (RangeTracker). Function Acc@1/5/10
// (every changed function in the top k) and any-hit@10, per project and overall.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { aggregate, applyHistoryPrior, ChangeStats, CommitRecord, DEFAULT_AGGREGATE, fileNodeId, HistoryPriorOptions, HistoryRepository, RangeTracker, readGitLog } from '@scopegraph/history';
import { defaultPlan, EvalTarget, judge, SearchRepository, SearchService } from '@scopegraph/search';
import { IngestHarness } from '../../test/support/ingest-harness';

interface Issue {
  id: string;
  repo: string;
  query: string;
  relevant: EvalTarget[];
  meta: { project: string; baseCommit: string };
}
interface Cached {
  hits: { id: string; score: number; path: string; name: string; qualifiedName: string; kind: string }[];
  stats: [string, ChangeStats][];
  now: number;
}

const CONFIGS: (HistoryPriorOptions & { name: string })[] = [{ name: 'localize (no prior)', kind: 'recency', weight: 0, halfLifeDays: 180 }];
for (const w of [0.05, 0.1, 0.2, 0.4]) {
  CONFIGS.push({ name: `recency 90d w=${w}`, kind: 'recency', weight: w, halfLifeDays: 90 });
  CONFIGS.push({ name: `recency 365d w=${w}`, kind: 'recency', weight: w, halfLifeDays: 365 });
  CONFIGS.push({ name: `frequency w=${w}`, kind: 'frequency', weight: w, halfLifeDays: 0 });
  CONFIGS.push({ name: `recent churn (90d) w=${w}`, kind: 'recentChurn', weight: w, halfLifeDays: 0 });
  CONFIGS.push({ name: `file frequency w=${w}`, kind: 'fileFrequency', weight: w, halfLifeDays: 0 });
}

async function main(): Promise<void> {
  const [clones = '/work/corpora/hist', cachePath = '/tmp/history-prior-cache.json'] = process.argv.slice(2);
  const issues: Issue[] = fs
    .readFileSync(path.join(__dirname, '../../../bench/localize/datasets/issues-dev.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Issue);
  const cache: Record<string, Cached> = fs.existsSync(cachePath) ? JSON.parse(fs.readFileSync(cachePath, 'utf8')) : {};
  const h = await new IngestHarness().init();
  const service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
  const history = new HistoryRepository(h.neo4j);
  try {
    for (const q of issues) {
      if (cache[q.id]) continue;
      const clone = path.join(clones, q.meta.project);
      const [row] = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $r}) WHERE s.embedding IS NOT NULL RETURN count(s) AS n', { r: q.repo });
      if (!fs.existsSync(clone) || !row || Number(row.n) === 0) {
        process.stdout.write(`skip ${q.id}: ${fs.existsSync(clone) ? 'snapshot not embedded' : 'no clone'}\n`);
        continue;
      }
      const plan = defaultPlan('localize', q.query);
      plan.filters = { repository: q.repo };
      plan.limit = 50;
      plan.sourceChars = 0;
      const res = await service.execute(plan);
      const hits = res.results.map((r) => ({ id: r.scope.id, score: r.score, path: r.scope.path, name: r.scope.name, qualifiedName: r.scope.qualifiedName, kind: r.scope.kind }));
      // History stops at the base commit: the worktree's HEAD is the base, git log reads from there back.
      const wt = path.join('/tmp/history-prior-wt', q.id);
      if (!fs.existsSync(wt)) execFileSync('git', ['-C', clone, 'worktree', 'add', '-q', '--detach', wt, q.meta.baseCommit]);
      const tracker = new RangeTracker(await history.scopeRanges(q.repo));
      const records: CommitRecord[] = [];
      for await (const c of readGitLog(wt, { maxCommits: 100_000 })) {
        const scopes = new Map<string, number>();
        for (const f of c.files) for (const t of tracker.apply(f).touched) scopes.set(t.id, (scopes.get(t.id) ?? 0) + t.lines);
        records.push({
          sha: c.sha, time: c.time, authorName: '', authorEmail: '', subject: '',
          files: c.files.map((f) => fileNodeId(q.repo, f.path)), fileLines: c.files.map((f) => f.linesAdded + f.linesDeleted),
          scopes: [...scopes.keys()], scopeLines: [...scopes.values()], leaves: [], mass: false,
        });
      }
      execFileSync('git', ['-C', clone, 'worktree', 'remove', '--force', wt]);
      const agg = aggregate(records, { ...DEFAULT_AGGREGATE, minSupport: 1_000_000 });
      const stats: [string, ChangeStats][] = [...agg.scopes, ...agg.files].map((s) => [s.key, s]);
      cache[q.id] = { hits, stats, now: agg.newest ?? 0 };
      fs.writeFileSync(cachePath, JSON.stringify(cache));
      process.stdout.write(`${q.id}: ${hits.length} hits, ${records.length} commits before the base\n`);
    }
  } finally {
    await h.dispose([]);
  }
  report(issues.filter((q) => cache[q.id]), cache);
}

function report(issues: Issue[], cache: Record<string, Cached>): void {
  const projects = [...new Set(issues.map((q) => q.meta.project))];
  const groups = [...projects.map((p) => ({ name: p, qs: issues.filter((q) => q.meta.project === p) })), { name: 'all', qs: issues }];
  process.stdout.write(`\nfn Acc@1 / Acc@5 / Acc@10 / any@10 (issues: ${groups.map((g) => `${g.name} ${g.qs.length}`).join(', ')})\n`);
  process.stdout.write(`| prior | ${groups.map((g) => g.name).join(' | ')} |\n| --- |${groups.map(() => ' --- |').join('')}\n`);
  for (const cfg of CONFIGS) {
    const cells = groups.map((g) => {
      const m = [0, 0, 0, 0];
      for (const q of g.qs) {
        const c = cache[q.id];
        const stats = new Map(c.stats);
        const ranked = applyHistoryPrior(c.hits, { stats, now: c.now, fileOf: (id) => fileNodeId(q.repo, c.hits.find((x) => x.id === id)!.path) }, cfg);
        const { targetRanks } = judge(ranked.map((r) => ({ ...r, repoId: q.repo })), q.repo, q.relevant);
        const all = (k: number) => targetRanks.every((r) => r !== null && r <= k);
        m[0] += all(1) ? 1 : 0;
        m[1] += all(5) ? 1 : 0;
        m[2] += all(10) ? 1 : 0;
        m[3] += targetRanks.some((r) => r !== null && r <= 10) ? 1 : 0;
      }
      return m.map((x) => (x / g.qs.length).toFixed(3)).join(' / ');
    });
    process.stdout.write(`| ${cfg.name} | ${cells.join(' | ')} |\n`);
  }
}

void main();
