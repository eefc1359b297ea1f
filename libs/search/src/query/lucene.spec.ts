import { lexClassicQuery } from '../testing/lucene-lexer';
import { buildLuceneQuery, escapeLuceneTerm, estimatedTokens, fieldBoostedQuery, MAX_QUERY_TOKENS, MAX_REPOSITORY_CLAUSES, phraseClause, queryPhrases, withinRepositories } from './lucene';

describe('escapeLuceneTerm', () => {
  it.each([
    ['foo.bar()', 'foo.bar\\(\\)'],
    ['a&&b', 'a\\&\\&b'],
    ['a||b', 'a\\|\\|b'],
    ['Map<K,', 'Map<K,'],
    ['"unterminated', '\\"unterminated'],
    ['\\', '\\\\'],
    ['/', '\\/'],
    ['/regex/', '\\/regex\\/'],
    ['title:foo', 'title\\:foo'],
    ['foo~2', 'foo\\~2'],
    ['boost^3', 'boost\\^3'],
    ['[a', '\\[a'],
    ['b]', 'b\\]'],
    ['{x}', '\\{x\\}'],
    ['wild*', 'wild\\*'],
    ['?ne', '\\?ne'],
    ['-x', '\\-x'],
    ['+x', '\\+x'],
    ['!x', '\\!x'],
    ['a\u0000b\u0007', 'ab'],
    ['naïve', 'naïve'],
  ])('%j -> %j', (input, expected) => {
    expect(escapeLuceneTerm(input)).toBe(expected);
  });

  it.each(['AND', 'OR', 'NOT', 'TO'])('escapes the operator word %s so it is a term', (word) => {
    const escaped = escapeLuceneTerm(word);
    expect(escaped).toBe(`\\${word}`);
    expect(lexClassicQuery(escaped)).toEqual({ terms: [word], problems: [] });
  });

  it('leaves lower-case and mixed-case operator look-alikes alone (the parser only knows upper case)', () => {
    expect(escapeLuceneTerm('and')).toBe('and');
    expect(escapeLuceneTerm('Not')).toBe('Not');
  });

  it('escapes whitespace that might reach it, so a term stays one term', () => {
    expect(lexClassicQuery(escapeLuceneTerm('a b\u3000d')).terms).toEqual(['a b\u3000d']);
    // Tab, newline and other control characters are dropped rather than escaped.
    expect(escapeLuceneTerm('a\tb\nc')).toBe('abc');
  });
});

describe('buildLuceneQuery', () => {
  const safe = (text: string) => {
    const q = buildLuceneQuery(text);
    const lexed = lexClassicQuery(q.query);
    expect(lexed.problems).toEqual([]);
    expect(lexed.terms).toEqual(q.terms);
    return q;
  };

  it.each([
    'foo.bar()',
    'a && b',
    'a || b',
    'Map<K, V>',
    '"unterminated',
    '\\',
    '/',
    'x AND y OR NOT z',
    'title:(foo OR bar)^2 ~ -baz +qux',
    '[1 TO 5] {a TO b}',
    "' }) MATCH (n) DETACH DELETE n //",
    '$x `backtick` ${y}',
    '*:*',
    '?',
    '\\"\\\\',
    '((((',
    ')))',
    '!!!',
    'emoji 🎉 and 中文查询 text',
  ])('%j becomes a flat list of escaped terms', (text) => {
    safe(text);
  });

  it('splits identifiers like the index does and keeps the whole word too', () => {
    const q = safe('parseFileAnalysis');
    expect(q.terms).toEqual(['parsefileanalysis', 'parse', 'file', 'analysis']);
    expect(q.query).toBe('parsefileanalysis parse file analysis');
  });

  it('drops English stop words (AND / OR / NOT included), unless nothing else is left', () => {
    expect(safe('cats AND dogs OR NOT birds').terms).toEqual(['cats', 'dogs', 'birds']);
    expect(safe('AND OR NOT').terms).toEqual(['and', 'or', 'not']);
  });

  it('boosts names over bodies with structure from constants only', () => {
    const flat = safe('parseFile(x)').query;
    expect(fieldBoostedQuery(flat)).toBe(
      `nameTokens:(${flat})^3 OR name:(${flat})^3 OR signature:(${flat})^1.5 OR docComment:(${flat})^1.5 OR source:(${flat})`,
    );
    expect(fieldBoostedQuery('')).toBe('');
  });

  it('keeps punctuation inside a word escaped, and adds its sub-tokens', () => {
    const q = safe('foo.bar()');
    expect(q.terms).toEqual(['foo.bar()', 'foo', 'bar']);
    expect(q.query).toBe('foo.bar\\(\\) foo bar');
  });

  it('gives a pasted fully qualified name the sub-tokens of its type, not of its package path', () => {
    expect(safe('org.apache.commons.cli.UnrecognizedOptionException: Default option').terms).toEqual([
      'org.apache.commons.cli.unrecognizedoptionexception:',
      'unrecognized',
      'option',
      'exception',
      'default',
    ]);
  });

  it('de-duplicates terms', () => {
    expect(safe('invoice Invoice INVOICE invoiceService').terms).toEqual(['invoice', 'invoiceservice', 'service']);
  });

  it('returns an empty query for text with nothing searchable', () => {
    for (const text of ['&&', '"', '\\', '/', '()', '   ', '--- !!! ???']) {
      expect(buildLuceneQuery(text).query).toBe('');
    }
  });

  it('keeps the query within the clause budget, however long or dense the text', () => {
    const dense = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const q = safe(dense);
    expect(q.terms.reduce((n, t) => n + estimatedTokens(t), 0)).toBeLessThanOrEqual(MAX_QUERY_TOKENS);
    expect(q.dropped).toBeGreaterThan(0);
    const cjk = safe('查'.repeat(1000));
    expect(cjk.terms.reduce((n, t) => n + estimatedTokens(t), 0)).toBeLessThanOrEqual(MAX_QUERY_TOKENS);
    const hyphens = safe('a-'.repeat(500));
    expect(hyphens.terms.reduce((n, t) => n + estimatedTokens(t), 0)).toBeLessThanOrEqual(MAX_QUERY_TOKENS);
  });

  it('is safe for random strings of special characters, letters and whitespace', () => {
    // Deterministic pseudo-random generator so a failure can be reproduced.
    let seed = 42;
    const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = [...'+-&|!(){}[]^"~*?:\\/ \t\n\u3000aAzZ09_.,;<>=$`\'#@%', 'AND', 'OR', 'NOT', 'TO', '\u0000', 'é', '中'];
    for (let n = 0; n < 2000; n++) {
      const length = 1 + Math.floor(next() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      safe(text);
    }
  });
});

describe('estimatedTokens', () => {
  it('counts letter/digit runs and single ideographs', () => {
    expect(estimatedTokens('invoice')).toBe(1);
    expect(estimatedTokens('foo.bar()')).toBe(2);
    expect(estimatedTokens('&&')).toBe(0);
    expect(estimatedTokens('中文')).toBe(3);
  });
});

describe('phrases', () => {
  it('takes quoted stretches, message fragments between punctuation, and the whole text', () => {
    expect(queryPhrases('Error: [MobX] Cannot make the designated object observable; it is not extensible')).toEqual([
      ['Cannot', 'make', 'the', 'designated', 'object', 'observable'],
      ['it', 'is', 'not', 'extensible'],
      ['Error', 'MobX', 'Cannot', 'make', 'the', 'designated', 'object', 'observable', 'it', 'is', 'not', 'extensible'],
      ['MobX', 'Cannot', 'make', 'the', 'designated', 'object', 'observable', 'it', 'is', 'not', 'extensible'],
      ['make', 'the', 'designated', 'object', 'observable'],
      ['Cannot', 'make', 'the', 'designated', 'object'],
      ['is', 'not', 'extensible'],
      ['it', 'is', 'not'],
    ]);
    expect(queryPhrases('"Third argument of reactions should be an object"')[0]).toEqual(['Third', 'argument', 'of', 'reactions', 'should', 'be', 'an', 'object']);
    expect(queryPhrases("the 'no such option' message when it's missing")[0]).toEqual(['no', 'such', 'option']);
  });

  it('also takes a segment without the value a format string put at either end', () => {
    expect(queryPhrases('lz4: backup is a directory -- ignored')).toContainEqual(['is', 'a', 'directory', 'ignored']);
    expect(queryPhrases('Unable to find file: settings')).toContainEqual(['Unable', 'to', 'find', 'file', 'settings']);
    expect(queryPhrases('The file config/routes.rb does not appear to exist (Thor::Error)')).toContainEqual(['does', 'not', 'appear', 'to', 'exist']);
    expect(queryPhrases('lib/marisa/grimoire/io/writer.cc:135: MARISA_IO_ERROR: ::fflush(file_) != 0')).toContainEqual(['fflush(file_', '0']);
    expect(queryPhrases('mapper.cc:144: MARISA_IO_ERROR: origin_ == MAP_FAILED')).toContainEqual(['origin_', 'MAP_FAILED']);
    expect(queryPhrases('range end index 12 out of range for slice of length 8')).toEqual(
      expect.arrayContaining([
        ['range', 'end', 'index'],
        ['out', 'of', 'range', 'for', 'slice', 'of', 'length'],
      ]),
    );
  });

  it('has none for a word or two', () => {
    expect(queryPhrases('parseFile')).toEqual([]);
    expect(queryPhrases('invoice total')).toEqual([]);
  });

  it('escapes every word inside the quotes, so nothing typed can close the phrase or add syntax', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = [...'+-&|!(){}[]^"~*?:\\/ \taAzZ09_.,;<>=$`\'#@%“”', 'AND', 'OR', 'x y z'];
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = 1 + Math.floor(next() * 60);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      for (const words of queryPhrases(text)) {
        const clause = phraseClause(words);
        const inner = clause.slice(1, -1);
        // Inside, every quote and backslash is escaped: the phrase cannot end early.
        expect(inner.replace(/\\./g, '')).not.toMatch(/["\\]/);
        expect(lexClassicQuery(inner.split(' ').join(' ')).problems).toEqual([]);
      }
      const q = buildLuceneQuery(text);
      const full = fieldBoostedQuery(q.query, q.phrases);
      if (q.query === '') expect(full).toBe('');
    }
  });

  it('adds phrase groups on bodies after the boosted terms', () => {
    const q = buildLuceneQuery('"cannot read the config file"');
    expect(fieldBoostedQuery(q.query, q.phrases)).toContain(' OR source:("cannot read the config file")^4 OR docComment:("cannot read the config file")^2');
  });
});

describe('withinRepositories', () => {
  it('requires one of the repositories with boost 0, and the query itself', () => {
    expect(withinRepositories('name:(parse)^3 OR source:(parse)', ['repo-a', 'b'])).toBe(
      '+(repoId:"repo\\-a" repoId:"b")^0 +(name:(parse)^3 OR source:(parse))',
    );
  });

  it('keeps an id whatever it holds inside its own quoted phrase', () => {
    const id = 'x") OR source:(*) ("';
    const clause = withinRepositories('source:(q)', [id]).match(/^\+\(repoId:"(.*)"\)\^0 \+\(source:\(q\)\)$/);
    expect(clause).not.toBeNull();
    // Every quote, parenthesis, colon and star of the id is escaped: the phrase cannot be closed early.
    expect(lexClassicQuery(clause![1]).problems).toEqual([]);
  });

  it('leaves the query alone with no repository, too many to list, or nothing to search', () => {
    expect(withinRepositories('source:(q)', [])).toBe('source:(q)');
    const many = Array.from({ length: MAX_REPOSITORY_CLAUSES + 1 }, (_, i) => `r${i}`);
    expect(withinRepositories('source:(q)', many)).toBe('source:(q)');
    expect(withinRepositories('', ['a'])).toBe('');
  });
});
