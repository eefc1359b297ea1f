import { countJoinedTokens, countTokens, truncateToTokens } from './tokenizer';

describe('token budget tokenizer', () => {
  // o200k_base's own counts (not characters / 3 or / 4); the Russian and Japanese rows also tell it from
  // cl100k_base, which counts them 15 and 10.
  it.each<[string, string, number]>([
    ['a common word', 'hello', 1],
    ['a camelCase identifier', 'createInvoiceFromRow', 4],
    ['400 repeated letters', 'a'.repeat(400), 50],
    ['a TypeScript function', 'export function add(a: number, b: number): number {\n  return a + b;\n}\n', 20],
    ['an English sentence', 'The invoice service validates the row, computes the tax and stores the invoice.', 15],
    ['a Russian sentence', 'Счёт-фактура сохранена в базе данных', 11],
    ['a Japanese sentence', '請求書を保存しました', 6],
  ])('counts o200k BPE tokens exactly: %s', (_, text, tokens) => {
    expect(countTokens(text)).toBe(tokens);
  });

  it('treats special-token strings in code as text instead of throwing', () => {
    const code = 'if (text.endsWith("<|endoftext|>")) stop();';
    expect(countTokens(code)).toBeGreaterThan(5);
    expect(truncateToTokens(code, 1000)).toBe(code);
  });

  it('cuts at a token boundary to fit the budget', () => {
    const text = 'The invoice service validates the row, computes the tax and stores the invoice.';
    const cut = truncateToTokens(text, 5);
    expect(countTokens(cut)).toBe(5);
    expect(text.startsWith(cut)).toBe(true);
  });
});

describe('countJoinedTokens', () => {
  // Real code cut into evidence-like entries at many places: the part-by-part count must be the
  // count of the joined text, exactly, whatever the entries end with (braces, letters, spaces, newlines).
  it('equals the count of the joined text for evidence entries', () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const path = require('node:path') as typeof import('node:path');
    const sources = ['../engine/actions.ts', '../protocol/prefix.ts', '../definition/pipeline-loader.ts'].map((f) => fs.readFileSync(path.join(__dirname, f), 'utf8'));
    const text = sources.join('\n') + ' trailing  spaces   \n\n\n\t ' + '<|endoftext|> 123456 émigré 中文 }\n/';
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 12; round++) {
      const parts: string[] = [];
      let at = 0;
      while (at < text.length) {
        const len = 1 + next(400);
        parts.push(`[repo:src/f${round}.ts#S${parts.length}|${['method', '1', 'x'][next(3)]}] function S (src/f.ts:1-2)\n${text.slice(at, at + len)}`);
        at += len;
      }
      expect(countJoinedTokens(parts, '\n\n')).toBe(countTokens(parts.join('\n\n')));
    }
  });
});
