/**
 * A peer, side by side: LangChain.js's Neo4jVectorStore (`@langchain/community`, searchType
 * `hybrid`) and our hybrid search, on the same Neo4j indexes (`scope_embedding`, `scope_fulltext`,
 * label Scope), the same embedder (libs/llm's local all-MiniLM-L6-v2, wrapped as LangChain
 * Embeddings for the peer) and the same dev set, in one run, query by query (the order of the two
 * alternates), in one table: nDCG@10, MRR@10, Recall@10/@50, Precision@5, and latency p50/p95 with
 * the query embedding included (what a caller waits for) and excluded (a precomputed vector: the
 * retrieval itself).
 *
 *   npm run bench:peer -- [--dataset bench/search/datasets/rxjs-dev.jsonl] [--rounds 3] [--k 10]
 *
 * Both are unfiltered: LangChain's hybrid refuses filters, so ours searches every repository too
 * (hits of other repositories count as misses for both; the table header says what the index holds).
 * LangChain's hybrid takes the top k of each index, divides each list by its own best score and
 * keeps each node's larger score; ours fuses 150 candidates per list by weighted RRF. Graph
 * questions are judged by their hits alone here: the peer has no expansion. Needs rxjs indexed
 * (npm run eval does it) and `@langchain/community` (see bench/peer/README.md).
 */
import * as fs from 'node:fs';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan, semanticQueryText, SearchRepository, SearchService } from '@scopegraph/search';
import {
  buildReport,
  type EvalQuery,
  type EvalRun,
  formatTable,
  judge,
  METRIC_CUTOFFS,
  parseDataset,
  percentileOf,
  type RankedScope,
  reportSubsets,
} from '../../libs/search/src/eval';
import { DEV_SET_FILE } from '../search/build-dataset';
import { arg, median } from '../support/bench-util';
import { PrecomputedEmbedder } from '../search/precomputed-embedder';
import { openPeer, PEER_PACKAGE, peerScope, ProviderEmbeddings } from './peer-loader';

Logger.overrideLogger(['error', 'warn']);

const WARMUP_QUERIES = 5;

// ---- the run ----------------------------------------------------------------------------------------

interface Sample {
  system: string;
  query: EvalQuery;
  ranked: RankedScope[];
  withEmbedMs: number;
  noEmbedMs: number;
  /** The search threw (the peer's full-text query does not escape every Lucene character, e.g. `/`). */
  error?: string;
}

async function main(): Promise<void> {
  const datasetFile = arg('dataset', DEV_SET_FILE);
  const rounds = Math.max(1, Number(arg('rounds', '3')));
  const k = Number(arg('k', '10'));
  const depth = Math.max(k, METRIC_CUTOFFS.deepRecall);
  const queries = parseDataset(fs.readFileSync(datasetFile, 'utf8'), datasetFile);

  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const embedder = createEmbeddingProvider({ provider: 'local', dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir });
  const precomputed = new PrecomputedEmbedder(embedder);
  const repo = new SearchRepository(neo4j);
  const ours = new SearchService(repo, embedder);
  const oursNoEmbed = new SearchService(repo, precomputed);
  const peer = await openPeer(new ProviderEmbeddings(embedder));

  try {
    const composition = await neo4j.runStatement<{ repo: string; scopes: number }>(
      'MATCH (s:Scope) WHERE s.embedding IS NOT NULL RETURN s.repoId AS repo, count(*) AS scopes ORDER BY scopes DESC',
    );
    // Vectors for the embedding-excluded timings; ours gets the same text it would embed itself.
    const vectors = new Map<string, number[]>();
    for (const q of queries) {
      vectors.set(q.query, await embedder.embedQuery(q.query));
      await precomputed.add(semanticQueryText(q.query));
    }

    const systems: Record<string, { withEmbed: (q: EvalQuery) => Promise<RankedScope[]>; noEmbed: (q: EvalQuery) => Promise<RankedScope[]> }> = {
      'scopegraph hybrid': {
        withEmbed: (q) => oursRanked(ours, q, depth),
        noEmbed: (q) => oursRanked(oursNoEmbed, q, depth),
      },
      'langchain hybrid': {
        withEmbed: async (q) => (await peer.similaritySearchWithScore(q.query, depth)).map(([d]) => peerScope(d)),
        noEmbed: async (q) => (await peer.similaritySearchVectorWithScore(vectors.get(q.query)!, depth, q.query)).map(([d]) => peerScope(d)),
      },
    };
    const names = Object.keys(systems);
    for (const q of queries.slice(0, WARMUP_QUERIES)) {
      for (const s of names) await Promise.all([systems[s].withEmbed(q), systems[s].noEmbed(q)]).catch(() => undefined);
    }

    const perRound: Record<string, { withEmbed: number[]; noEmbed: number[] }>[] = [];
    let samples: Sample[] = [];
    for (let round = 0; round < rounds; round++) {
      const roundSamples: Sample[] = [];
      for (const [i, q] of queries.entries()) {
        // Alternate who goes first, so neither always meets the warmer cache.
        for (const s of i % 2 === round % 2 ? names : [...names].reverse()) {
          let t0 = performance.now();
          let ranked: RankedScope[] = [];
          let error: string | undefined;
          try {
            ranked = await systems[s].withEmbed(q);
          } catch (e) {
            // Judged as an empty answer (what the caller gets) and left out of the timings.
            error = firstLine(e);
          }
          const withEmbedMs = performance.now() - t0;
          t0 = performance.now();
          if (!error) await systems[s].noEmbed(q);
          const noEmbedMs = performance.now() - t0;
          roundSamples.push({ system: s, query: q, ranked, withEmbedMs, noEmbedMs, ...(error ? { error } : {}) });
        }
      }
      perRound.push(
        Object.fromEntries(
          names.map((s) => {
            const mine = roundSamples.filter((x) => x.system === s && !x.error);
            return [s, { withEmbed: mine.map((x) => x.withEmbedMs), noEmbed: mine.map((x) => x.noEmbedMs) }];
          }),
        ),
      );
      if (round === 0) samples = roundSamples;
      process.stderr.write(`round ${round + 1}/${rounds} done\n`);
    }

    const runs: EvalRun[] = samples.map((s) => ({
      system: s.system,
      query: s.query,
      judgement: judge(s.ranked, s.query.repo, s.query.relevant),
      returned: s.ranked.length,
      latencyMs: s.withEmbedMs,
    }));
    const report = buildReport(runs, k);
    const latency = Object.fromEntries(
      names.map((s) => {
        const p = (xs: (r: (typeof perRound)[number]) => number[], q: number) => median(perRound.map((r) => percentileOf(xs(r), q)));
        return [
          s,
          {
            withEmbed: { p50: p((r) => r[s].withEmbed, 50), p95: p((r) => r[s].withEmbed, 95) },
            noEmbed: { p50: p((r) => r[s].noEmbed, 50), p95: p((r) => r[s].noEmbed, 95) },
          },
        ];
      }),
    );

    const failures = Object.fromEntries(names.map((s) => [s, samples.filter((x) => x.system === s && x.error)]));
    const c = report.cutoffs;
    process.stdout.write(
      `${datasetFile}: ${queries.length} queries, unfiltered, top ${depth}; index holds ${composition.map((r) => `${r.repo} ${r.scopes}`).join(', ')} embedded scopes\n` +
        `latency: median over ${rounds} rounds of each round's p50/p95, in-process (both embed with the same local model)\n`,
    );
    for (const subset of reportSubsets(report)) {
      const rows: (string | number)[][] = [
        ['system', 'queries', `nDCG@${c.ndcg}`, `MRR@${c.mrr}`, `R@${c.recall}`, `R@${c.recallDeep}`, `P@${c.precision}`, 'p50 ms', 'p95 ms', 'p50 no-embed', 'p95 no-embed'],
      ];
      for (const s of report.systems) {
        const m = s.metrics[subset];
        if (!m) continue;
        const l = latency[s.system];
        rows.push([s.system, m.queries, ...[m.ndcg, m.mrr, m.recall, m.recallDeep, m.precision].map((x) => x.toFixed(3)), ...[l.withEmbed.p50, l.withEmbed.p95, l.noEmbed.p50, l.noEmbed.p95].map((x) => x.toFixed(1))]);
      }
      process.stdout.write(`\n${subset === 'all' ? 'all queries' : subset === 'text' ? 'text questions' : 'graph questions (hits only: no expansion on either side)'}:\n${formatTable(rows)}\n`);
      if (subset === 'all') {
        for (const s of names) {
          if (failures[s].length > 0) process.stdout.write(`  ${s}: ${failures[s].length} queries failed and count as empty answers (${failures[s].map((f) => f.query.id).join(', ')}): ${failures[s][0].error!.slice(0, 160)}\n`);
        }
      }
    }
    process.stdout.write(
      JSON.stringify({
        dataset: datasetFile,
        queries: queries.length,
        rounds,
        index: composition,
        peer: PEER_PACKAGE,
        systems: report.systems.map((s) => ({ system: s.system, metrics: s.metrics, latencyMs: latency[s.system], failed: failures[s.system].map((f) => f.query.id) })),
        perQuery: report.queries.map((q) => ({ id: q.id, system: q.system, firstRank: q.firstRank })),
      }) + '\n',
    );
  } finally {
    await peer.close();
    await embedder.close?.();
    await neo4j.onModuleDestroy();
  }
}

function firstLine(error: unknown): string {
  const e = error as { cause?: { message?: string }; message?: string };
  const text = e.cause?.message ?? e.message ?? String(error);
  return text.split('\n')[0];
}

async function oursRanked(service: SearchService, q: EvalQuery, depth: number): Promise<RankedScope[]> {
  const plan = defaultPlan('hybrid', q.query);
  plan.limit = depth;
  const { results } = await service.execute(plan);
  return results.map((r) => r.scope);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
