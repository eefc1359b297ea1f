import { PROMPT_VERSION } from '../prompt/prompt';
import { batchCacheKey, BatchCacheKeyInput } from './cache-key';

const base: BatchCacheKeyInput = {
  reranker: 'gemini',
  model: 'gemini-2.5-flash',
  strategy: 'pointwise',
  question: 'where are invoices parsed?',
  queryDescription: 'semantic "invoice parse"',
  withSuggestions: false,
  shuffleSeed: null,
  sourceChars: 1500,
  scopes: [
    { id: 'r:a.ts#a|function', contentHash: 'h1', fallbackHash: 'x' },
    { id: 'r:b.ts#b|function', contentHash: 'h2', fallbackHash: 'y' },
  ],
};

describe('batchCacheKey', () => {
  it('is stable for the same inputs, and a sha256 hex', () => {
    expect(batchCacheKey(base)).toBe(batchCacheKey({ ...base, scopes: base.scopes.map((s) => ({ ...s })) }));
    expect(batchCacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the prompt version (a new prompt is never answered from the old one\'s cache)', () => {
    let nextVersionKey = '';
    jest.isolateModules(() => {
      jest.doMock('../prompt/prompt', () => ({ PROMPT_VERSION: PROMPT_VERSION + 1 }));
      const { batchCacheKey: keyOfNextVersion } = require('./cache-key') as typeof import('./cache-key');
      nextVersionKey = keyOfNextVersion(base);
    });
    jest.dontMock('../prompt/prompt');
    expect(nextVersionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(nextVersionKey).not.toBe(batchCacheKey(base));
  });

  it.each<[string, Partial<BatchCacheKeyInput>]>([
    ['question', { question: 'where are invoices written?' }],
    ['model', { model: 'gemini-2.5-pro' }],
    ['strategy', { strategy: 'listwise' }],
    ['provider', { reranker: 'openai' }],
    ['query description', { queryDescription: 'bm25 "invoice"' }],
    ['feedback asked', { withSuggestions: true }],
    ['shuffle seed', { shuffleSeed: 7 }],
    ['source shown', { sourceChars: 500 }],
    ['a content hash (the scope was edited)', { scopes: [base.scopes[0], { ...base.scopes[1], contentHash: 'h2-edited' }] }],
    ['a scope id', { scopes: [base.scopes[0], { ...base.scopes[1], id: 'r:c.ts#c|function' }] }],
    ['the order of scopes', { scopes: [base.scopes[1], base.scopes[0]] }],
  ])('changes with the %s', (_, change) => {
    expect(batchCacheKey({ ...base, ...change })).not.toBe(batchCacheKey(base));
  });

  it('uses the local fingerprint only when the graph has no content hash', () => {
    const noHash = { ...base, scopes: base.scopes.map((s) => ({ ...s, contentHash: null })) };
    expect(batchCacheKey({ ...noHash, scopes: noHash.scopes.map((s) => ({ ...s, fallbackHash: 'other' })) })).not.toBe(batchCacheKey(noHash));
    expect(batchCacheKey({ ...base, scopes: base.scopes.map((s) => ({ ...s, fallbackHash: 'other' })) })).toBe(batchCacheKey(base));
  });
});
