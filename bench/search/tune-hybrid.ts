/**
 * Where hybrid quality comes from, on the dev set's text questions: fetches each query's semantic
 * and BM25 lists once (150 candidates each, through SearchService, repository filter as the eval),
 * then replays the service's own weighted RRF (libs/search rrfFuse) offline for a grid of weights,
 * RRF k and candidates per list, and semantic_rerank's blend for several keyword weights. Queries are
 * split in two halves (even / odd line) so that a setting chosen on one half can be checked on the
 * other; a default should only change when it wins on both.
 *
 *   npm run build && node dist/bench/search/tune-hybrid.js [--dataset ...] [--repo rxjs] [--json]
 */
import * as fs from 'node:fs';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { buildLuceneQuery, defaultPlan, LANGUAGES, rrfFuse, SCOPE_KINDS, type ScopeRecord, SearchRepository, SearchService } from '@scopegraph/search';
import { type EvalQuery, judge, meanMetrics, parseDataset, queryMetrics } from '../../libs/search/src/eval';
import { blendScores, keywordScore, keywordTerms } from '../../libs/search/src/fusion/keyword-blend';
import { arg, printTable } from '../support/bench-util';
import { DEV_SET_FILE } from './build-dataset';

Logger.overrideLogger(['error', 'warn']);
const POOL = 150;
const K = 10;

interface Lists {
  q: EvalQuery;
  semantic: { id: string; score: number }[];
  bm25: { id: string; score: number }[];
  /** BM25 on the query without English stop words (Lucene's English stop set). */
  bm25Stop: { id: string; score: number }[];
  /** ... and with name/sub-token matches boosted over source matches. */
  bm25Boost: { id: string; score: number }[];
}

/** Lucene's EnglishAnalyzer stop set. */
const STOP_WORDS = new Set('a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '));

function withoutStopWords(text: string): string {
  const kept = text.split(/\s+/).filter((w) => !STOP_WORDS.has(w.toLowerCase().replace(/[^a-z]/g, '')));
  return kept.length > 0 ? kept.join(' ') : text;
}

async function main(): Promise<void> {
  const dataset = arg('dataset', DEV_SET_FILE);
  const all = parseDataset(fs.readFileSync(dataset, 'utf8'), dataset);
  const text = all.filter((q) => !q.expand);
  // Identifier queries: the declaration's qualified name typed as is (`Subscription.add`), so a
  // setting that helps descriptions is also checked on what code search users type most.
  const ident = text.map((q) => ({ ...q, id: `${q.id}-ident`, query: q.relevant[0].name, meta: { set: 'ident' } }));
  // Graph questions: only the anchor has to be found by search (the expansion does the rest).
  const anchors = all
    .filter((q) => q.expand && typeof q.meta?.anchor === 'string')
    .map((q) => {
      const [path, name] = String(q.meta!.anchor).split('#');
      return { ...q, id: `${q.id}-anchor`, relevant: [{ path, name }], expand: undefined, meta: { set: 'anchor' } };
    });
  const queries = [...text.map((q) => ({ ...q, meta: { set: 'text' } })), ...ident, ...anchors];
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const embedder = createEmbeddingProvider({ provider: 'local', dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir });
  const repo = new SearchRepository(neo4j);
  const service = new SearchService(repo, embedder);
  const records = new Map<string, ScopeRecord>();
  const lists: Lists[] = [];
  try {
    for (const q of queries) {
      const list = async (mode: 'semantic' | 'bm25') => {
        const plan = defaultPlan(mode, q.query);
        plan.filters = { repository: q.repo };
        plan.limit = POOL;
        (plan.semantic ?? plan.bm25)!.limit = POOL;
        plan.sourceChars = 4000;
        const { results } = await service.execute(plan);
        for (const r of results) records.set(r.scope.id, r.scope);
        return results.map((r) => ({ id: r.scope.id, score: r.score }));
      };
      const stopText = withoutStopWords(q.query);
      const bm25Stop = await (async () => {
        const plan = defaultPlan('bm25', stopText);
        plan.filters = { repository: q.repo };
        plan.limit = POOL;
        plan.bm25!.limit = POOL;
        const { results } = await service.execute(plan);
        for (const r of results) records.set(r.scope.id, r.scope);
        return results.map((r) => ({ id: r.scope.id, score: r.score }));
      })();
      const terms = buildLuceneQuery(stopText).query;
      const boosted = terms ? `nameTokens:(${terms})^3 OR name:(${terms})^3 OR signature:(${terms})^1.5 OR source:(${terms})` : '';
      const filters = { repoIds: [q.repo], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
      const bm25Boost = boosted ? await repo.fullText(boosted, filters, POOL) : [];
      const missing = bm25Boost.map((b) => b.id).filter((id) => !records.has(id));
      for (const [id, r] of await repo.scopesById(missing, 4000)) records.set(id, r);
      lists.push({ q, semantic: await list('semantic'), bm25: await list('bm25'), bm25Stop, bm25Boost });
    }
  } finally {
    await embedder.close?.();
    await neo4j.onModuleDestroy();
  }

  const setOf = (l: Lists) => String(l.q.meta?.set);
  const evaluate = (rank: (l: Lists) => string[]) => {
    const judgeSet = (set: string) =>
      meanMetrics(
        lists
          .filter((l) => setOf(l) === set)
          .map((l) => queryMetrics(judge(rank(l).map((id) => records.get(id)!).filter(Boolean), l.q.repo, l.q.relevant).judged, l.q.relevant.length, K)),
      );
    const textLists = lists.filter((l) => setOf(l) === 'text');
    const halves = [0, 1].map((half) =>
      meanMetrics(
        textLists
          .filter((_, i) => i % 2 === half)
          .map((l) => {
            const ranked = rank(l).map((id) => records.get(id)!).filter(Boolean);
            return queryMetrics(judge(ranked, l.q.repo, l.q.relevant).judged, l.q.relevant.length, K);
          }),
      ),
    );
    return { all: judgeSet('text'), a: halves[0], b: halves[1], ident: judgeSet('ident'), anchor: judgeSet('anchor') };
  };

  const rows: { name: string; all: number; a: number; b: number; mrr: number; r10: number; identMrr: number; anchorMrr: number }[] = [];
  const add = (name: string, rank: (l: Lists) => string[]) => {
    const m = evaluate(rank);
    rows.push({ name, all: m.all.ndcg, a: m.a.ndcg, b: m.b.ndcg, mrr: m.all.mrr, r10: m.all.recall, identMrr: m.ident.mrr, anchorMrr: m.anchor.mrr });
  };
  add('semantic', (l) => l.semantic.map((x) => x.id));
  add('bm25', (l) => l.bm25.map((x) => x.id));
  add('bm25 (no stop words)', (l) => l.bm25Stop.map((x) => x.id));
  add('bm25 (no stop words, name boost)', (l) => l.bm25Boost.map((x) => x.id));
  const variants: [string, (l: Lists) => { id: string; score: number }[]][] = [
    ['', (l) => l.bm25],
    [' bm25-stop', (l) => l.bm25Stop],
    [' bm25-stop-boost', (l) => l.bm25Boost],
  ];
  for (const [label, bm25] of variants) {
    for (const [ws, wb] of [[2, 3], [1, 1], [2, 1], [3, 1], [4, 1], [3, 2]]) {
      for (const k of [60, 30, 10, 5]) {
        for (const c of [150, 50, 20]) {
          add(`rrf w=${ws}/${wb} k=${k} c=${c}${label}`, (l) =>
            rrfFuse(
              [
                { name: 'semantic', weight: ws, items: l.semantic.slice(0, c) },
                { name: 'bm25', weight: wb, items: bm25(l).slice(0, c) },
              ],
              k,
            ).map((f) => f.id),
          );
        }
      }
    }
  }
  for (const [w, stop] of [[0.3, false], [0.2, false], [0.1, false], [0.05, false], [0.3, true], [0.2, true], [0.1, true]] as const) {
    add(`semantic_rerank keywordWeight=${w}${stop ? ' terms-stop' : ''}`, (l) => {
      const terms = keywordTerms(stop ? withoutStopWords(l.q.query) : l.q.query);
      const pool = l.semantic.slice(0, 50).filter((i) => records.has(i.id));
      return blendScores(pool.map((i) => ({ id: i.id, semantic: i.score, keyword: keywordScore(terms, records.get(i.id)!) })), w).map((b) => b.id);
    });
  }
  // Query-shape-adaptive weights: identifier-shaped words (camelCase, snake_case, dotted, call
  // parentheses) keep the keyword-heavy default; plain-language queries lean on the semantic list.
  const identifierShaped = (text: string) => text.split(/\s+/).some((w) => /[a-z][A-Z]|_|[A-Za-z]\.[A-Za-z]|\(\)/.test(w));
  const fuse = (l: Lists, ws: number, wb: number, k: number, bm25: { id: string; score: number }[]) =>
    rrfFuse(
      [
        { name: 'semantic', weight: ws, items: l.semantic },
        { name: 'bm25', weight: wb, items: bm25 },
      ],
      k,
    ).map((f) => f.id);
  add('adaptive: ident 2/3 k=10, prose 3/1 k=30', (l) => (identifierShaped(l.q.query) ? fuse(l, 2, 3, 10, l.bm25) : fuse(l, 3, 1, 30, l.bm25)));
  add('adaptive: ident 2/3 k=10, prose 3/1 k=30 bm25-stop-boost', (l) => (identifierShaped(l.q.query) ? fuse(l, 2, 3, 10, l.bm25Boost) : fuse(l, 3, 1, 30, l.bm25Boost)));
  const shapes = { text: 0, ident: 0, anchor: 0 } as Record<string, number>;
  for (const l of lists) if (identifierShaped(l.q.query)) shapes[setOf(l)]++;
  process.stderr.write(`identifier-shaped queries: ${JSON.stringify(shapes)}\n`);
  rows.sort((x, y) => y.all - x.all);
  printTable([
    ['setting', 'text nDCG@10', 'half A', 'half B', 'text MRR@10', 'text R@10', 'ident MRR@10', 'anchor MRR@10'],
    ...rows.map((r) => [r.name, r.all, r.a, r.b, r.mrr, r.r10, r.identMrr, r.anchorMrr]),
  ]);
  process.stderr.write(`${lists.filter((l) => setOf(l) === 'text').length} text, ${lists.filter((l) => setOf(l) === 'ident').length} identifier, ${lists.filter((l) => setOf(l) === 'anchor').length} anchor queries\n`);
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify({ queries: lists.length, rows }) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
