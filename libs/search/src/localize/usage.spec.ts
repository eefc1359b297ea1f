import { extractSignals } from './signals';
import { optionFlags, USAGE_FLAGS, USAGE_TERMS, usageQuery, usageTerms } from './usage';

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

  it('reads long options from prose and code, as spelled and as the field that holds them, before identifiers', () => {
    const signals = extractSignals('Add --min-depth option\nThere is `--max-depth` already; `fd --version` and --help print nothing useful, -uu is short.\n```\n$ fd --strip-cwd-prefix -e rs\n```\nsee `langs_count`');
    expect(optionFlags(signals)).toEqual(['min-depth', 'max-depth', 'strip-cwd-prefix']);
    const terms = usageTerms(signals);
    expect(terms.slice(0, 6)).toEqual(['min-depth', 'min_depth', 'max-depth', 'max_depth', 'strip-cwd-prefix', 'strip_cwd_prefix']);
    expect(terms).toContain('langs_count');
    expect(terms).not.toContain('version');
    expect(terms).not.toContain('uu');
    expect(usageQuery(['max-depth'])).toBe('source:("max\\-depth")');
  });

  it('keeps at most USAGE_FLAGS options, each once', () => {
    const text = Array.from({ length: 9 }, (_, i) => `--opt-${'abcdefghi'[i]}x --opt-ax`).join(' ');
    expect(optionFlags(extractSignals(`title\n${text}`))).toHaveLength(USAGE_FLAGS);
    expect(optionFlags(extractSignals('title\nplain words, a-b--c and x--yz'))).toEqual([]);
  });
});
