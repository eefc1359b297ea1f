import { defaultPlan, validatePlan } from './plan';
import { ScopeQueryBuilder } from './query-builder';
import { DomainError } from '@scopegraph/errors';
import type { SearchService } from './search.service';
import { SEARCH_DEFAULTS, type SearchPlan } from './search.types';

const builder = () => new ScopeQueryBuilder({} as SearchService);
const fieldOf = (plan: SearchPlan): string | undefined => {
  try {
    validatePlan(plan);
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.field;
    throw error;
  }
};

describe('fluent builder -> plan', () => {
  it('builds the hybrid plan of the README example', () => {
    const plan = builder()
      .inRepository('x')
      .whereFile({ contains: 'parsers' })
      .semanticSearchBySource('parse ast', { topK: 50 })
      .fullText('parse', { topK: 50 })
      .hybrid({ weights: { semantic: 1 } })
      .expand({ depth: 1, edges: ['CALLS'] })
      .limit(10)
      .build();
    expect(plan).toEqual({
      mode: 'hybrid',
      semantic: { text: 'parse ast', limit: 50 },
      bm25: { text: 'parse', limit: 50 },
      fusion: { k: 10, weights: { semantic: 1, bm25: 3, graph: 1 } },
      keywordWeight: 0.3,
      filters: { repository: 'x', path: { contains: 'parsers' } },
      filterStrategy: 'auto',
      exactMaxCandidates: SEARCH_DEFAULTS.exactMaxCandidates,
      graphSignal: undefined,
      expand: { depth: 1, edges: ['CALLS'], direction: 'both', maxNodes: 50 },
      limit: 10,
      sourceChars: null,
    });
    expect(fieldOf(plan)).toBeUndefined();
  });

  it('derives the mode from the lists', () => {
    expect(builder().semanticSearchBySource('a').build().mode).toBe('semantic');
    expect(builder().fullText('a').build().mode).toBe('bm25');
    expect(builder().semanticSearchBySource('a').fullText('a').build().mode).toBe('hybrid');
    expect(builder().semanticRerank('a').build().mode).toBe('semantic_rerank');
  });

  it('gives hybrid lists 150 candidates and single lists the final limit by default', () => {
    const hybrid = builder().semanticSearchBySource('a').fullText('a').build();
    expect([hybrid.semantic?.limit, hybrid.bm25?.limit]).toEqual([150, 150]);
    expect(builder().semanticSearchBySource('a').limit(7).build().semantic?.limit).toBe(7);
  });

  it('refuses combinations that make no plan', () => {
    expect(() => builder().build()).toThrow(/no list/);
    expect(() => builder().semanticSearchBySource('a').hybrid().build()).toThrow(/hybrid\(\) needs both/);
    expect(() => builder().semanticRerank('a').fullText('a').build()).toThrow(/cannot be combined/);
  });

  it('accumulates kind and language filters', () => {
    const plan = builder().whereKind('method').whereKind('function').whereLanguage('python').fullText('a').build();
    expect(plan.filters).toEqual({ kinds: ['method', 'function'], languages: ['python'] });
  });
});

describe('validatePlan', () => {
  const base = () => defaultPlan('hybrid', 'create invoice');

  it.each<[string, (p: SearchPlan) => void, string]>([
    ['empty text', (p) => (p.semantic!.text = '   '), 'text'],
    ['text over 1000 characters', (p) => (p.bm25!.text = 'x'.repeat(1001)), 'text'],
    ['topK over 200', (p) => (p.limit = 201), 'topK'],
    ['topK 0', (p) => (p.limit = 0), 'topK'],
    ['fractional topK', (p) => (p.limit = 2.5), 'topK'],
    ['candidates over 1000', (p) => (p.semantic!.limit = 1001), 'candidates'],
    ['negative weight', (p) => (p.fusion.weights.bm25 = -1), 'weights.bm25'],
    ['NaN weight', (p) => (p.fusion.weights.semantic = Number.NaN), 'weights.semantic'],
    ['both list weights 0', (p) => (p.fusion.weights = { semantic: 0, bm25: 0, graph: 1 }), 'weights'],
    ['keywordWeight above 1', (p) => (p.keywordWeight = 1.5), 'keywordWeight'],
    ['unknown language', (p) => (p.filters.languages = ["' OR 1=1"]), 'language'],
    ['unknown kind', (p) => (p.filters.kinds = ['Method']), 'kind'],
    ['empty repository', (p) => (p.filters.repository = ''), 'repository'],
    ['malformed glob', (p) => (p.filters.path = { glob: '{a,b' }), 'pathGlob'],
    ['long path filter', (p) => (p.filters.path = { contains: 'x'.repeat(501) }), 'pathContains'],
    ['depth 4', (p) => (p.expand = { depth: 4, edges: ['CALLS'], direction: 'out', maxNodes: 5 }), 'expand.depth'],
    ['unknown edge', (p) => (p.expand = { depth: 1, edges: ['DROP' as never], direction: 'out', maxNodes: 5 }), 'expand.edges'],
    ['too many expanded nodes', (p) => (p.expand = { depth: 1, edges: ['CALLS'], direction: 'out', maxNodes: 201 }), 'expand.maxNodes'],
    ['unknown mode', (p) => (p.mode = 'direct' as never), 'mode'],
  ])('refuses %s, naming the field', (_label, change, field) => {
    const plan = base();
    change(plan);
    expect(fieldOf(plan)).toBe(field);
  });

  it('refuses the graph signal in semantic_rerank mode', () => {
    const plan = { ...defaultPlan('semantic_rerank', 'a'), graphSignal: { weight: 1, edges: ['CALLS' as const] } };
    expect(fieldOf(plan)).toBe('graphSignal');
  });

  it('accepts injection-looking text: it is data, escaped later', () => {
    const plan = base();
    plan.semantic!.text = plan.bm25!.text = "' }) MATCH (n) DETACH DELETE n // $x `b`";
    plan.filters = { repository: "' }) MATCH (n) //", name: '$x', path: { contains: '`' } };
    expect(fieldOf(plan)).toBeUndefined();
  });
});

describe('text limits: a query, and an issue for LOCALIZE', () => {
  it('a query is at most 1000 characters; an issue (LOCALIZE) up to maxIssueLength', () => {
    expect(fieldOf(defaultPlan('hybrid', 'x'.repeat(1001)))).toBe('text');
    expect(fieldOf(defaultPlan('localize', 'x'.repeat(20_000)))).toBeUndefined();
    expect(fieldOf(defaultPlan('localize', 'x'.repeat(64_001)))).toBe('text');
  });
});
