import { countTokens, truncateToTokens } from './tokenizer';

describe('token budget tokenizer', () => {
  it('counts BPE tokens, not characters / 4', () => {
    // One o200k token for a common word, many for a long identifier of rare pieces.
    expect(countTokens('hello')).toBe(1);
    expect(countTokens('createInvoiceFromRow')).toBeGreaterThan(1);
    expect(countTokens('a'.repeat(400))).not.toBe(100);
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
