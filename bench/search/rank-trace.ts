/**
 * Where each question's answer sits in every stage of hybrid search, in process (the SearchService
 * the API runs): the vector list, the keyword list, the fused list before the second stage, and the
 * final list. Shows what pushes an answer down (keyword noise, fusion weights, the rescore).
 *
 *   node dist/bench/search/rank-trace.js [--type semantic] [--ids a,b] [--prefix q14-] [--dataset FILE]
 *
 * Repositories are those `npm run eval:devset` indexes (query-core, marshmallow, pythonnet); `--prefix q14-`
 * reads the copies quality-tune indexes. Ranks are 1-based within 150 candidates; "-" = not found.
 */
import * as fs from 'node:fs';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan, judge, parseDataset, rankedScopes, type SearchPlan, SearchRepository, SearchService } from '@scopegraph/search';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg } from '../support/bench-util';
import { DEVSET_FILE } from './devset-corpora';

Logger.overrideLogger(['error']);

const DEPTH = 150;

async function main(): Promise<void> {
  const file = arg('dataset', DEVSET_FILE);
  const type = arg('type', 'semantic');
  const ids = arg('ids', '');
  const prefix = arg('prefix', '');
  const all = parseDataset(fs.readFileSync(file, 'utf8'), file).map((q) => ({ ...q, repo: prefix + q.repo }));
  const queries = ids ? all.filter((q) => ids.split(',').includes(q.id)) : all.filter((q) => (q.type ?? 'doc') === type);
  const h = new IngestHarness();
  const config = loadConfig();
  await h.init(createEmbeddingProvider({ provider: 'local', model: config.embedding.model, dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir }));
  const service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
  const stage = (mode: SearchPlan['mode'], change: (p: SearchPlan) => void = () => undefined) => (text: string, repo: string) => {
    const p = defaultPlan(mode, text);
    p.limit = DEPTH;
    if (p.semantic) p.semantic.limit = DEPTH;
    if (p.bm25) p.bm25.limit = DEPTH;
    p.sourceChars = 0;
    p.filters = { repository: repo };
    change(p);
    return p;
  };
  const stages: [string, ReturnType<typeof stage>][] = [
    ['vector', stage('semantic')],
    ['keyword', stage('bm25')],
    ['fused', stage('hybrid', (p) => ((p.rescore = null), (p.structural = false)))],
    ['final', stage('hybrid')],
  ];
  try {
    for (const q of queries) {
      const rows: string[] = [];
      const firstTop: string[] = [];
      for (const [name, plan] of stages) {
        const res = await service.execute(plan(q.query, q.repo));
        const j = judge(rankedScopes(res.results, false), q.repo, q.relevant);
        rows.push(`${name} ${j.targetRanks.map((r) => r ?? '-').join(',')}`);
        firstTop.push(`${name}: ${res.results.slice(0, 3).map((r) => r.scope.qualifiedName).join(', ')}`);
      }
      process.stdout.write(`${q.id}  ${rows.join('  |  ')}\n    ${q.query}\n    targets ${q.relevant.map((t) => t.name).join(', ')}\n    ${firstTop.join('\n    ')}\n`);
    }
  } finally {
    await h.dispose([]);
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
