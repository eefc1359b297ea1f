import type { ApolloServerPlugin } from '@apollo/server';
import { type DocumentNode, getVariableValues, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, type SelectionSetNode, validate, type ValidationRule } from 'graphql';
import type { ComplexityEstimatorArgs } from '@nestjs/graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
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

/** The checks, in cheapest-first order; throws QUERY_TOO_COMPLEX naming the limit. */
export function checkCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | undefined, variables: Args, limits: CostLimits): number {
  const aliases = aliasCount(document);
  if (aliases > limits.maxAliases) throw tooComplex(`query uses ${aliases} aliases; at most ${limits.maxAliases} are allowed`);
  // Runs after Apollo's own validation, so fragment cycles have already been refused.
  const depthErrors = validate(schema, document, [depthLimit(limits.maxDepth)]);
  if (depthErrors.length > 0) throw tooComplex(`query is nested deeper than ${limits.maxDepth} levels`);
  // Variables that do not coerce are refused by execution with BAD_USER_INPUT before anything runs;
  // getComplexity would throw on them instead.
  if (operation && getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors) return 0;
  const cost = getComplexity({
    schema,
    query: document,
    operationName: operation?.name?.value,
    variables,
    estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
  });
  if (cost > limits.maxCost) throw tooComplex(`query cost ${cost} exceeds the limit of ${limits.maxCost} (search costs about 10 + topK + candidates/10 + expanded nodes)`);
  return cost;
}

/** Refuses an operation before it runs when it is too deep, too aliased or too costly. */
export function costLimitPlugin(limits: CostLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          checkCost(schema, document, operation, request.variables ?? {}, limits);
        },
      };
    },
  };
}
