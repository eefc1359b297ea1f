/**
 * The first stage tuned offline on the UNION of both dev sets: every question's vector list, keyword
 * list, graph answers and candidate texts are fetched once through SearchService (cached in
 * .cache/eval/replay-lists.json), then hybrid's fusion and second stage are replayed in memory with
 * the service's own functions (rrfFuse, rescore) for each variant below. Every figure is given per
 * question type and on two halves of the union (alternate questions of each dataset and type), so
 * that a setting is only adopted when it wins on both.
 *
 *   node dist/bench/search/fusion-replay.js [--refresh] [--only a,b] [--prefix q14-] [--json FILE]
 *
 * Repositories: as `npm run eval` (rxjs) and `npm run eval:devset` (query-core, marshmallow, pythonnet) index
 * them; --prefix reads quality-tune's copies. rxjs's graph questions are judged WITHOUT expansion.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { buildLuceneQuery, fieldBoostedQuery, LANGUAGES, SCOPE_KINDS, defaultPlan, type RankedScope, rrfFuse, SEARCH_DEFAULTS, type SearchPlan, SearchRepository, SearchService } from '@scopegraph/search';
import { type EvalQuery, judge, meanMetrics, parseDataset, queryMetrics, type QueryMetrics } from '../../libs/search/src/eval';
import type { KeywordDoc } from '../../libs/search/src/fusion/keyword-blend';
import { rescore, type RescoreParams } from '../../libs/search/src/fusion/rescore';
import { isPlainWordsQuestion } from '../../libs/search/src/fusion/query-shape';
import { PROSE_FIELD_BOOSTS } from '../../libs/search/src/query/lucene';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, printTable } from '../support/bench-util';
import { DEV_SET_FILE } from './build-dataset';
import { DEVSET_FILE } from './devset-corpora';

Logger.overrideLogger(['error']);

const DEPTH = 150;
const K = 10;
const CACHE = '.cache/eval/replay-lists.json';
const DOC_CHARS = 4_000;


interface Scored {
  id: string;
  score: number;
}

interface QueryLists {
  semantic: Scored[];
  bm25: Scored[];
  /** Graph answers of a recognised relationship question, in answer order (empty otherwise). */
  graph: string[];
  /** The keyword list with prose boosts (doc comments over names). */
  bm25Prose?: Scored[];
  /** Per candidate of either list, the other candidates it has a code edge with (the second stage's link evidence). */
  links?: Record<string, string[]>;
}

type Doc = KeywordDoc & RankedScope;

interface Cache {
  lists: Record<string, QueryLists>;
  docs: Record<string, Doc>;
}

export interface ReplayParams {
  weights: { semantic: number; bm25: number };
  /** Weights for a question in plain words (no identifier, no quoted or pasted literal); null: same as `weights`. */
  describeWeights: { semantic: number; bm25: number } | null;
  k: number;
  semanticDepth: number;
  bm25Depth: number;
  rescore: RescoreParams | null;
  /** Second-stage settings that differ for a question in plain words. */
  describeRescore: Partial<RescoreParams> | null;
  /** Plain words: the keyword list with prose boosts. */
  describeProse?: boolean;
  /** Plain words: the second stage's first-stage share is the cosine, min-max normalised over the head, instead of the fused score. */
  describeCosine?: boolean;
}

interface Variant {
  name: string;
  params: ReplayParams;
}

/** What the service runs by default. */
const defaults = (): ReplayParams => ({
  weights: { semantic: SEARCH_DEFAULTS.weights.semantic, bm25: SEARCH_DEFAULTS.weights.bm25 },
  describeWeights: { ...SEARCH_DEFAULTS.plainWords.weights },
  describeProse: true,
  k: SEARCH_DEFAULTS.rrfK,
  semanticDepth: SEARCH_DEFAULTS.candidates,
  bm25Depth: SEARCH_DEFAULTS.candidates,
  rescore: { ...SEARCH_DEFAULTS.rescore },
  describeRescore: { keywordWeight: SEARCH_DEFAULTS.plainWords.rescoreKeywordWeight, nameWordsBonus: SEARCH_DEFAULTS.plainWords.rescoreNameWordsBonus },
});
/** The first stage as it was before this tuning: RRF k 60, no stems, no plain-words rule, no container evidence. */
const before = (p: ReplayParams) => {
  p.k = 60;
  p.rescore!.stemming = false;
  p.rescore!.containerBonus = 0;
  p.rescore!.linkBonus = 0;
  p.rescore!.shortAsAverage = false;
  p.describeWeights = null;
  p.describeProse = false;
  p.describeRescore = null;
};
/** The second stage as it was before step 8 (no short-candidate rule, no name-words evidence). */
const beforeStep8 = (p: ReplayParams) => {
  p.rescore!.shortAsAverage = false;
  p.describeRescore = { keywordWeight: SEARCH_DEFAULTS.plainWords.rescoreKeywordWeight };
};
const v = (name: string, change: (p: ReplayParams) => void): Variant => {
  const params = defaults();
  change(params);
  return { name, params };
};

/** The steps, cumulative, then settings around the default. */
export const VARIANTS: Variant[] = [
  v('semantic list alone', (p) => ((p.weights = { semantic: 1, bm25: 0 }), (p.describeWeights = null), (p.rescore = null))),
  v('0 before', before),
  v('1 + RRF k 10', (p) => (before(p), (p.k = 10))),
  v('2 + stems in the rescore', (p) => (before(p), (p.k = 10), (p.rescore!.stemming = true))),
  v('3 + plain words: weights 2/1', (p) => (before(p), (p.k = 10), (p.rescore!.stemming = true), (p.describeWeights = { semantic: 2, bm25: 1 }))),
  v('4 + plain words: doc-comment boosts', (p) => (before(p), (p.k = 10), (p.rescore!.stemming = true), (p.describeWeights = { semantic: 2, bm25: 1 }), (p.describeProse = true))),
  v('5 + plain words: rescore keyword 0.3', (p) => (beforeStep8(p), (p.rescore!.containerBonus = 0), (p.rescore!.linkBonus = 0))),
  v('6 + container in the head 0.15', (p) => (beforeStep8(p), (p.rescore!.linkBonus = 0))),
  v('7 + code edge with another candidate 0.1', beforeStep8),
  v('8 + pool BM25: short candidates as average-length', (p) => (p.describeRescore = { keywordWeight: SEARCH_DEFAULTS.plainWords.rescoreKeywordWeight })),
  v('9 + plain words: name made of the question words 0.2 (default)', () => undefined),
  v('name words 0.2 without the short-candidate rule', (p) => (p.rescore!.shortAsAverage = false)),
  v('name words 0.15', (p) => (p.describeRescore = { ...p.describeRescore, nameWordsBonus: 0.15 })),
  v('name words 0.3', (p) => (p.describeRescore = { ...p.describeRescore, nameWordsBonus: 0.3 })),
  v('name words 0.2 for every question', (p) => (p.rescore!.nameWordsBonus = 0.2)),
  v('container bonus 0.08', (p) => (p.rescore!.containerBonus = 0.08)),
  v('container bonus 0.3', (p) => (p.rescore!.containerBonus = 0.3)),
  v('link bonus 0.05', (p) => (p.rescore!.linkBonus = 0.05)),
  v('link bonus 0.15', (p) => (p.rescore!.linkBonus = 0.15)),
  v('default, no rescore', (p) => (p.rescore = null)),
  v('default, RRF k 20', (p) => (p.k = 20)),
  v('default, RRF k 60', (p) => (p.k = 60)),
  v('default, no stems', (p) => (p.rescore!.stemming = false)),
  v('plain words 3/1', (p) => (p.describeWeights = { semantic: 3, bm25: 1 })),
  v('plain words 1/0', (p) => (p.describeWeights = { semantic: 1, bm25: 0 })),
  v('plain words 1/1', (p) => (p.describeWeights = { semantic: 1, bm25: 1 })),
  v('plain words rescore keyword 0.2', (p) => (p.describeRescore = { keywordWeight: 0.2 })),
  v('plain words rescore keyword 0.5', (p) => (p.describeRescore = null)),
  v('plain words cosine in the rescore', (p) => (p.describeCosine = true)),
  v('plain words, name boosts kept', (p) => (p.describeProse = false)),
  v('default, 50 candidates per list', (p) => (p.semanticDepth = p.bm25Depth = 50)),
  v('default, rescore depth 50', (p) => (p.rescore!.depth = 50)),
  v('default, rescore depth 20', (p) => (p.rescore!.depth = 20)),
  v('weights 2/1 for every question', (p) => ((p.weights = { semantic: 2, bm25: 1 }), (p.describeWeights = null))),
];

/** Question type in the union: the new set's own, `doc` for rxjs's text questions, `rxjs-graph` for its graph questions. */
function typeOf(q: EvalQuery): string {
  return q.type ?? (q.expand ? 'rxjs-graph' : 'doc');
}

function loadUnion(prefix: string): EvalQuery[] {
  const read = (file: string) => parseDataset(fs.readFileSync(path.resolve(projectRoot(), file), 'utf8'), file);
  const rxjs = read(DEV_SET_FILE).map((q) => ({ ...q, expand: q.expand }));
  const dev = read(DEVSET_FILE).map((q) => ({ ...q, repo: prefix + q.repo }));
  return [...rxjs, ...dev];
}

/** Alternate questions of each dataset and type go to halves A and B. */
function halves(queries: EvalQuery[]): Map<string, 'A' | 'B'> {
  const seen = new Map<string, number>();
  const out = new Map<string, 'A' | 'B'>();
  for (const q of queries) {
    const key = `${q.repo}|${typeOf(q)}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    out.set(q.id, n % 2 === 0 ? 'A' : 'B');
  }
  return out;
}

async function fetchLists(queries: EvalQuery[], refresh: boolean): Promise<Cache> {
  const file = path.resolve(projectRoot(), CACHE);
  const read: Cache = !refresh && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { lists: {}, docs: {} };
  // A cache written before the second stage read containers has docs without parentId: fetched again.
  const cache: Cache = Object.values(read.docs).some((d) => d.parentId === undefined) ? { lists: {}, docs: {} } : read;
  const missing = queries.filter((q) => !cache.lists[`${q.repo}|${q.query}`]?.links);
  if (missing.length === 0) return cache;
  const h = new IngestHarness();
  const config = loadConfig();
  await h.init(createEmbeddingProvider({ provider: 'local', model: config.embedding.model, dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir }));
  const repo = new SearchRepository(h.neo4j);
  const service = new SearchService(repo, h.embedder);
  const plan = (mode: SearchPlan['mode'], q: EvalQuery) => {
    const p = defaultPlan(mode, q.query);
    p.limit = DEPTH;
    if (p.semantic) p.semantic.limit = DEPTH;
    if (p.bm25) p.bm25.limit = DEPTH;
    p.sourceChars = 0;
    p.filters = { repository: q.repo };
    return p;
  };
  try {
    for (const q of missing) {
      const ids = async (mode: SearchPlan['mode']) => (await service.execute(plan(mode, q))).results.map((r) => ({ id: r.scope.id, score: r.score }));
      const lists: QueryLists = { semantic: await ids('semantic'), bm25: await ids('bm25'), graph: (await ids('graph')).map((r) => r.id) };
      const lucene = buildLuceneQuery(q.query);
      const repoIds = [q.repo];
      lists.bm25Prose = lucene.query
        ? await repo.fullText(fieldBoostedQuery(lucene.query, lucene.phrases, PROSE_FIELD_BOOSTS), { repoIds, kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null }, DEPTH)
        : [];
      const candidates = [...new Set([...lists.semantic, ...lists.bm25, ...lists.bm25Prose].map((r) => r.id))];
      lists.links = Object.fromEntries([...(await repo.scopesById(candidates, 0, { links: true }))].flatMap(([id, r]) => (r.linked?.length ? [[id, r.linked]] : [])));
      cache.lists[`${q.repo}|${q.query}`] = lists;
      const need = [...new Set([...lists.semantic, ...lists.bm25, ...lists.bm25Prose].map((r) => r.id).concat(lists.graph))].filter((id) => !cache.docs[id]);
      const records = await repo.scopesById(need, DOC_CHARS);
      for (const [id, r] of records) {
        cache.docs[id] = { id, repoId: r.repoId, path: r.path, name: r.name, qualifiedName: r.qualifiedName, kind: r.kind, signature: r.signature, docComment: r.docComment, source: r.source, parentId: r.parentId };
      }
    }
  } finally {
    await h.dispose([]);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(cache));
  return cache;
}

/** Hybrid as SearchService runs it: weighted RRF, graph answers first, the second stage over the head. */
export function replay(q: EvalQuery, lists: QueryLists, docs: Record<string, Doc>, p: ReplayParams): string[] {
  const plain = isPlainWordsQuestion(q.query);
  const weights = p.describeWeights && plain ? p.describeWeights : p.weights;
  const rescoreParams = p.rescore && p.describeRescore && plain ? { ...p.rescore, ...p.describeRescore } : p.rescore;
  let fused = rrfFuse(
    [
      { name: 'semantic', weight: weights.semantic, items: lists.semantic.slice(0, p.semanticDepth) },
      { name: 'bm25', weight: weights.bm25, items: (plain && p.describeProse ? lists.bm25Prose! : lists.bm25).slice(0, p.bm25Depth) },
    ],
    p.k,
  ).map((f) => ({ id: f.id, score: f.score }));
  const graph = new Set(lists.graph);
  fused = fused.filter((f) => !graph.has(f.id));
  if (rescoreParams) {
    const docMap = new Map(fused.slice(0, rescoreParams.depth).filter((f) => docs[f.id]).map((f) => [f.id, { ...docs[f.id], linked: lists.links?.[f.id] ?? [] }]));
    if (plain && p.describeCosine) {
      const cos = new Map(lists.semantic.map((x) => [x.id, x.score]));
      const head = fused.slice(0, rescoreParams.depth);
      const floor = Math.min(...head.map((f) => cos.get(f.id) ?? Infinity), lists.semantic[lists.semantic.length - 1]?.score ?? 0);
      fused = [...head.map((f) => ({ id: f.id, score: (cos.get(f.id) ?? floor) - floor + 1e-9 })), ...fused.slice(rescoreParams.depth)];
    }
    fused = rescore(fused, docMap, q.query, rescoreParams).map((r) => ({ id: r.id, score: r.score }));
  }
  return [...lists.graph, ...fused.map((f) => f.id)];
}

async function main(): Promise<void> {
  const only = arg('only', '');
  const queries = loadUnion(arg('prefix', ''));
  const half = halves(queries);
  const cache = await fetchLists(queries, process.argv.includes('--refresh'));
  const variants = only ? VARIANTS.filter((x) => only.split(',').some((o) => x.name === o || x.name.startsWith(o))) : VARIANTS;
  const groups = ['all', 'A', 'B', 'doc', 'rxjs-graph', 'semantic', 'lexical', 'structural', 'semantic A', 'semantic B'];
  const results: Record<string, Record<string, QueryMetrics & { queries: number }>> = {};
  for (const variant of variants) {
    const by = new Map<string, QueryMetrics[]>();
    for (const q of queries) {
      const ids = replay(q, cache.lists[`${q.repo}|${q.query}`], cache.docs, variant.params);
      const ranked = ids.slice(0, 50).flatMap((id) => (cache.docs[id] ? [cache.docs[id]] : []));
      const m = queryMetrics(judge(ranked, q.repo, q.relevant).judged, q.relevant.length, K);
      const t = typeOf(q);
      for (const g of ['all', half.get(q.id)!, t, `${t} ${half.get(q.id)}`]) by.set(g, [...(by.get(g) ?? []), m]);
    }
    results[variant.name] = Object.fromEntries([...by].map(([g, ms]) => [g, meanMetrics(ms)]));
  }
  const cell = (name: string, g: string) => {
    const m = results[name][g];
    if (!m) return '';
    const t = g.split(' ')[0];
    return t === 'lexical' ? `${m.ndcg.toFixed(3)} (mrr ${m.mrr.toFixed(3)})` : t === 'structural' || t === 'rxjs-graph' ? `${m.ndcg.toFixed(3)} (r ${m.recall.toFixed(3)})` : m.ndcg.toFixed(3);
  };
  process.stdout.write(`hybrid replayed on the union (${queries.length} questions), nDCG@${K} (lexical: MRR@${K}, structural: R@${K})\n`);
  printTable([['variant', ...groups.map((g) => `${g} (${results[variants[0].name][g]?.queries ?? 0})`)], ...variants.map((x) => [x.name, ...groups.map((g) => cell(x.name, g))])]);
  const jsonOut = arg('json', '');
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(results, null, 2));
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
