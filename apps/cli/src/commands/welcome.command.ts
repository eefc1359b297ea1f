import { projectRoot } from '@scopegraph/config';
import { ApiClient, clientConfig } from '../client';
import { indexCommand } from './index.command';

export const SAMPLE_REPOSITORY = 'scopegraph';
const EXAMPLE_TEXT = 'parse a source file into scopes';
const EXAMPLE_QUERY = `query($text: String!, $repo: String!) {
  search(input: { text: $text, repository: $repo, mode: HYBRID, topK: 5 }) {
    results { rank score scope { qualifiedName kind path startLine } scoreBreakdown { semantic { rank } bm25 { rank } } }
    timings { total }
  }
}`;

interface SearchData {
  search: {
    results: { rank: number; score: number; scope: { qualifiedName: string; kind: string; path: string; startLine: number }; scoreBreakdown: { semantic: { rank: number } | null; bm25: { rank: number } | null } }[];
    timings: { total: number };
  };
}

/**
 * What `npm start` shows once the API is up: it indexes scopegraph's own sources (incrementally, so
 * only the first start waits for embeddings) and runs one hybrid search, so a new user sees the
 * product work before writing a query.
 */
export async function welcomeCommand(client = new ApiClient()): Promise<number> {
  process.stdout.write(`\nIndexing scopegraph's own sources as repository "${SAMPLE_REPOSITORY}" (first start embeds every scope; later starts only what changed)...\n`);
  await indexCommand(projectRoot(), { name: SAMPLE_REPOSITORY }, client);
  const variables = { text: EXAMPLE_TEXT, repo: SAMPLE_REPOSITORY };
  const { search } = await client.request<SearchData>(EXAMPLE_QUERY, variables);
  const body = JSON.stringify({ query: EXAMPLE_QUERY.replace(/\s+/g, ' '), variables });
  process.stdout.write(`\nExample search ("${EXAMPLE_TEXT}", hybrid, top 5, ${search.timings.total.toFixed(0)} ms):\n`);
  for (const r of search.results) {
    const b = r.scoreBreakdown;
    const lists = `semantic #${b.semantic?.rank ?? '-'}, bm25 #${b.bm25?.rank ?? '-'}`;
    process.stdout.write(`  ${r.rank}. ${r.scope.qualifiedName} (${r.scope.kind})  ${r.scope.path}:${r.scope.startLine}  score ${r.score.toFixed(4)}  [${lists}]\n`);
  }
  process.stdout.write(`\nThe same over HTTP:\n  curl -s ${clientConfig().url} -H 'content-type: application/json' -d '${body}'\n`);
  return 0;
}
