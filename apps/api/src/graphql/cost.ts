import { type DocumentNode, getVariableValues, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, type SelectionSetNode, validate, type ValidationRule } from 'graphql';
import type { ComplexityEstimatorArgs } from '@nestjs/graphql';
import { type ComplexityEstimator, fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { SEARCH_DEFAULTS } from '@scopegraph/search';
// graphql-depth-limit ships no types; it is a validation rule factory.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const depthLimit = require('graphql-depth-limit') as (maxDepth: number) => ValidationRule;

/** The code and status of every refusal for size or cost, so clients can tell it from a bad field. */
export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

export interface CostLimits {
  maxCost: number;
  maxDepth: number;
  maxAliases: number;
  /** Characters of source one operation may return, summed over its fields and aliases. */
  maxSourceChars: number;
}

export function tooComplex(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, http: { status: 400 } } });
}

/**
 * Per-field costs, attached with `@Query(..., { complexity })`. The unit is roughly "one scope read":
 * a search reads topK hits after two candidate lists and may expand each hit; everything else is
 * one per field (simpleEstimator).
 */
const SEARCH_BASE_COST = 10;
const CANDIDATES_PER_COST_UNIT = 10;
const DEFAULT_EXPAND_NODES = 50;

type Args = Record<string, unknown>;
const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

export function searchCost({ args }: ComplexityEstimatorArgs): number {
  const input = (args.input ?? {}) as Args;
  const expand = input.expand as Args | undefined;
  const topK = num(input.topK, SEARCH_DEFAULTS.topK);
  const candidates = num(input.candidates, SEARCH_DEFAULTS.candidates);
  const expansion = expand ? num(expand.maxNodes, DEFAULT_EXPAND_NODES) * num(expand.depth, 1) : 0;
  return SEARCH_BASE_COST + topK + Math.ceil(candidates / CANDIDATES_PER_COST_UNIT) + expansion;
}

export function neighborhoodCost({ args }: ComplexityEstimatorArgs): number {
  return 1 + num(args.maxNodes, DEFAULT_EXPAND_NODES) * num(args.depth, 1);
}

/**
 * What `sourceChars: null` (whole sources) may return per scope: the largest cut a caller may ask
 * for (SearchInput's @Max), since a scope's length is not known before the read.
 */
export const WHOLE_SOURCE_CHARS = 1_000_000;
/** The resolvers' default cut when sourceChars is omitted (search.model DEFAULT_SOURCE_CHARS). */
const DEFAULT_CUT = 2_000;

function sourceCut(value: unknown): number {
  if (value === null) return WHOLE_SOURCE_CHARS;
  return num(value, DEFAULT_CUT);
}

/**
 * Characters of source each root field may return: every scope it can return times the cut. The
 * response, not the work, is what a small request can make large (1e6 sourceChars × 200 hits).
 */
const SOURCE_CHARS_OF: Record<string, (args: Args) => number> = {
  search: (args) => {
    const input = (args.input ?? {}) as Args;
    const expand = input.expand as Args | undefined;
    const scopes = num(input.topK, SEARCH_DEFAULTS.topK) + (expand ? num(expand.maxNodes, DEFAULT_EXPAND_NODES) * num(expand.depth, 1) : 0);
    return scopes * sourceCut(input.sourceChars);
  },
  neighborhood: (args) => (1 + num(args.maxNodes, DEFAULT_EXPAND_NODES) * num(args.depth, 1)) * sourceCut(args.sourceChars),
  scope: (args) => (args.sourceChars === undefined ? WHOLE_SOURCE_CHARS : sourceCut(args.sourceChars)),
};

const sourceCharsEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const ofField = type.name === 'Query' ? SOURCE_CHARS_OF[field.name] : undefined;
  return (ofField ? ofField(args) : 0) + childComplexity;
};

/** Aliased fields anywhere in the document (fragments included once each). */
export function aliasCount(document: DocumentNode): number {
  let count = 0;
  const walk = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD && selection.alias) count += 1;
      if (selection.kind !== Kind.FRAGMENT_SPREAD) walk(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) walk(definition.selectionSet);
  }
  return count;
}

/**
 * Fields the operation runs once every fragment is spread, counted with one pass per fragment
 * (memoised), so a fragment bomb (each fragment spreading the next twice) costs its size, not 2^n.
 * graphql-depth-limit walks spreads without memo: the count goes first and bounds its work.
 */
export function expandedFieldCount(document: DocumentNode, operation: OperationDefinitionNode | undefined): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  const memo = new Map<string, number>();
  const count = (set: SelectionSetNode | undefined): number => {
    let total = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) total += 1 + count(selection.selectionSet);
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += count(selection.selectionSet);
      else {
        const name = selection.name.value;
        if (!memo.has(name)) {
          memo.set(name, 0); // a cycle (refused by validation already) counts nothing
          memo.set(name, count(fragments.get(name)));
        }
        total += memo.get(name)!;
      }
    }
    return total;
  };
  const operations = operation ? [operation] : document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operations.reduce((sum, o) => sum + count(o.selectionSet), 0);
}

/** The checks, in cheapest-first order; throws QUERY_TOO_COMPLEX naming the limit. */
export function checkCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | undefined, variables: Args, limits: CostLimits): number {
  const aliases = aliasCount(document);
  if (aliases > limits.maxAliases) throw tooComplex(`query uses ${aliases} aliases; at most ${limits.maxAliases} are allowed`);
  const fields = expandedFieldCount(document, operation);
  if (fields > MAX_QUERY_NODES) throw tooComplex(`query expands to ${fields} fields once its fragments are spread; at most ${MAX_QUERY_NODES} are allowed`);
  // Runs after Apollo's own validation, so fragment cycles have already been refused.
  const depthErrors = validate(schema, document, [depthLimit(limits.maxDepth)]);
  if (depthErrors.length > 0) throw tooComplex(`query is nested deeper than ${limits.maxDepth} levels`);
  // Variables that do not coerce are refused by execution with BAD_USER_INPUT before anything runs;
  // getComplexity would throw on them instead.
  if (operation && getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors) return 0;
  const measure = (estimators: ComplexityEstimator[]) =>
    complexityOrRefusal(() => getComplexity({ schema, query: document, operationName: operation?.name?.value, variables, estimators, maxQueryNodes: MAX_QUERY_NODES }));
  const cost = measure([fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })]);
  if (cost > limits.maxCost) throw tooComplex(`query cost ${cost} exceeds the limit of ${limits.maxCost} (search costs about 10 + topK + candidates/10 + expanded nodes)`);
  const sourceChars = measure([sourceCharsEstimator]);
  if (sourceChars > limits.maxSourceChars) {
    throw tooComplex(
      `query may return ${sourceChars} characters of source, more than the limit of ${limits.maxSourceChars} (GRAPHQL_MAX_SOURCE_CHARS): each search returns up to sourceChars × (topK + expanded nodes), summed over aliases; ask for fewer hits or a smaller sourceChars`,
    );
  }
  return cost;
}

/**
 * Fields the complexity walk visits once fragments are expanded. graphql-query-complexity's own
 * default (10,000), named here because a fragment bomb reaches it within the token limit.
 */
const MAX_QUERY_NODES = 10_000;
const NODE_LIMIT = /maximum allowed number of nodes/;

function complexityOrRefusal(measure: () => number): number {
  try {
    return measure();
  } catch (error) {
    if (error instanceof GraphQLError && NODE_LIMIT.test(error.message)) {
      throw tooComplex(`query expands to more than ${MAX_QUERY_NODES} fields once its fragments are spread; spread fewer fragments`);
    }
    throw error;
  }
}
