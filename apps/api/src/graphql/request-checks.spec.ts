import { buildSchema, GraphQLError, parse } from 'graphql';
import { prepareSocketOperation, resolveOperation } from './request-checks';

const schema = buildSchema(`
  type Step { stepId: ID! }
  type Event { step: Step }
  type Query { hello: String }
  type Subscription { events: Event }
`);
const limits = { maxCost: 100, maxDepth: 5, maxAliases: 5, maxSourceChars: 1_000, maxTokens: 200 };

function codes(result: ReturnType<typeof prepareSocketOperation>): string[] {
  return Array.isArray(result) ? result.map((e: GraphQLError) => String(e.extensions.code)) : [];
}

describe('request checks shared by HTTP and graphql-ws', () => {
  it('resolves the operation a request names, or says why it cannot, in graphql-js words', () => {
    const two = parse('query A { hello } query B { hello }');
    expect((resolveOperation(two, undefined) as GraphQLError).message).toMatch(/^Must provide operation name if query contains multiple operations \(send operationName: one of "A", "B"\)/);
    expect((resolveOperation(two, 'C') as GraphQLError).message).toMatch(/^Unknown operation named "C"/);
    expect((resolveOperation(two, 'C') as GraphQLError).extensions.code).toBe('BAD_REQUEST');
    expect(resolveOperation(two, 'B')).toMatchObject({ name: { value: 'B' } });
    expect(resolveOperation(parse('fragment F on Query { hello }'), undefined)).toBeInstanceOf(GraphQLError);
  });

  it('answers a socket operation with coded errors instead of throwing: parse, validation, operation, cost', () => {
    expect(codes(prepareSocketOperation(schema, { query: '{ hello' }, limits))).toEqual(['GRAPHQL_PARSE_FAILED']);
    const misspelt = prepareSocketOperation(schema, { query: 'subscription { events { step } }' }, limits) as GraphQLError[];
    expect(misspelt[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(misspelt[0].message).toMatch(/must have a selection of subfields\. Did you mean "step \{ \.\.\. \}"\?/);
    expect(codes(prepareSocketOperation(schema, { query: 'query A { hello } query B { hello }' }, limits))).toEqual(['BAD_REQUEST']);
    expect(codes(prepareSocketOperation(schema, { query: `{ ${Array.from({ length: 6 }, (_, i) => `a${i}: hello`).join(' ')} }` }, limits))).toEqual(['QUERY_TOO_COMPLEX']);
    const ok = prepareSocketOperation(schema, { query: 'subscription S { events { step { stepId } } }', operationName: 'S', variables: null }, limits);
    expect(Array.isArray(ok)).toBe(false);
    expect(ok).toMatchObject({ operationName: 'S', variableValues: {} });
  });
});
