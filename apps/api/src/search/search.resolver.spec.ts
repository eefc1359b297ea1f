import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { planFromInput } from './search.resolver';
import { SearchInput, SearchModeEnum } from './search.model';

describe('SearchInput -> SearchPlan', () => {
  it('fills the defaults: hybrid, code-search RRF weights (semantic 2, bm25 3; plain-words questions semantic 2, bm25 1), RRF k 10, 150 candidates per list, 2000 source characters', () => {
    const plan = planFromInput({ text: 'create an invoice' } as SearchInput);
    expect(plan).toMatchObject({
      mode: 'hybrid',
      semantic: { text: 'create an invoice', limit: 150 },
      bm25: { text: 'create an invoice', limit: 150 },
      fusion: { k: 10, weights: { semantic: 2, bm25: 3, graph: 1 } },
      plainWords: { weights: { semantic: 2, bm25: 1 }, rescoreKeywordWeight: 0.3 },
      filters: {},
      limit: 10,
      sourceChars: 2000,
    });
    expect(plan.graphSignal).toBeUndefined();
    expect(plan.expand).toBeUndefined();
  });

  it('uses weights the caller gives as given, whatever the question looks like', () => {
    expect(planFromInput({ text: 'wait until a condition becomes true', weights: { bm25: 2 } } as SearchInput).plainWords).toBeNull();
    expect(planFromInput({ text: 'wait until a condition becomes true', weights: { graph: 2 } } as SearchInput).plainWords).not.toBeNull();
  });

  it('maps filters, weights, graph signal and expansion', () => {
    const plan = planFromInput({
      text: 'x',
      mode: SearchModeEnum.SEMANTIC,
      topK: 20,
      repository: 'shop',
      pathContains: 'src/',
      pathGlob: '**/*.ts',
      language: 'typescript',
      kind: 'method',
      name: 'create',
      weights: { semantic: 1 },
      graphSignal: true,
      expand: { depth: 2 },
      sourceChars: null,
    } as SearchInput);
    expect(plan.mode).toBe('semantic');
    expect(plan.bm25).toBeUndefined();
    expect(plan.semantic!.limit).toBe(20);
    expect(plan.filters).toEqual({ repository: 'shop', path: { contains: 'src/', glob: '**/*.ts' }, languages: ['typescript'], kinds: ['method'], name: 'create' });
    expect(plan.fusion.weights).toEqual({ semantic: 1, bm25: 3, graph: 1 });
    expect(plan.graphSignal).toEqual({ weight: 1, edges: ['CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'] });
    expect(plan.expand).toEqual({ depth: 2, edges: ['DECLARES', 'HAS_MEMBER', 'CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'], direction: 'both', maxNodes: 50 });
    expect(plan.sourceChars).toBeNull();
  });
});

describe('SearchInput validation', () => {
  const errors = async (input: object) =>
    (await validate(plainToInstance(SearchInput, input))).flatMap((e) => [
      ...Object.values(e.constraints ?? {}),
      ...(e.children ?? []).flatMap((c) => Object.values(c.constraints ?? {})),
    ]);

  it('accepts a plain query and injection-looking free text', async () => {
    expect(await errors({ text: 'create invoice' })).toEqual([]);
    expect(await errors({ text: "' }) MATCH (n) DETACH DELETE n //", name: '$x', pathContains: '`' })).toEqual([]);
  });

  it.each<[string, object, RegExp]>([
    ['empty text', { text: '' }, /text must not be empty/],
    // 1000 for a query is the plan's check (plan.spec.ts); the input admits an issue's length (LOCALIZE).
    ['text over 64000 characters', { text: 'x'.repeat(64_001) }, /shorter than or equal to 64000/],
    ['topK 201', { text: 'x', topK: 201 }, /topK must not be greater than 200/],
    ['a negative weight', { text: 'x', weights: { graph: -0.5 } }, /graph must not be less than 0/],
    ['a malformed glob', { text: 'x', pathGlob: '{a,b' }, /pathGlob: invalid glob "\{a,b": unclosed "\{" at position 1/],
    ['an unknown kind', { text: 'x', kind: 'Method' }, /kind must be one of/],
    ['depth 0', { text: 'x', expand: { depth: 0 } }, /depth must not be less than 1/],
    ['keywordWeight 2', { text: 'x', keywordWeight: 2 }, /keywordWeight must not be greater than 1/],
  ])('refuses %s', async (_label, input, message) => {
    expect((await errors(input)).join('; ')).toMatch(message);
  });
});
