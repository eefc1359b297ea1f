import type { ApolloServerPlugin } from '@apollo/server';
import { type DocumentNode, type ExecutionArgs, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, parse, validate } from 'graphql';
import { checkCost, type CostLimits } from './cost';
import { ErrorCode } from './errors';

/** An error about the request as a whole, with its code and the HTTP status Apollo answers it with. */
export function requestError(message: string, code: ErrorCode, status = 400): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * The operation a request names, or why none can run. graphql-js finds this out only inside execute
 * (where Apollo reports it as an internal error); checked here first, with graphql-js's own words.
 */
export function resolveOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | GraphQLError {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const names = operations.map((o) => o.name?.value).filter(Boolean);
  if (operationName) {
    const named = operations.find((o) => o.name?.value === operationName);
    if (named) return named;
    return requestError(`Unknown operation named "${operationName.slice(0, 100)}"${names.length ? `; the document names ${names.map((n) => `"${n}"`).join(', ')}` : ''}.`, ErrorCode.BadRequest);
  }
  if (operations.length === 1) return operations[0];
  if (operations.length === 0) return requestError('The document has no operation to run.', ErrorCode.BadRequest);
  return requestError(`Must provide operation name if query contains multiple operations (send operationName: one of ${names.map((n) => `"${n}"`).join(', ') || 'them, after naming them'}).`, ErrorCode.BadRequest);
}

/** Subscriptions need a socket: over HTTP graphql-js would run the subscription field as a query. */
export function subscriptionOverHttp(): GraphQLError {
  return requestError('subscriptions are served over graphql-ws on this same path (ws://…/graphql), not over HTTP', ErrorCode.BadRequest);
}

/**
 * Apollo's HTTP pipeline has parsed and validated the document by the time this runs: what is left is
 * the operation (named, known, not a subscription) and its cost.
 */
export function requestChecksPlugin(limits: CostLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request }) {
          const operation = resolveOperation(document, request.operationName);
          if (operation instanceof GraphQLError) throw operation;
          if (operation.operation === 'subscription') throw subscriptionOverHttp();
          checkCost(schema, document, operation, request.variables ?? {}, limits);
        },
      };
    },
  };
}

export interface SocketLimits extends CostLimits {
  maxTokens: number;
}

interface SubscribePayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * graphql-ws's own path parses (a syntax error throws and closes the socket with 4500) and validates
 * with uncoded errors. This runs the same steps as Apollo's HTTP pipeline instead: a bad document is
 * answered on its operation id with the HTTP codes, the socket stays open, and cost limits apply.
 */
export function prepareSocketOperation(schema: GraphQLSchema, payload: SubscribePayload, limits: SocketLimits): ExecutionArgs | readonly GraphQLError[] {
  try {
    return prepare(schema, payload, limits);
  } catch (error) {
    // A fault of ours: answered as an internal error on this operation (formatError logs it), the
    // socket and its other operations stay open.
    return [new GraphQLError('Internal server error', { originalError: error as Error })];
  }
}

function prepare(schema: GraphQLSchema, payload: SubscribePayload, limits: SocketLimits): ExecutionArgs | readonly GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    // formatError turns the token-limit message into QUERY_TOO_COMPLEX, as over HTTP.
    return [new GraphQLError(error.message, { source: error.source, positions: error.positions, extensions: { code: ErrorCode.GraphqlParse } })];
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return invalid.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...e.extensions, code: ErrorCode.GraphqlValidation } }));
  const operation = resolveOperation(document, payload.operationName);
  if (operation instanceof GraphQLError) return [operation];
  const variableValues = payload.variables ?? {};
  try {
    checkCost(schema, document, operation, variableValues, limits);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  return { schema, document, operationName: payload.operationName, variableValues };
}

/** Holds the schema Apollo built, for the graphql-ws hooks (which Nest configures before it exists). */
export class SchemaRef {
  schema?: GraphQLSchema;

  plugin(): ApolloServerPlugin {
    return {
      serverWillStart: async ({ schema }) => {
        this.schema = schema;
      },
    };
  }
}
