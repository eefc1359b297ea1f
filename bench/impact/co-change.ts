// Co-change as prediction, and change review on real commits, over indexed repositories whose
// history was read (bench/impact/history.ts).
//   node dist/bench/impact/co-change.js <name[,name...]> [testCommitsPerRepo] [reviewCommits]
// 1. Per repository, the newest 2N commits changing 2-15 functions/methods the graph holds are the test
//    commits: the older N tune, the newer N are held out. Rules are learnt once, only from commits older
//    than every test commit (no leak). In each test commit each changed function is hidden in turn and
//    ranked from the others by static edges alone (callers and callees, then depth 2), by history alone
//    and by ways of combining them; recall@10 of the hidden one, per repository, split and overall. The
//    combination chosen on the tune split of the union is then reported on the held-out split.
// 2. Change review of the newest commits: scopes by line ranges (what reviewChange reports) against
//    scopes whose text changed (both versions parsed): exact when both sets are equal.
import { aggregate, appendRanked, coChangeRanking, DEFAULT_AGGREGATE, fileNodeId, fileHistoryRanking, fuseRanked, HistoryRepository, rulesByFrom } from '@scopegraph/history';
import { changedByContent, ImpactService, PartnerRow, ReviewService, ScopeRef } from '@scopegraph/impact';
import { ParserService } from '@scopegraph/ingest';
import { execFileSync } from 'node:child_process';
import { IngestHarness } from '../../test/support/ingest-harness';

const K = 10;

async function main(): Promise<void> {
  const [names, testArg = '80', reviewArg = '0'] = process.argv.slice(2);
  const h = new IngestHarness();
  await h.neo4j.waitUntilReady();
  const impact = new ImpactService(h.neo4j);
  try {
    const perRepo: RepoResult[] = [];
    for (const name of names.split(',')) perRepo.push(await predict(h, impact, name, Number(testArg)));
    report(perRepo);
    if (Number(reviewArg) === 0) return;
    const name = names.split(',')[0];
    const [repo] = await h.neo4j.runStatement<{ rootPath: string }>('MATCH (r:Repository {id: $r}) RETURN r.rootPath AS rootPath', { r: name });
    const review = new ReviewService(h.neo4j, impact);
    const parser = new ParserService();
    await parser.init();
    const shas = execFileSync('git', ['-C', repo.rootPath, 'log', '--no-merges', '--format=%H', `-${reviewArg}`, '--', '*.ts', '*.py']).toString().trim().split('\n');
    // Co-change rules as the graph would hold them had history been read up to the oldest reviewed
    // commit: the graph's own rules saw the reviewed commits.
    const reviewRules = await rulesBefore(h, name, shas[shas.length - 1]);
    const git = (args: string[], env: NodeJS.ProcessEnv = {}) => execFileSync('git', ['-C', repo.rootPath, ...args], { env: { ...process.env, ...env }, maxBuffer: 64 << 20 }).toString().trim();
    // Partial commits are written to a separate object store (GIT_OBJECT_DIRECTORY, the repository's
    // own as an alternate): the indexed repository is left as it was.
    const partialReviews = !!process.env.GIT_OBJECT_DIRECTORY;
    if (!partialReviews) process.stdout.write('partial reviews skipped: run with GIT_OBJECT_DIRECTORY=<scratch dir> GIT_ALTERNATE_OBJECT_DIRECTORIES=<repo>/.git/objects\n');
    const partial = { reviews: 0, suggested: 0, correct: 0, hitAny: 0 };
    let exact = 0;
    for (const sha of shas) {
      const r = await review.review({ repository: name, base: `${sha}~1`, head: sha, depth: 1 }, { coChangeRules: reviewRules });
      // A developer who forgot one file: the commit with that file left at its old version, reviewed;
      // a suggestion is right when it is one of that file's changed functions.
      const fnIds = (f: string) => r.changedScopes.filter((c) => c.path === f && c.inGraph && c.change !== 'added' && ['function', 'method'].includes(c.kind)).map((c) => c.graphId);
      const parsedFiles = r.files.filter((f) => f.parsed).map((f) => f.path);
      for (const hidden of partialReviews && parsedFiles.length >= 2 ? parsedFiles : []) {
        const missing = new Set(fnIds(hidden));
        if (missing.size === 0 || parsedFiles.every((f) => f === hidden || fnIds(f).length === 0)) continue;
        const index = `/tmp/co-change-bench-index-${process.pid}`;
        git(['read-tree', sha], { GIT_INDEX_FILE: index });
        const old = r.files.find((f) => f.path === hidden)!.change === 'added' ? null : git(['rev-parse', `${sha}~1:${hidden}`]);
        if (old) git(['update-index', '--cacheinfo', `100644,${old},${hidden}`], { GIT_INDEX_FILE: index });
        else git(['update-index', '--force-remove', hidden], { GIT_INDEX_FILE: index });
        const tree = git(['write-tree'], { GIT_INDEX_FILE: index });
        const commit = git(['commit-tree', tree, '-p', `${sha}~1`, '-m', 'partial'], { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' });
        const pr = await review.review({ repository: name, base: `${sha}~1`, head: commit, depth: 1 }, { coChangeRules: reviewRules });
        const top = pr.changeSuggestions.slice(0, K);
        partial.reviews++;
        partial.suggested += top.length;
        const right = top.filter((c) => missing.has(c.scope.id)).length;
        partial.correct += right;
        if (right) partial.hitAny++;
      }
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
    const pct = (a: number, b: number) => (b ? (a / b).toFixed(3) : 'n/a');
    process.stdout.write(
      `partial reviews (one changed file left out of the commit): ${partial.reviews}; changeSuggestions top ${K}: ${partial.suggested} made, ${partial.correct} right, ` +
        `precision ${pct(partial.correct, partial.suggested)}; reviews with at least one right ${partial.hitAny} (${pct(partial.hitAny, partial.reviews)})\n`,
    );
    await review.onModuleDestroy();
    parser.dispose();
  } finally {
    // dispose([]) deletes no repository; it also closes the queue connections, which kept the process alive.
    await h.dispose([]);
  }
}

/** Scope co-change rules learnt, with the history read's thresholds, from the commits older than `sha`. */
async function rulesBefore(h: IngestHarness, name: string, sha: string): Promise<(ids: string[]) => Promise<PartnerRow[]>> {
  const commits = (await new HistoryRepository(h.neo4j).storedCommits(name)).sort((a, b) => a.time - b.time || (a.sha < b.sha ? -1 : 1));
  const at = commits.findIndex((c) => c.sha === sha);
  const rules = rulesByFrom(aggregate(commits.slice(0, at < 0 ? commits.length : at), DEFAULT_AGGREGATE).scopeCoChanges);
  const ids = [...new Set([...rules.values()].flat().map((r) => r.to))];
  const refs = new Map(
    (
      await h.neo4j.runStatement<ScopeRef>(
        'UNWIND $ids AS id MATCH (s:Scope {id: id}) RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path, s.startLine AS startLine, s.endLine AS endLine',
        { ids },
      )
    ).map((r) => [r.id, r]),
  );
  return async (qs) =>
    qs.flatMap((q) =>
      (rules.get(q) ?? []).filter((r) => refs.has(r.to)).map((r) => ({ ...refs.get(r.to)!, source: 'co-change' as const, links: null, query: q, distance: null, support: r.support, confidence: r.confidence })),
    );
}

type Split = 'tune' | 'held';
interface RepoResult {
  name: string;
  commits: Record<Split, number>;
  trials: Record<Split, number>;
  /** Hits per strategy per split. */
  hits: Map<string, Record<Split, number>>;
  suggested: Record<Split, { n: number; correct: number }>;
  /** impact's changesWith top K: suggestions made and how many changed in the test commit. */
  serviceSuggested: Record<Split, { n: number; correct: number }>;
}

/** A strategy ranks candidates for the hidden function from what one trial knows. */
type Strategy = (t: Trial) => string[];
interface Trial {
  query: string[];
  staticList: string[];
  co: (minSupport: number, minConfidence: number, combine: 'max' | 'noisyOr') => string[];
  file: string[];
  otherFiles: string[];
  /** Structure without history: the other functions of the query's files, nearest lines first. */
  sameFile: string[];
  /** impact's own changesWith (the code path the API serves), with rules learnt from the training commits. */
  service: string[];
}

const STRATEGIES = new Map<string, Strategy>();
{
  const S = STRATEGIES;
  S.set('static', (t) => t.staticList);
  S.set('co(s2,c0.1,max)', (t) => t.co(2, 0.1, 'max'));
  S.set('co(s2,c0.1,noisyOr)', (t) => t.co(2, 0.1, 'noisyOr'));
  S.set('co(s1,c0,noisyOr)', (t) => t.co(1, 0, 'noisyOr'));
  S.set('file-history', (t) => t.file);
  S.set('file-history, other files only', (t) => t.otherFiles);
  S.set('same file, nearest first (no history)', (t) => t.sameFile);
  S.set('static, then same file (no history)', (t) => appendRanked(t.staticList, t.sameFile));
  S.set('rrf static + same file (no history)', (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }]));
  for (const sup of [2, 3]) S.set(`promote co(s>=${sup},c>=0.5), rrf static + same file`, (t) => appendRanked(t.co(sup, 0.5, 'noisyOr'), fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }])));
  S.set('SERVICE: impact changesWith (rrf static + same file + 0.5*co, graph-default rules)', (t) => t.service);
  S.set('rrf static + same file + 0.5*co', (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }, { ids: t.co(2, 0.1, 'noisyOr'), weight: 0.5 }]));
  S.set('rrf static + same file + 0.5*file-history', (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }, { ids: t.file, weight: 0.5 }]));
  S.set('rrf static + same file + co', (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }, { ids: t.co(1, 0, 'noisyOr'), weight: 1 }]));
  S.set('rrf static + same file + co + other-file history', (t) =>
    fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.sameFile, weight: 1 }, { ids: t.co(1, 0, 'noisyOr'), weight: 1 }, { ids: t.otherFiles, weight: 1 }]),
  );
  // The combination measured on scopegraph's own history: co-change first, interleaved.
  S.set('interleave co first', (t) => interleave(t.co(2, 0.1, 'max'), t.staticList));
  S.set('interleave static first', (t) => interleave(t.staticList, t.co(2, 0.1, 'max')));
  for (const s of [1, 2, 3]) S.set(`static, then co(s${s})`, (t) => appendRanked(t.staticList, t.co(s, 0, 'noisyOr')));
  for (const k of [1, 3, 5]) S.set(`co first only where static < ${k}`, (t) => (t.staticList.length < k ? appendRanked(t.co(2, 0.1, 'noisyOr'), t.staticList) : appendRanked(t.staticList, t.co(2, 0.1, 'noisyOr'))));
  for (const sup of [2, 3, 5]) for (const c of [0.3, 0.5, 0.8]) {
    S.set(`promote co(s>=${sup},c>=${c}), static, rest`, (t) => appendRanked(appendRanked(t.co(sup, c, 'noisyOr'), t.staticList), t.co(1, 0, 'noisyOr')));
  }
  for (const w of [0.5, 1, 2]) S.set(`rrf static + ${w}*co`, (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.co(1, 0, 'noisyOr'), weight: w }]));
  S.set('static, then file-history', (t) => appendRanked(t.staticList, t.file));
  for (const w of [0.5, 1, 2]) S.set(`rrf static + ${w}*file-history`, (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.file, weight: w }]));
  for (const w of [0.5, 1]) S.set(`rrf static + ${w}*co + ${w}*file-history`, (t) => fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.co(1, 0, 'noisyOr'), weight: w }, { ids: t.file, weight: w }]));
  for (const sup of [2, 3]) S.set(`promote co(s>=${sup},c>=0.5), rrf static + file-history`, (t) => appendRanked(t.co(sup, 0.5, 'noisyOr'), fuseRanked([{ ids: t.staticList, weight: 1 }, { ids: t.file, weight: 1 }])));
}

function sameFile(query: string[], fileOf: Map<string, string>, scopesOfFile: Map<string, string[]>, lineOf: Map<string, number>): string[] {
  const asked = new Set(query);
  const dist = new Map<string, number>();
  for (const q of query) {
    for (const s of scopesOfFile.get(fileOf.get(q)!) ?? []) {
      if (asked.has(s)) continue;
      const d = Math.abs((lineOf.get(s) ?? 0) - (lineOf.get(q) ?? 0));
      dist.set(s, Math.min(dist.get(s) ?? Infinity, d));
    }
  }
  return [...dist.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}

function interleave(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < K && (i < a.length || i < b.length); i++) for (const id of [a[i], b[i]]) if (id && !out.includes(id) && out.length < K) out.push(id);
  return out;
}

async function predict(h: IngestHarness, impact: ImpactService, name: string, perSplit: number): Promise<RepoResult> {
  const commits = (await new HistoryRepository(h.neo4j).storedCommits(name)).sort((a, b) => a.time - b.time || (a.sha < b.sha ? -1 : 1));
  const scopeRows = await h.neo4j.runStatement<ScopeRef & { line: number }>(
    `MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method']
     RETURN s.id AS id, s.path AS path, s.startLine AS line, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.startLine AS startLine, s.endLine AS endLine`,
    { r: name },
  );
  const refOf = new Map(scopeRows.map(({ line: _l, ...r }) => [r.id, r]));
  const fileOf = new Map(scopeRows.map((r) => [r.id, fileNodeId(name, r.path)]));
  const lineOf = new Map(scopeRows.map((r) => [r.id, Number(r.line ?? 0)]));
  const eligible = commits
    .map((c, i) => ({ c, i, s: c.leaves.filter((id) => fileOf.has(id)) }))
    .filter((t) => !t.c.mass && t.s.length >= 2 && t.s.length <= 15);
  // At most half of the eligible commits are tests, so that rules have commits like them to learn from.
  const tests = eligible.slice(-Math.min(2 * perSplit, Math.floor(eligible.length / 2)));
  const cutoff = tests[0]?.i ?? commits.length;
  const train = commits.slice(0, cutoff);
  // Loose thresholds here: each strategy applies its own.
  const agg = aggregate(train, { ...DEFAULT_AGGREGATE, minSupport: 1, minConfidence: 0.02, maxPartners: 50 });
  const scopeRules = rulesByFrom(agg.scopeCoChanges);
  // What the graph's CO_CHANGED edges would hold had history been read up to the cutoff (the history
  // read's own thresholds): the rules impact's changesWith is given instead of the graph's, which saw
  // the test commits.
  const graphRules = rulesByFrom(aggregate(train, DEFAULT_AGGREGATE).scopeCoChanges);
  const coChangeRules = async (ids: string[]): Promise<PartnerRow[]> =>
    ids.flatMap((q) =>
      (graphRules.get(q) ?? [])
        .filter((r) => refOf.has(r.to))
        .map((r) => ({ ...refOf.get(r.to)!, source: 'co-change' as const, links: null, query: q, distance: null, support: r.support, confidence: r.confidence })),
    );
  const fileRules = rulesByFrom(agg.fileCoChanges);
  const changes = new Map([...agg.scopes, ...agg.files].map((s) => [s.key, s.changeCount]));
  const scopesOfFile = new Map<string, string[]>();
  for (const [id, f] of fileOf) scopesOfFile.set(f, [...(scopesOfFile.get(f) ?? []), id]);
  const span = (a: number, b: number) => `${new Date(a * 1000).toISOString().slice(0, 10)}..${new Date(b * 1000).toISOString().slice(0, 10)}`;
  process.stdout.write(
    `${name}: ${commits.length} commits kept, ${eligible.length} with 2-15 functions; training ${train.length} commits ${train.length ? span(train[0].time, train[train.length - 1].time) : ''}, ` +
      `${agg.scopeCoChanges.length} scope rules; test ${tests.length} commits ${tests.length ? span(tests[0].c.time, tests[tests.length - 1].c.time) : ''}\n`,
  );
  const res: RepoResult = {
    name,
    commits: { tune: 0, held: 0 },
    trials: { tune: 0, held: 0 },
    hits: new Map(),
    suggested: { tune: { n: 0, correct: 0 }, held: { n: 0, correct: 0 } },
    serviceSuggested: { tune: { n: 0, correct: 0 }, held: { n: 0, correct: 0 } },
  };
  const half = tests.length - Math.min(perSplit, Math.floor(tests.length / 2));
  for (const [ti, t] of tests.entries()) {
    const split: Split = ti < half ? 'tune' : 'held';
    res.commits[split]++;
    await Promise.all(
      t.s.map(async (hidden) => {
        const query = t.s.filter((x) => x !== hidden);
        const staticList = await staticCandidates(h, impact, name, query, fileOf);
        const served = await impact.impact({ repository: name, scopeIds: query, depth: 2, maxNodes: 200, coChanged: 0, changesWith: K }, { coChangeRules });
        const service = served.changesWith.map((c) => c.scope.id);
        const memo = new Map<string, string[]>();
        const trial: Trial = {
          query,
          staticList,
          co: (minSupport, minConfidence, combine) => {
            const key = `${minSupport}/${minConfidence}/${combine}`;
            if (!memo.has(key)) memo.set(key, coChangeRanking(query, scopeRules, { minSupport, minConfidence, combine }).filter((id) => fileOf.has(id)));
            return memo.get(key)!;
          },
          file: fileHistoryRanking(query, { fileOf, fileRules, scopesOfFile, changes }),
          otherFiles: fileHistoryRanking(query, { fileOf, fileRules, scopesOfFile, changes, ownFiles: false }),
          sameFile: sameFile(query, fileOf, scopesOfFile, lineOf),
          service,
        };
        res.trials[split]++;
        for (const [sname, strat] of STRATEGIES) {
          const top = strat(trial).slice(0, K);
          const rec = res.hits.get(sname) ?? { tune: 0, held: 0 };
          if (top.includes(hidden)) rec[split]++;
          res.hits.set(sname, rec);
        }
        const suggested = trial.co(2, 0.1, 'max').slice(0, K);
        res.suggested[split].n += suggested.length;
        res.suggested[split].correct += suggested.filter((id) => t.s.includes(id)).length;
        res.serviceSuggested[split].n += service.length;
        res.serviceSuggested[split].correct += service.filter((id) => t.s.includes(id)).length;
      }),
    );
  }
  return res;
}

function report(results: RepoResult[]): void {
  const pct = (a: number, b: number) => (b ? (a / b).toFixed(3) : 'n/a');
  const sum = (f: (r: RepoResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const cols = [...results.map((r) => r.name), 'union'];
  process.stdout.write(`\nrecall@${K} of the hidden function, tune split / held-out split (trials ${[...results.map((r) => `${r.name} ${r.trials.tune}/${r.trials.held}`), `union ${sum((r) => r.trials.tune)}/${sum((r) => r.trials.held)}`].join(', ')}; test commits ${results.map((r) => `${r.name} ${r.commits.tune}/${r.commits.held}`).join(', ')})\n`);
  process.stdout.write(`| strategy | ${cols.join(' | ')} |\n| --- |${cols.map(() => ' --- |').join('')}\n`);
  let best = { name: '', tune: -1 };
  for (const sname of STRATEGIES.keys()) {
    const cells = results.map((r) => `${pct(r.hits.get(sname)!.tune, r.trials.tune)} / ${pct(r.hits.get(sname)!.held, r.trials.held)}`);
    const tune = sum((r) => r.hits.get(sname)!.tune) / Math.max(1, sum((r) => r.trials.tune));
    cells.push(`${tune.toFixed(3)} / ${pct(sum((r) => r.hits.get(sname)!.held), sum((r) => r.trials.held))}`);
    if (tune > best.tune) best = { name: sname, tune };
    process.stdout.write(`| ${sname} | ${cells.join(' | ')} |\n`);
  }
  const held = (s: string) => pct(sum((r) => r.hits.get(s)!.held), sum((r) => r.trials.held));
  process.stdout.write(`\nchosen on the tune split of the union: "${best.name}" (tune ${best.tune.toFixed(3)}); held out: ${held(best.name)} against static alone ${held('static')}\n`);
  process.stdout.write(
    `co-change suggestions (co(s2,c0.1,max), top ${K}): precision tune ${pct(sum((r) => r.suggested.tune.correct), sum((r) => r.suggested.tune.n))}, held ${pct(sum((r) => r.suggested.held.correct), sum((r) => r.suggested.held.n))}\n`,
  );
  process.stdout.write(
    `impact changesWith suggestions (top ${K}, the service): ${sum((r) => r.serviceSuggested.tune.n)} / ${sum((r) => r.serviceSuggested.held.n)} made, ` +
      `precision tune ${pct(sum((r) => r.serviceSuggested.tune.correct), sum((r) => r.serviceSuggested.tune.n))}, held ${pct(sum((r) => r.serviceSuggested.held.correct), sum((r) => r.serviceSuggested.held.n))}\n`,
  );
}

/** Static neighbours of the query scopes, most-linked first: callers and callees, then depth 2 dependents. */
async function staticCandidates(h: IngestHarness, impact: ImpactService, repo: string, query: string[], fns: Map<string, string>): Promise<string[]> {
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
  return [...score.entries()]
    .filter(([id]) => fns.has(id))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([id]) => id);
}

void main();
