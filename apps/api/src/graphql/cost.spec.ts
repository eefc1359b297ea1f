import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { checkCost, expandedFieldCount, searchCost } from './cost';

const schema = buildSchema(`
  type Node { id: ID! child: Node source: String }
  input SearchInput { text: String topK: Int sourceChars: Int }
  type Query { node: Node search(input: SearchInput): [Node] scope(id: ID, sourceChars: Int): Node }
`);
const limits = { maxCost: 50, maxDepth: 4, maxAliases: 3, maxSourceChars: 1_000_000 };
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

  it('counts a fragment bomb by its expanded size in linear time, and refuses it', () => {
    const levels = 40;
    const bomb = `{ ...F0 } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { node { id } ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F${levels} on Query { node { id } }`;
    const document = parse(bomb);
    const started = Date.now();
    expect(expandedFieldCount(document, document.definitions[0] as OperationDefinitionNode)).toBe(2 * (2 ** (levels + 1) - 1));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(code(bomb)).toBe('QUERY_TOO_COMPLEX');
    expect(expandedFieldCount(parse('{ node { id child { id } } }'), undefined)).toBe(4);
  });

  it('prices the source a query returns: sourceChars × hits, summed over aliases', () => {
    const sourceLimits = { maxCost: 100_000, maxDepth: 10, maxAliases: 10, maxSourceChars: 100_000 };
    const run = (query: string) => {
      const document = parse(query);
      try {
        checkCost(schema, document, document.definitions[0] as OperationDefinitionNode, {}, sourceLimits);
        return 'ok';
      } catch (error) {
        return (error as Error).message;
      }
    };
    // 10 hits × 2,000 characters (the default cut) fit; 8 aliases of 200 hits × 1,000,000 do not.
    expect(run('{ search(input: { text: "x" }) { id } }')).toBe('ok');
    expect(run('{ search(input: { text: "x", topK: 50, sourceChars: 2000 }) { id } }')).toBe('ok');
    expect(run('{ a: search(input: { text: "x", topK: 50, sourceChars: 2000 }) { id } b: search(input: { text: "x", topK: 1, sourceChars: 1 }) { id } }')).toMatch(/100001 characters of source/);
    expect(run(`{ ${Array.from({ length: 8 }, (_, i) => `a${i}: search(input: { text: "x", topK: 200, sourceChars: 1000000 }) { id }`).join(' ')} }`)).toMatch(/1600000000 characters of source, more than the limit of 100000 \(GRAPHQL_MAX_SOURCE_CHARS\)/);
    // A scope without a cut is a whole source (up to 1,000,000 characters).
    expect(run('{ scope(id: "x", sourceChars: 500) { id } }')).toBe('ok');
    expect(run('{ scope(id: "x") { id } }')).toMatch(/1000000 characters of source/);
  });
});
