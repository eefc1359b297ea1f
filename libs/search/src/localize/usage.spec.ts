import { extractSignals } from './signals';
import { USAGE_TERMS, usageQuery, usageTerms } from './usage';

describe('LOCALIZE usage: names the issue spells, searched in bodies', () => {
  it('keeps snake_case and camelCase identifiers (a URL’s query parameters too), not plain words or dotted paths', () => {
    const signals = extractSignals('Ring color cannot be changed\nhttps://example.test/api/?username=x&title_color=fff&bg_color=000 and `langs_count`; see Session.mergeSettings and the readme');
    const terms = usageTerms(signals);
    expect(terms).toEqual(expect.arrayContaining(['title_color', 'bg_color', 'langs_count', 'mergeSettings']));
    expect(terms).not.toContain('username');
    expect(terms).not.toContain('readme');
    expect(terms.every((t) => !t.includes('.'))).toBe(true);
  });

  it('is bounded and escapes every term for Lucene', () => {
    expect(usageTerms({ identifiers: Array.from({ length: 40 }, (_, i) => `name_${i}x`) })).toHaveLength(USAGE_TERMS);
    expect(usageQuery(['a_b', 'x-y_z'])).toBe('source:("a_b" "x\\-y_z")');
    expect(usageQuery([])).toBe('');
  });
});
