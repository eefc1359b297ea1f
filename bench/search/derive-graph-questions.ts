/**
 * Derives the answers of the dev set's graph questions (graph-questions.ts) from the indexed rxjs
 * graph and writes bench/search/datasets/rxjs-graph-questions.jsonl, which build-dataset.ts appends
 * to the dev set. Each answer is also checked against the code text (the answer's source names the
 * anchor: `extends Subject`, `popScheduler(`...); a mismatch is printed for a human to resolve.
 *
 *   npm run build && node dist/bench/search/derive-graph-questions.js [--repo rxjs]
 *
 * Needs rxjs indexed (bench/search/eval-run.sh does it). Read-only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { parseDataset } from '../../libs/search/src/eval';
import { arg } from '../support/bench-util';
import { GRAPH_QUESTIONS, type GraphQuestion } from './graph-questions';

interface Answer {
  path: string;
  name: string;
  kind: string;
  source: string | null;
  depth: number;
  anchorId: string;
}

export const GRAPH_QUESTIONS_FILE = 'bench/search/datasets/rxjs-graph-questions.jsonl';

export function benchCypher(name: string): string {
  return fs.readFileSync(path.join(projectRoot(), 'bench/search/cypher', `${name}.cypher`), 'utf8');
}

/** Does the answer's own text show the relationship? Only for one-hop answers. */
function textShows(q: GraphQuestion, a: Answer): boolean {
  const anchorName = q.anchor.name.split('.').pop()!;
  const answerName = a.name.split('.').pop()!;
  const src = a.source ?? '';
  const word = (n: string) => n.replace(/[$]/g, '\\$');
  if (q.edges.includes('EXTENDS') && new RegExp(`extends\\s+[^{]*\\b${word(anchorName)}\\b`).test(src)) return true;
  if (q.edges.includes('IMPLEMENTS') && new RegExp(`implements\\s+[^{]*\\b${word(anchorName)}\\b`).test(src)) return true;
  if (q.edges.includes('CALLS')) {
    if (q.direction === 'in') return new RegExp(`\\b${word(anchorName)}\\s*(<[^>]*>)?\\(`).test(src);
    return false; // checked below against the anchor's source
  }
  return false;
}

async function main(): Promise<void> {
  const repo = arg('repo', 'rxjs');
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  const lines: string[] = [];
  let mismatches = 0;
  try {
    for (const q of GRAPH_QUESTIONS) {
      const answers = await neo4j.runStatement<Answer>(benchCypher('graph-answers'), { repo, path: q.anchor.path, name: q.anchor.name, edges: q.edges, direction: q.direction, depth: q.depth });
      if (answers.length === 0) throw new Error(`${q.id}: no answer in the graph for ${q.anchor.path} ${q.anchor.name} (is ${repo} indexed?)`);
      let anchorSource = '';
      if (q.direction === 'out') {
        const [row] = await neo4j.runStatement<{ source: string }>('MATCH (s:Scope {id: $id}) RETURN s.source AS source', { id: answers[0].anchorId });
        anchorSource = row?.source ?? '';
      }
      const unchecked = answers.filter((a) => {
        if (a.depth > 1) return false;
        if (q.direction === 'out') return !new RegExp(`\\b${a.name.split('.').pop()}\\s*(<[^>]*>)?\\(`).test(anchorSource);
        return !textShows(q, a);
      });
      mismatches += unchecked.length;
      process.stderr.write(`${q.id} ${q.query}: ${answers.map((a) => a.name + (a.depth > 1 ? ` (depth ${a.depth})` : '')).join(', ')}\n`);
      for (const a of unchecked) process.stderr.write(`   CHECK BY HAND: ${a.path} ${a.name} is an answer in the graph, but its text does not show it\n`);
      lines.push(
        JSON.stringify({
          id: q.id,
          repo,
          query: q.query,
          relevant: answers.map((a) => ({ path: a.path, name: a.name, kind: a.kind })),
          expand: { depth: q.depth, edges: q.edges, direction: q.direction },
          meta: { source: 'graph', anchor: `${q.anchor.path}#${q.anchor.name}` },
        }),
      );
    }
  } finally {
    await neo4j.onModuleDestroy();
  }
  const text = lines.join('\n') + '\n';
  parseDataset(text, path.basename(GRAPH_QUESTIONS_FILE));
  fs.writeFileSync(path.join(projectRoot(), GRAPH_QUESTIONS_FILE), text);
  process.stderr.write(`${lines.length} graph questions -> ${GRAPH_QUESTIONS_FILE}; ${mismatches} answers to check by hand\n`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
