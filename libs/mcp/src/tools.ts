import { relationshipText, type WalkedPath } from '@scopegraph/api-client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { EDGE_TYPES, LANGUAGES, SCOPE_KINDS, type ScopeRecord, SEARCH_LIMITS } from '@scopegraph/search';
import { GraphqlCall, GraphqlCallError } from './graphql-call';
import * as doc from './documents';
import { impactTools } from './impact-tools';

export const MCP_SERVER_NAME = 'scopegraph';
export const MCP_TOOLS = ['search', 'get_scope', 'neighborhood', 'list_repositories', 'index_repository', 'ask', 'localize', 'impact', 'review_change', 'history', 'dead_code'] as const;

/** Snippets stay short: an agent reads many hits and opens the few it needs with get_scope. */
const SNIPPET_LINES = 6;
const SNIPPET_CHARS = 400;
const DEFAULT_SCOPE_CHARS = 4_000;
const MAX_SCOPE_CHARS = 50_000;
const MAX_NEIGHBORS = 200;
/** An answer runs on the worker (retrieval, model calls, loops): the tool waits this long by default. */
const DEFAULT_ASK_TIMEOUT_S = 120;
const MAX_ASK_TIMEOUT_S = 600;
/** How often the tool looks at the ask's state (askResult works over every transport; subscriptions do not). */
const ASK_POLL_MS = 250;

/** The scope fields the tools ask for (documents.ts): the record minus what an agent does not need. */
type ScopeRow = Omit<ScopeRecord, 'repoId' | 'name' | 'docComment' | 'source' | 'sourceLength' | 'sourceTruncated'> &
  Partial<Pick<ScopeRecord, 'docComment' | 'source' | 'sourceLength' | 'sourceTruncated'>>;

function location(s: ScopeRow): string {
  if (s.startLine == null) return s.path;
  return s.endLine != null && s.endLine !== s.startLine ? `${s.path}:${s.startLine}-${s.endLine}` : `${s.path}:${s.startLine}`;
}

function headline(s: ScopeRow): string {
  return `${s.qualifiedName} (${s.kind}) ${location(s)} [id ${s.id}]`;
}

export function snippet(source: string | null | undefined): string {
  if (!source) return '';
  const lines = source.split('\n').slice(0, SNIPPET_LINES).join('\n');
  const cut = lines.length > SNIPPET_CHARS ? `${lines.slice(0, SNIPPET_CHARS)}…` : lines;
  return cut + (cut.length < source.length ? '\n…' : '');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

function text(body: string): CallToolResult {
  return { content: [{ type: 'text', text: body }] };
}

/** GraphQL errors become tool errors that keep the code and field, so the agent can fix its call. */
async function run(action: () => Promise<string>): Promise<CallToolResult> {
  try {
    return text(await action());
  } catch (error) {
    if (error instanceof GraphqlCallError) {
      return { isError: true, content: [{ type: 'text', text: `${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}` }] };
    }
    throw error;
  }
}

interface ToolMeta {
  title: string;
  description: string;
}

/**
 * registerTool through a narrow signature: the SDK's generic overloads, instantiated with zod 3
 * shapes, made the type-checker run for minutes and gigabytes; the SDK still validates the
 * arguments against the shape at run time, and `z.infer` types the handler here.
 */
function register<S extends z.ZodRawShape>(server: McpServer, name: (typeof MCP_TOOLS)[number], meta: ToolMeta, shape: S, handler: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>): void {
  const registerTool = server.registerTool.bind(server) as unknown as (n: string, c: ToolMeta & { inputSchema: z.ZodRawShape }, cb: (args: unknown) => Promise<CallToolResult>) => void;
  registerTool(name, { ...meta, inputSchema: shape }, (args) => handler(args as z.infer<z.ZodObject<S>>));
}

const edgeType = z.enum(EDGE_TYPES as unknown as [string, ...string[]]);

/** One MCP server exposing scopegraph's tools over any transport; `call` reaches the GraphQL API. */
export function createScopegraphMcpServer(call: GraphqlCall, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });

  register(
    server,
    'search',
    {
      title: 'Search code',
      description: 'Find functions, classes, methods, files or SQL objects by meaning and keywords. Returns ranked hits with path, lines, id and a short snippet; open one with get_scope.',
    },
    {
        query: z.string().min(1).max(SEARCH_LIMITS.maxTextLength).describe('What to look for: a description, an identifier or code'),
        repository: z.string().min(1).optional().describe('Only this repository (see list_repositories)'),
        mode: z.enum(['hybrid', 'semantic', 'bm25', 'semantic_rerank', 'graph']).optional().describe('default hybrid (which also answers relationship questions such as "who calls X"); graph: relationship questions only'),
        topK: z.number().int().min(1).max(50).optional().describe('hits, 1-50 (default 10)'),
        path: z.string().min(1).optional().describe('only paths containing this'),
        language: z.enum(LANGUAGES).optional(),
        kind: z.enum(SCOPE_KINDS as unknown as [string, ...string[]]).optional(),
    },
    (args) =>
      run(async () => {
        const input = {
          text: args.query,
          repository: args.repository,
          mode: (args.mode ?? 'hybrid').toUpperCase(),
          topK: args.topK ?? 10,
          pathContains: args.path,
          language: args.language,
          kind: args.kind,
          sourceChars: SNIPPET_CHARS * 2,
        };
        const data = await call<{ search: { results: { rank: number; score: number; scope: ScopeRow; scoreBreakdown: Record<string, { rank: number } | string | null>; via?: { relation: string; anchorName: string; path: WalkedPath } | null }[]; warnings: string[] } }>(doc.SEARCH, { input });
        const { results, warnings } = data.search;
        if (!results.length) return `No results for "${args.query}".${warnings.length ? `\nwarnings: ${warnings.join('; ')}` : ''}`;
        const lines = results.map((r) => {
          const lists = ['semantic', 'bm25', 'keyword']
            .map((k) => (r.scoreBreakdown[k] && typeof r.scoreBreakdown[k] === 'object' ? `${k} #${(r.scoreBreakdown[k] as { rank: number }).rank}` : ''))
            .filter(Boolean)
            .join(', ');
          const sig = r.scope.signature ? `\n    ${r.scope.signature}` : '';
          const body = snippet(r.scope.source);
          const via = r.via ? `\n    ${r.via.relation} of ${r.via.anchorName}: ${relationshipText(r.via.path)}` : '';
          return `${r.rank}. ${headline(r.scope)} score ${r.score.toFixed(4)}${lists ? ` [${lists}]` : ''}${via}${sig}${body ? `\n${indent(body)}` : ''}`;
        });
        return [...lines, ...(warnings.length ? [`warnings: ${warnings.join('; ')}`] : [])].join('\n');
      }),
  );

  register(
    server,
    'localize',
    {
      title: 'Localize an issue',
      description:
        'Which functions must change to fix a bug report: give the issue as written (title, description, stack traces, logs, code). Returns functions and methods ranked, each with the evidence that brought it (a stack frame, a name the issue uses, a quoted message, a graph edge), and the files they are in; open one with get_scope.',
    },
    {
      issue: z.string().min(1).max(SEARCH_LIMITS.maxIssueLength).describe('the issue text, stack traces and logs included'),
      repository: z.string().min(1).describe('the repository the issue is about (see list_repositories)'),
      topK: z.number().int().min(1).max(50).optional().describe('functions, 1-50 (default 10)'),
    },
    (args) =>
      run(async () => {
        const input = { text: args.issue, repository: args.repository, mode: 'LOCALIZE', topK: args.topK ?? 10, sourceChars: 0 };
        const data = await call<{
          search: { results: { rank: number; score: number; scope: ScopeRow; evidence: { signal: string; detail: string; edge: string | null }[] | null }[]; files: { path: string; rank: number; functions: string[] }[] | null; warnings: string[] };
        }>(doc.LOCALIZE, { input });
        const { results, files, warnings } = data.search;
        if (!results.length) return `No functions found for this issue in ${args.repository}.${warnings.length ? `\nwarnings: ${warnings.join('; ')}` : ''}`;
        const lines = results.map((r) => {
          const why = (r.evidence ?? []).slice(0, 3).map((e) => `${e.signal}: ${e.detail}${e.edge ? ` [${e.edge}]` : ''}`);
          return `${r.rank}. ${headline(r.scope)} score ${r.score.toFixed(4)}${why.length ? `\n${indent(why.join('\n'))}` : ''}`;
        });
        const fileLines = (files ?? []).slice(0, 5).map((f) => `  ${f.rank}. ${f.path} (${f.functions.slice(0, 3).join(', ')})`);
        return [...lines, ...(fileLines.length ? ['files:', ...fileLines] : []), ...(warnings.length ? [`warnings: ${warnings.join('; ')}`] : [])].join('\n');
      }),
  );

  register(
    server,
    'get_scope',
    {
      title: 'Read a scope',
      description: 'The source, signature, doc comment and location of one scope by id (ids come from search and neighborhood).',
    },
    {
        id: z.string().min(1).describe('scope id'),
        maxChars: z.number().int().min(1).max(MAX_SCOPE_CHARS).optional().describe(`cut the source to this many characters (default ${DEFAULT_SCOPE_CHARS})`),
    },
    (args) =>
      run(async () => {
        const { scope } = await call<{ scope: ScopeRow | null }>(doc.SCOPE, { id: args.id, sourceChars: args.maxChars ?? DEFAULT_SCOPE_CHARS });
        if (!scope) throw new GraphqlCallError(`no scope with id "${args.id}"`, 'NOT_FOUND', 'id');
        const parts = [headline(scope), `language ${scope.language}`];
        if (scope.signature) parts.push(`signature: ${scope.signature}`);
        if (scope.docComment) parts.push(`doc: ${scope.docComment}`);
        if (scope.source) parts.push('', scope.source, ...(scope.sourceTruncated ? [`… (${scope.sourceLength} characters in all; raise maxChars)`] : []));
        return parts.join('\n');
      }),
  );

  register(
    server,
    'neighborhood',
    {
      title: 'Graph neighbourhood',
      description: 'Scopes connected to one scope (calls, callers, imports, inheritance, containment), each with the edges that reach it. direction "in" with edges ["CALLS"] lists callers.',
    },
    {
        id: z.string().min(1).describe('scope id'),
        depth: z.number().int().min(1).max(SEARCH_LIMITS.maxDepth).optional().describe(`1-${SEARCH_LIMITS.maxDepth} (default 1)`),
        edges: z.array(edgeType).max(EDGE_TYPES.length).optional().describe('edge types to follow (default all)'),
        direction: z.enum(['out', 'in', 'both']).optional().describe('default both'),
        maxNodes: z.number().int().min(1).max(MAX_NEIGHBORS).optional().describe(`1-${MAX_NEIGHBORS} (default 50)`),
    },
    (args) =>
      run(async () => {
        const { neighborhood } = await call<{
          neighborhood: { root: ScopeRow; neighbors: { depth: number; scope: ScopeRow; path: { edgeTypes: string[]; directions: string[]; provenances?: (string | null)[] | null } }[] } | null;
        }>(doc.NEIGHBORHOOD, { id: args.id, depth: args.depth, edges: args.edges, direction: args.direction?.toUpperCase(), maxNodes: args.maxNodes });
        if (!neighborhood) throw new GraphqlCallError(`no scope with id "${args.id}"`, 'NOT_FOUND', 'id');
        const rows = neighborhood.neighbors.map((n) => {
          // How each hop's edge was made (compiler, scip, name, heuristic), so an agent can weigh it.
          const via = n.path.edgeTypes.map((t, i) => {
            const how = n.path.provenances?.[i];
            const edge = how ? `${t}[${how}]` : t;
            return n.path.directions[i].toLowerCase() === 'in' ? `<-${edge}-` : `-${edge}->`;
          }).join(' ');
          return `  ${via} ${headline(n.scope)}`;
        });
        return [headline(neighborhood.root), ...(rows.length ? rows : ['  (no neighbours with these edges)'])].join('\n');
      }),
  );

  register(
    server,
    'list_repositories',
    { title: 'Indexed repositories', description: 'Repositories indexed in scopegraph with file, scope, edge and embedding counts.' },
    {},
    () =>
      run(async () => {
        const { repositories } = await call<{ repositories: { name: string; rootPath: string | null; files: number | null; scopes: number | null; edges: number | null; embedded: number | null; indexedAt: string | null; indexStatus: string; indexError: string | null }[] }>(doc.REPOSITORIES);
        if (!repositories.length) return 'No repositories indexed yet; index one with index_repository.';
        return repositories
          .map(
            (r) =>
              `${r.name}${r.rootPath ? `  ${r.rootPath}` : ''}  files ${r.files ?? 0}, scopes ${r.scopes ?? 0}, edges ${r.edges ?? 0}, embedded ${r.embedded ?? 0}${r.indexedAt ? `, indexed ${r.indexedAt}` : ''}` +
              (r.indexStatus === 'INDEXED' ? '' : `, ${r.indexStatus}${r.indexError ? ` (${r.indexError})` : ''}`),
          )
          .join('\n');
      }),
  );

  register(
    server,
    'index_repository',
    {
      title: 'Index a repository',
      description: 'Queue an (incremental) index of a folder on the server; it must lie under the server\'s allowed roots. Returns the job id; list_repositories shows the counts when done.',
    },
    {
        path: z.string().min(1).max(4096).describe('absolute path on the server'),
        name: z.string().min(1).max(100).describe("repository name: letters, digits, '.', '_', '-'"),
        scip: z.string().min(1).max(4096).optional().describe('absolute path on the server of a SCIP index (scip-typescript, scip-python, scip-go... output) whose definitions replace name-based edges'),
    },
    (args) =>
      run(async () => {
        const { indexRepository } = await call<{ indexRepository: { id: string; queue: string } }>(doc.INDEX_REPOSITORY, { input: { path: args.path, name: args.name, ...(args.scip ? { scip: args.scip } : {}) } });
        return `Index of "${args.name}" queued as job ${indexRepository.id} (queue ${indexRepository.queue}).`;
      }),
  );

  register(
    server,
    'ask',
    {
      title: 'Ask about the code',
      description:
        'Answer a question about an indexed repository with the answering pipeline (retrieval, graph, an LLM); the answer cites the scopes it used (path, lines, id). Without a chat model configured on the server it returns the retrieved evidence instead, saying so.',
    },
    {
        question: z.string().min(1).max(4_000).describe('the question, in plain words'),
        repository: z.string().min(1).describe('repository to answer from (see list_repositories)'),
        sessionId: z.string().min(1).max(200).optional().describe('conversation id: questions with the same id share history'),
        pipeline: z.string().min(1).optional().describe('pipeline name (default: the server\'s)'),
        timeoutS: z.number().int().min(1).max(MAX_ASK_TIMEOUT_S).optional().describe(`how long to wait for the answer (default ${DEFAULT_ASK_TIMEOUT_S})`),
    },
    (args) =>
      run(async () => {
        const { ask } = await call<{ ask: { id: string } }>(doc.ASK, { input: { question: args.question, repository: args.repository, sessionId: args.sessionId, pipeline: args.pipeline } });
        const deadline = Date.now() + (args.timeoutS ?? DEFAULT_ASK_TIMEOUT_S) * 1_000;
        for (;;) {
          const { askResult: state } = await call<{ askResult: AskStateRow }>(doc.ASK_RESULT, { id: ask.id });
          if (state.status === 'FAILED') throw new GraphqlCallError(`ask ${ask.id} failed: ${state.message ?? 'unknown reason'}`, 'ASK_FAILED');
          if (state.status === 'COMPLETED' && state.result) return formatAnswer(state.result);
          if (Date.now() >= deadline) {
            throw new GraphqlCallError(`no answer after ${args.timeoutS ?? DEFAULT_ASK_TIMEOUT_S} s (ask ${ask.id} is still running)${state.answerSoFar ? `; so far: ${state.answerSoFar}` : ''}`, 'TIMEOUT');
          }
          await new Promise((r) => setTimeout(r, ASK_POLL_MS));
        }
      }),
  );

  for (const tool of impactTools(call)) register(server, tool.name, tool.meta, tool.shape, (args) => run(() => (tool.handler as (a: unknown) => Promise<string>)(args)));

  return server;
}

interface AskStateRow {
  status: 'RUNNING' | 'COMPLETED' | 'FAILED';
  answerSoFar: string;
  message: string | null;
  result: {
    answer: string;
    modelAvailable: boolean;
    warnings: string[];
    missing: string | null;
    citations: { id: string; path: string; startLine: number | null; endLine: number | null; qualifiedName: string }[];
    plan: { mode: string; query: string } | null;
  } | null;
}

/** The answer with its `[cite:<id>]` markers as footnote numbers, then the sources those numbers name. */
function formatAnswer(r: NonNullable<AskStateRow['result']>): string {
  const number = new Map(r.citations.map((c, i) => [c.id, i + 1]));
  const answer = r.answer.replace(/\[cite:([^\]\s]+)\]/g, (marker, id: string) => (number.has(id) ? `[${number.get(id)}]` : marker));
  const parts = [answer.trim()];
  if (r.citations.length) {
    parts.push('', 'Sources:', ...r.citations.map((c, i) => `  [${i + 1}] ${c.qualifiedName} ${c.path}${c.startLine ? `:${c.startLine}${c.endLine && c.endLine !== c.startLine ? `-${c.endLine}` : ''}` : ''} [id ${c.id}]`));
  }
  if (r.plan) parts.push('', `retrieval: ${r.plan.mode.toLowerCase()} "${r.plan.query}"`);
  if (r.missing) parts.push(`still missing: ${r.missing}`);
  if (r.warnings.length) parts.push(`warnings: ${r.warnings.join('; ')}`);
  return parts.join('\n');
}
