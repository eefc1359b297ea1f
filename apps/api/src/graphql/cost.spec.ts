import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { checkCost, searchCost } from './cost';

const schema = buildSchema(`
  type Node { id: ID! child: Node }
  type Query { node: Node }
`);
const limits = { maxCost: 50, maxDepth: 4, maxAliases: 3 };
const check = (query: string) => {
  const document = parse(query);
  return checkCost(schema, document, document.definitions[0] as OperationDefinitionNode, {}, limits);
};
const code = (query: string) => {
  try {
    check(query);
    return 'ok';
  } catch (error) {
    return (error as { extensions?: { code?: string } }).extensions?.code;
  }
};

describe('query cost limits', () => {
  it('refuses depth, aliases and cost beyond the limits with QUERY_TOO_COMPLEX', () => {
    expect(code('{ node { child { child { id } } } }')).toBe('ok');
    expect(code('{ node { child { child { child { child { id } } } } } }')).toBe('QUERY_TOO_COMPLEX');
    expect(code('{ a: node { id } b: node { id } c: node { id } }')).toBe('ok');
    expect(code('{ a: node { id } b: node { id } c: node { id } d: node { id } }')).toBe('QUERY_TOO_COMPLEX');
    // Fragments count where they are used: depth through a fragment is still depth.
    expect(code('query { node { ...F } } fragment F on Node { child { child { child { child { id } } } } }')).toBe('QUERY_TOO_COMPLEX');
  });

  it('prices a search by what it reads', () => {
    const cost = (input: Record<string, unknown>) => searchCost({ args: { input }, childComplexity: 0, type: undefined as never, field: undefined as never });
    expect(cost({ text: 'x' })).toBe(10 + 10 + 15);
    expect(cost({ text: 'x', topK: 200, candidates: 1000, expand: { maxNodes: 200, depth: 3 } })).toBe(10 + 200 + 100 + 600);
  });
});
