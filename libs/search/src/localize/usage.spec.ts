import { extractSignals } from './signals';
import { commandNames, derivedNames, DERIVED_NAME_STRENGTH, commandSpellings, optionFlags, testedNames, USAGE_COMMANDS, USAGE_FLAGS, USAGE_TERMS, usageQuery, usageTerms } from './usage';

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

  it('reads sub-commands of shell invocations and spells their handlers', () => {
    const signals = extractSignals('flask routes shows nothing\nRunning it:\n```\n$ flask routes\nEndpoint  Methods\n$ flask run-server --debug\n$ flask shell\n```\n');
    expect(commandNames(signals)).toEqual(['routes', 'run-server'].slice(0, USAGE_COMMANDS));
    expect(commandSpellings('run-server')).toEqual(['run_server_command', 'runServerCommand', 'cmd_run_server', 'run_server_cmd']);
    expect(derivedNames(signals).map((d) => d.name)).toEqual(expect.arrayContaining(['routes_command', 'cmd_routes', 'run_server_command']));
    expect(derivedNames(signals).every((d) => d.strength === DERIVED_NAME_STRENGTH)).toBe(true);
    expect(commandNames(extractSignals('title\nthe $ sign and > quotes are prose'))).toEqual([]);
  });

  it('reads what a named test tests, when it reads as code', () => {
    expect(testedNames('test_parse_header')).toEqual(['parse_header']);
    expect(testedNames('testMergeSettings')).toEqual(['mergeSettings']);
    expect(testedNames('TestParseHeader')).toEqual(['parseHeader']);
    expect(testedNames('HeaderParserTest.testReadValue')).toEqual(['HeaderParser', 'readValue']);
    expect(testedNames('test_parse')).toEqual([]);
    expect(testedNames('testing_mode')).toEqual([]);
    expect(testedNames('parse_header')).toEqual([]);
    const derived = derivedNames(extractSignals('TestParseHeader and test_merge_settings fail\nSee `test_merge_settings` in tests/test_headers.py'));
    expect(derived.map((d) => d.name)).toEqual(expect.arrayContaining(['merge_settings', 'parseHeader', 'ParseHeader']));
    expect(derived.find((d) => d.name === 'merge_settings')?.mention).toBe('test_merge_settings');
  });
});
