import { relationshipText, type WalkedPath } from '@scopegraph/api-client';
import { ApiClient, CliError } from '../client';

const MODES = ['semantic', 'bm25', 'hybrid', 'semantic_rerank', 'graph', 'localize'] as const;

const SEARCH_QUERY = `query($input: SearchInput!) {
  search(input: $input) {
    strategy warnings timings { total embed semantic bm25 }
    results {
      rank score
      scope { id qualifiedName kind language path startLine endLine signature }
      scoreBreakdown { fusion semantic { score rank } bm25 { score rank } }
      via { relation anchorName depth path { nodeIds edgeTypes directions } }
      alsoAt
    }
  }
}`;

interface SearchHitData {
  rank: number;
  score: number;
  scope: { id: string; qualifiedName: string; kind: string; language: string; path: string; startLine: number; endLine: number; signature: string | null };
  scoreBreakdown: { fusion: string; semantic: { score: number; rank: number } | null; bm25: { score: number; rank: number } | null };
  via: { relation: string; anchorName: string; depth: number; path: WalkedPath } | null;
  alsoAt: string[] | null;
}

export interface SearchOptions {
  mode?: string;
  repo?: string;
  topK?: number;
  path?: string;
  language?: string;
  kind?: string;
  json?: boolean;
}

/** `scopegraph search "<text>"`: one search through the API, printed as a ranked list or JSON. */
export async function searchCommand(text: string, opts: SearchOptions, client = new ApiClient()): Promise<number> {
  const mode = (opts.mode ?? 'hybrid').toLowerCase();
  if (!(MODES as readonly string[]).includes(mode)) throw new CliError(`--mode must be one of ${MODES.join(', ')}`);
  const input = {
    text,
    mode: mode.toUpperCase(),
    topK: opts.topK ?? 10,
    ...(opts.repo ? { repository: opts.repo } : {}),
    ...(opts.path ? { pathContains: opts.path } : {}),
    ...(opts.language ? { language: opts.language } : {}),
    ...(opts.kind ? { kind: opts.kind } : {}),
  };
  const { search } = await client.request<{ search: { strategy: string; warnings: string[]; timings: Record<string, number>; results: SearchHitData[] } }>(SEARCH_QUERY, { input });
  if (opts.json) {
    process.stdout.write(JSON.stringify(search, null, 2) + '\n');
    return 0;
  }
  for (const w of search.warnings) process.stderr.write(`warning: ${w}\n`);
  if (search.results.length === 0) process.stdout.write('no results\n');
  for (const r of search.results) {
    const b = r.scoreBreakdown;
    const lists = [b.semantic ? `semantic #${b.semantic.rank}` : null, b.bm25 ? `bm25 #${b.bm25.rank}` : null].filter(Boolean).join(', ');
    process.stdout.write(`${String(r.rank).padStart(3)}. ${r.scope.qualifiedName} (${r.scope.kind}, ${r.scope.language})  ${r.scope.path}:${r.scope.startLine}-${r.scope.endLine}  ${r.score.toFixed(4)}${lists ? `  [${lists}]` : ''}\n`);
    if (r.scope.signature) process.stdout.write(`       ${r.scope.signature}\n`);
    if (r.via) {
      // Arrows as the edges point (GraphQL sends directions as IN/OUT).
      process.stdout.write(`       ${r.via.relation} of ${r.via.anchorName}: ${relationshipText(r.via.path)}\n`);
    }
    if (r.alsoAt?.length) process.stdout.write(`       also at ${r.alsoAt.join(', ')}\n`);
  }
  process.stdout.write(`(${search.results.length} results, ${search.strategy}, ${search.timings.total.toFixed(1)} ms)\n`);
  return 0;
}
