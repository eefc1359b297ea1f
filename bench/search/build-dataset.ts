/**
 * Builds the rxjs dev set, bench/search/datasets/rxjs-dev.jsonl, CodeSearchNet-style:
 *
 *   1. every .ts file of rxjs@7.8.2's src/ that ingestion would index (same walker, same parser);
 *   2. every documented function, class and method: the query is the first sentence(s) of its doc
 *      comment, cleaned of JSDoc tags, markup and code (libs/search/src/eval/doc-query.ts);
 *   3. skipped: docs with nothing descriptive left (`@internal`, `@deprecated ...`) or too short,
 *      overloads (the same path and qualified name twice keeps the first), and any query text that
 *      two scopes share (it has no single answer);
 *   4. the hand-written graph questions (datasets/rxjs-graph-questions.jsonl, answers derived from
 *      the graph by derive-graph-questions.ts) appended.
 *
 * Deterministic: files, scopes and lines are sorted; nothing random. The eval indexes rxjs with
 * --exclude-doc-comments, so the queries are not in what is searched.
 *
 *   npm run build && node dist/bench/search/build-dataset.js [--out bench/search/datasets/rxjs-dev.jsonl]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { ParserService, walkRepository } from '@scopegraph/ingest';
import { docCommentToQuery, parseDataset } from '../../libs/search/src/eval';
import { arg, npmPackageSources } from '../support/bench-util';
import { GRAPH_QUESTIONS_FILE } from './derive-graph-questions';

export const RXJS = { spec: 'rxjs@7.8.2', subdir: 'src', repo: 'rxjs' } as const;
export const DEV_SET_FILE = 'bench/search/datasets/rxjs-dev.jsonl';
const DOC_KINDS = new Set(['function', 'class', 'method']);

/** The rxjs sources the dev set is about (unpacked once into .cache/bench). */
export function rxjsRoot(): string {
  return path.join(npmPackageSources(RXJS.spec), RXJS.subdir);
}

interface Candidate {
  path: string;
  qualifiedName: string;
  kind: string;
  query: string;
}

async function main(): Promise<void> {
  const root = rxjsRoot();
  const out = path.resolve(projectRoot(), arg('out', DEV_SET_FILE));
  const parser = new ParserService();
  await parser.init();
  const walk = await walkRepository(root, (p) => parser.supports(p));

  const candidates: Candidate[] = [];
  let documented = 0;
  let noText = 0;
  for (const file of walk.files) {
    for (const scope of parser.parseFile(file.path, file.content).scopes) {
      if (!DOC_KINDS.has(scope.kind) || !scope.docComment) continue;
      documented++;
      const query = docCommentToQuery(scope.docComment);
      if (!query) {
        noText++;
        continue;
      }
      candidates.push({ path: scope.path, qualifiedName: scope.qualifiedName, kind: scope.kind, query });
    }
  }
  parser.dispose();

  const byKey = new Map<string, Candidate>();
  for (const c of candidates) if (!byKey.has(`${c.path}#${c.qualifiedName}`)) byKey.set(`${c.path}#${c.qualifiedName}`, c);
  const overloads = candidates.length - byKey.size;
  const textCount = new Map<string, number>();
  for (const c of byKey.values()) textCount.set(c.query.toLowerCase(), (textCount.get(c.query.toLowerCase()) ?? 0) + 1);
  const kept = [...byKey.values()]
    .filter((c) => textCount.get(c.query.toLowerCase()) === 1)
    .sort((a, b) => (a.path === b.path ? (a.qualifiedName < b.qualifiedName ? -1 : 1) : a.path < b.path ? -1 : 1));
  const shared = byKey.size - kept.length;

  const docLines = kept.map((c, i) =>
    JSON.stringify({
      id: `rxjs-doc-${String(i + 1).padStart(3, '0')}`,
      repo: RXJS.repo,
      query: c.query,
      relevant: [{ path: c.path, name: c.qualifiedName, kind: c.kind }],
      meta: { source: 'doc-comment' },
    }),
  );
  const graphText = fs.readFileSync(path.join(projectRoot(), GRAPH_QUESTIONS_FILE), 'utf8');
  const graphLines = parseDataset(graphText, path.basename(GRAPH_QUESTIONS_FILE)).map(({ line: _line, ...q }) => JSON.stringify(q));
  const text = [...docLines, ...graphLines].join('\n') + '\n';
  parseDataset(text, path.basename(out));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  process.stderr.write(
    [
      `${RXJS.spec}/${RXJS.subdir}: ${walk.files.length} files, ${documented} documented functions/classes/methods`,
      `  skipped: ${noText} with no descriptive text left, ${overloads} overloads, ${shared} sharing their query text`,
      `  ${docLines.length} doc-comment queries + ${graphLines.length} graph questions -> ${path.relative(projectRoot(), out)}`,
    ].join('\n') + '\n',
  );
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
