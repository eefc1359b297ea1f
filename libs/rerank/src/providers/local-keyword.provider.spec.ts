import { keywordTokens, LocalKeywordProvider } from './local-keyword.provider';

describe('keywordTokens', () => {
  it('splits identifiers, drops stop words, folds plurals', () => {
    expect(keywordTokens('How does parseFileAnalysis handle XMLHttpRequest and snake_case_names?')).toEqual([
      'parse',
      'file',
      'analysis',
      'handle',
      'xml',
      'http',
      'request',
      'snake',
      'case',
      'name',
    ]);
    expect(keywordTokens('invoices')).toEqual(keywordTokens('invoice'));
  });
});

describe('LocalKeywordProvider', () => {
  const scopes = [
    { id: 'a', name: 'formatDate', kind: 'function', path: 'src/utils/format.ts', signature: 'formatDate(d: Date): string', source: 'return d.toISOString();' },
    { id: 'b', name: 'InvoiceParser', kind: 'class', path: 'src/billing/invoice-parser.ts', signature: 'class InvoiceParser', source: 'parse(text) { return lines.map(parseLine); }' },
    { id: 'c', name: 'parseLine', kind: 'function', path: 'src/billing/lines.ts', signature: 'parseLine(line: string): InvoiceLine', source: 'const [qty, price] = line.split(",");' },
    { id: 'd', name: 'sendEmail', kind: 'function', path: 'src/mail.ts', signature: null, source: null },
  ];

  it('scores by overlap with name, signature, path and source, normalised by the best; no reasoning', async () => {
    const provider = new LocalKeywordProvider();
    const { scores, feedback } = await provider.scoreBatch({
      question: 'Where are invoices parsed?',
      queryDescription: null,
      strategy: 'pointwise',
      withSuggestions: true,
      scopes,
      sourceChars: 1_000,
      shuffleSeed: null,
      batch: 0,
    });
    expect(scores.b.llm).toBe(1);
    expect(scores.c.llm!).toBeGreaterThan(0);
    expect(scores.c.llm!).toBeLessThan(1);
    expect(scores.a.llm).toBe(0);
    expect(scores.d.llm).toBe(0);
    expect(Object.values(scores).every((s) => s.reasoning === null)).toBe(true);
    expect(feedback).toBeNull();
    expect(provider).toMatchObject({ name: 'local-keyword', kind: 'local', feedback: false });
  });

  it('gives everyone 0 (not NaN) when nothing overlaps', () => {
    const scores = new LocalKeywordProvider().score('zebra migration', scopes, 100);
    expect(Object.values(scores).map((s) => s.llm)).toEqual([0, 0, 0, 0]);
  });
});
