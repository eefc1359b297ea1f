import { DIRECTIONS, type Direction, EDGE_TYPES, type GraphEdgeType, SCOPE_KINDS, SEARCH_LIMITS } from '../search.types';
import type { EvalTarget } from './match';

/**
 * An evaluation dataset is JSON Lines, one query per line:
 *
 *   {"id": "rxjs-001", "repo": "rxjs", "query": "emit the latest value when it completes",
 *    "relevant": [{"path": "internal/AsyncSubject.ts", "name": "AsyncSubject", "kind": "class"}],
 *    "expand": {"depth": 1, "edges": ["EXTENDS"], "direction": "in"}, "meta": {...}}
 *
 * `repo` is an indexed repository's name, `path` is relative to its root, `name` the declared
 * identifier (`Class.method` for members). `expand` (graph questions) asks for the hits' neighbors;
 * `type` (optional) says what kind of question it is, and the report gives every metric per type;
 * `meta` is free-form provenance, read only for `meta.language` (the report's split per language).
 * Blank lines are skipped.
 */
export interface EvalExpand {
  depth: number;
  edges: GraphEdgeType[];
  direction: Direction;
}

/**
 * What a question asks, as people ask them: `semantic` (behaviour in plain words, no identifier of
 * the answer), `lexical` (an exact string pasted from an error, log or config, found verbatim in the
 * answer), `structural` (a relationship in plain words: who calls / extends / implements X), `issue`
 * (a real bug report, SWE-bench style: the functions its fix changed; the query may be as long as
 * LOCALIZE accepts, and the report adds function/file accuracy).
 */
export const QUERY_TYPES = ['semantic', 'lexical', 'structural', 'issue'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

export interface EvalQuery {
  id: string;
  type?: QueryType;
  repo: string;
  query: string;
  relevant: EvalTarget[];
  expand?: EvalExpand;
  meta?: Record<string, unknown>;
  /** 1-based line in the file, for messages. */
  line: number;
}

/** The language a question is about (`meta.language`): the report splits by it when a dataset spans several. */
export function queryLanguage(query: Pick<EvalQuery, 'meta'>): string | undefined {
  const language = query.meta?.language;
  return typeof language === 'string' ? language : undefined;
}

export interface DatasetProblem {
  line: number;
  field: string;
  message: string;
}

/** Every problem found in a dataset, each naming its line and field. */
export class DatasetError extends Error {
  constructor(
    readonly source: string,
    readonly problems: DatasetProblem[],
  ) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  ${source}:${p.line}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
    const more = problems.length > MAX_PROBLEMS_SHOWN ? [`  ... and ${problems.length - MAX_PROBLEMS_SHOWN} more`] : [];
    super([`invalid dataset ${source} (${problems.length} problem${problems.length === 1 ? '' : 's'}):`, ...shown, ...more].join('\n'));
    this.name = 'DatasetError';
  }
}

const MAX_PROBLEMS_SHOWN = 20;
const MAX_TARGETS = 200;
const LINE_KEYS = new Set(['id', 'type', 'repo', 'query', 'relevant', 'expand', 'meta']);
const TARGET_KEYS = new Set(['path', 'name', 'kind']);
const EXPAND_KEYS = new Set(['depth', 'edges', 'direction']);
export const EXPAND_DEFAULTS: EvalExpand = { depth: 1, edges: [...EDGE_TYPES], direction: 'both' };

/** Parses and checks a whole dataset; throws a DatasetError listing every bad line and field. */
export function parseDataset(text: string, source = 'dataset'): EvalQuery[] {
  const problems: DatasetProblem[] = [];
  const queries: EvalQuery[] = [];
  const ids = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const before = problems.length;
    const query = parseLine(raw, line, problems);
    if (query && problems.length === before) {
      const first = ids.get(query.id);
      if (first !== undefined) problems.push({ line, field: 'id', message: `${JSON.stringify(query.id)} is already used on line ${first}` });
      else {
        ids.set(query.id, line);
        queries.push(query);
      }
    }
  });
  if (problems.length === 0 && queries.length === 0) problems.push({ line: 1, field: '', message: 'no queries (the file is empty)' });
  if (problems.length > 0) throw new DatasetError(source, problems);
  return queries;
}

function parseLine(raw: string, line: number, problems: DatasetProblem[]): EvalQuery | null {
  const fail = (field: string, message: string) => problems.push({ line, field, message });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    fail('', `not valid JSON (${(error as Error).message})`);
    return null;
  }
  if (!isObject(value)) {
    fail('', 'must be a JSON object');
    return null;
  }
  for (const key of Object.keys(value)) if (!LINE_KEYS.has(key)) fail(key, `unknown field (expected ${[...LINE_KEYS].join(', ')})`);

  const id = nonEmptyString(value.id, 'id', fail);
  const repo = nonEmptyString(value.repo, 'repo', fail);
  const query = nonEmptyString(value.query, 'query', fail);

  let type: QueryType | undefined;
  if (value.type !== undefined) {
    if (!(QUERY_TYPES as readonly unknown[]).includes(value.type)) fail('type', `must be one of ${QUERY_TYPES.join(', ')}`);
    else type = value.type as QueryType;
  }
  const maxQuery = type === 'issue' ? SEARCH_LIMITS.maxIssueLength : SEARCH_LIMITS.maxTextLength;
  if (query !== null && query.length > maxQuery) fail('query', `must be at most ${maxQuery} characters (the search API's limit${type === 'issue' ? ' for an issue' : ''})`);

  const relevant: EvalTarget[] = [];
  if (!Array.isArray(value.relevant) || value.relevant.length === 0) fail('relevant', 'must be a non-empty array of {path, name, kind?}');
  else if (value.relevant.length > MAX_TARGETS) fail('relevant', `must hold at most ${MAX_TARGETS} targets`);
  else {
    const seen = new Set<string>();
    value.relevant.forEach((t: unknown, i: number) => {
      const field = `relevant[${i}]`;
      if (!isObject(t)) return void fail(field, 'must be an object {path, name, kind?}');
      for (const key of Object.keys(t)) if (!TARGET_KEYS.has(key)) fail(`${field}.${key}`, 'unknown field (expected path, name, kind)');
      const path = nonEmptyString(t.path, `${field}.path`, fail);
      if (path !== null && (path.startsWith('/') || path.includes('\\') || path.startsWith('./'))) {
        fail(`${field}.path`, `must be relative to the repository root with forward slashes, got ${JSON.stringify(path)}`);
      }
      const name = nonEmptyString(t.name, `${field}.name`, fail);
      let kind: string | undefined;
      if (t.kind !== undefined) {
        if (typeof t.kind !== 'string' || !(SCOPE_KINDS as readonly string[]).includes(t.kind)) fail(`${field}.kind`, `must be one of ${SCOPE_KINDS.join(', ')}`);
        else kind = t.kind;
      }
      if (path === null || name === null) return;
      const key = `${path}#${name}`;
      if (seen.has(key)) return void fail(field, `duplicate target ${path} ${name}`);
      seen.add(key);
      relevant.push(kind ? { path, name, kind } : { path, name });
    });
  }

  let expand: EvalExpand | undefined;
  if (value.expand !== undefined) expand = parseExpand(value.expand, fail) ?? undefined;
  // What a structural question measures is whether search understands the relationship by itself.
  if (type === 'structural' && value.expand !== undefined) fail('expand', 'a structural question is asked in plain words: it carries no expand spec');

  let meta: Record<string, unknown> | undefined;
  if (value.meta !== undefined) {
    if (!isObject(value.meta)) fail('meta', 'must be an object');
    else if (value.meta.language !== undefined && (typeof value.meta.language !== 'string' || value.meta.language.trim() === '')) fail('meta.language', 'must be a non-empty string (the report splits by it)');
    else meta = value.meta;
  }
  if (id === null || repo === null || query === null) return null;
  return { id, ...(type ? { type } : {}), repo, query, relevant, ...(expand ? { expand } : {}), ...(meta ? { meta } : {}), line };
}

function parseExpand(value: unknown, fail: (field: string, message: string) => void): EvalExpand | null {
  if (!isObject(value)) {
    fail('expand', 'must be an object {depth, edges, direction}');
    return null;
  }
  for (const key of Object.keys(value)) if (!EXPAND_KEYS.has(key)) fail(`expand.${key}`, 'unknown field (expected depth, edges, direction)');
  const out: EvalExpand = { ...EXPAND_DEFAULTS, edges: [...EXPAND_DEFAULTS.edges] };
  if (value.depth !== undefined) {
    if (!Number.isInteger(value.depth) || (value.depth as number) < 1 || (value.depth as number) > SEARCH_LIMITS.maxDepth) {
      fail('expand.depth', `must be an integer from 1 to ${SEARCH_LIMITS.maxDepth}`);
    } else out.depth = value.depth as number;
  }
  if (value.edges !== undefined) {
    if (!Array.isArray(value.edges) || value.edges.length === 0) fail('expand.edges', `must be a non-empty array of ${EDGE_TYPES.join(', ')}`);
    else {
      const bad = value.edges.filter((e) => !(EDGE_TYPES as readonly unknown[]).includes(e));
      if (bad.length > 0) fail('expand.edges', `unknown edge type ${bad.map((b) => JSON.stringify(b)).join(', ')} (known: ${EDGE_TYPES.join(', ')})`);
      else out.edges = [...new Set(value.edges as GraphEdgeType[])];
    }
  }
  if (value.direction !== undefined) {
    if (!(DIRECTIONS as readonly unknown[]).includes(value.direction)) fail('expand.direction', `must be one of ${DIRECTIONS.join(', ')}`);
    else out.direction = value.direction as Direction;
  }
  return out;
}

function nonEmptyString(value: unknown, field: string, fail: (field: string, message: string) => void): string | null {
  if (typeof value !== 'string' || value.trim() === '') {
    fail(field, value === undefined ? 'is missing' : 'must be a non-empty string');
    return null;
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
