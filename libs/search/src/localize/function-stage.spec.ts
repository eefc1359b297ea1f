import { weightedTerms } from '../fusion/pool-bm25';
import { afterFusionExplain, CALLEE_SHARE, CALLER_SHARE, CONTRACT_SHARE, functionMatches, isContractMethod, issueTerms, queryTermFrequencies, STAGE_SHARE, type StageCandidate, stageTokens, withContractPartners, withFunctionMatches, withTopNeighbors } from './function-stage';
import { filePrior, isTestScope, TEST_FILE_FACTOR } from './priors';

const fn = (id: string, qualifiedName: string, source: string, fileIndex = 0): StageCandidate => ({ id, name: qualifiedName.split('.').pop()!, qualifiedName, fileIndex, source });

describe('LOCALIZE function stage: the best files’ functions read against the issue', () => {
  it('splits identifiers into their words, keeps them whole, stems, and drops code keywords', () => {
    const tokens = stageTokens('def register_hook(self, event, hook): return self.hooks[event]');
    expect(tokens).toEqual(expect.arrayContaining(['register_hook', 'regist', 'hook', 'event']));
    expect(tokens).not.toContain('def');
    expect(tokens).not.toContain('self');
    expect(tokens).not.toContain('return');
  });

  it('keeps the frequencies of the query’s terms only, and the whole length, as weightedTerms over stageTokens would', () => {
    const name = 'HookRegistry.register_hook';
    const body = 'def register_hook(self, event, hook):\n    """Registers hooks; a hook per event."""\n    self.hooks[event].append(hook)  # registering twice is allowed';
    const wanted = new Set(['hook', 'event', 'absent']);
    const full = weightedTerms([
      [stageTokens(name), 3],
      [stageTokens(body), 1],
    ]);
    const kept = queryTermFrequencies(wanted, [
      [name, 3],
      [body, 1],
    ]);
    expect(kept.length).toBe(full.length);
    expect([...kept.tf]).toEqual([...full.tf].filter(([t]) => wanted.has(t)));
    expect(kept.tf.get('hook')).toBeGreaterThan(3);
    // Remembered words give the same terms the second time.
    expect(stageTokens(body)).toEqual(stageTokens(body));
  });

  it('counts the title’s words twice', () => {
    const terms = issueTerms('Blueprint names with dots', 'Blueprint names with dots\nraise an error');
    expect(terms.filter((t) => t === 'blueprint')).toHaveLength(2);
    expect(terms.filter((t) => t === 'rais')).toHaveLength(1);
  });

  // A file whose every function says "blueprint": the issue's rarer words decide.
  const candidates = [
    fn('init', 'Blueprint.__init__', 'def __init__(self, name, import_name):\n    self.name = name\n    self.import_name = import_name'),
    fn('record', 'Blueprint.record', 'def record(self, func):\n    self.deferred_functions.append(func)'),
    fn('register', 'Blueprint.register', 'def register(self, app, options):\n    self.name_prefix = options.get("name_prefix")'),
    fn('other', 'Other.run', 'def run(self): pass', 1),
  ];
  const issue = 'Raise error when blueprint name contains a dot\nEvery dot in a blueprint name is significant; check the import_name too.';

  it('ranks a file’s functions by the issue’s rare words, name and body', () => {
    const matches = functionMatches('Raise error when blueprint name contains a dot', issue, candidates);
    const byId = new Map(matches.map((m) => [m.id, m]));
    expect(byId.get('init')!.score).toBeGreaterThan(byId.get('register')!.score);
    expect(byId.get('register')!.score).toBeGreaterThan(byId.get('record')!.score);
    expect(byId.get('other')!.score).toBe(0);
    expect(byId.get('init')!.terms).toContain('import_name');
  });

  it('adds a share of its file’s best score by the match, says so in the evidence, and lets new functions join', () => {
    const ranked = [
      { id: 'register', score: 1, evidence: [] },
      { id: 'other', score: 0.4, evidence: [] },
    ];
    const files = [
      { path: 'src/flask/blueprints.py', best: 1 },
      { path: 'src/flask/other.py', best: 0.4 },
    ];
    const out = withFunctionMatches(ranked, files, candidates, functionMatches('Raise error when blueprint name contains a dot', issue, candidates));
    const init = out.find((r) => r.id === 'init')!;
    // The best match of the file gains the whole share of the file's best score.
    expect(init.score).toBeCloseTo(STAGE_SHARE * 1);
    expect(init.evidence[0]).toMatchObject({ signal: 'function-match', rank: 1 });
    expect(init.evidence[0].detail).toContain('src/flask/blueprints.py');
    expect(out.findIndex((r) => r.id === 'init')).toBeLessThan(out.findIndex((r) => r.id === 'other'));
    // No match, no evidence and no score.
    expect(out.find((r) => r.id === 'other')!.evidence).toEqual([]);
    expect(out.find((r) => r.id === 'record')!.score).toBeLessThan(init.score);
  });
});

describe('LOCALIZE top neighbors: callees and callers of the best functions', () => {
  const seeds = [
    { id: 'render', score: 1, evidence: [] },
    { id: 'fetch', score: 0.8, evidence: [] },
  ];
  const ranked = [...seeds, { id: 'helper', score: 0.1, evidence: [] }];

  it('lends callees and callers a share of the seed’s score, once each, never to a seed', () => {
    const out = withTopNeighbors(ranked, seeds, [
      { seedIndex: 0, fromName: 'renderCard', id: 'wrapText', direction: 'out' },
      { seedIndex: 0, fromName: 'renderCard', id: 'api', direction: 'in' },
      { seedIndex: 0, fromName: 'renderCard', id: 'fetch', direction: 'out' },
      { seedIndex: 1, fromName: 'fetchStats', id: 'wrapText', direction: 'out' },
      { seedIndex: 1, fromName: 'fetchStats', id: 'helper', direction: 'out' },
    ]);
    const by = new Map(out.map((r) => [r.id, r]));
    expect(by.get('wrapText')!.score).toBeCloseTo(CALLEE_SHARE * 1);
    expect(by.get('wrapText')!.evidence).toEqual([expect.objectContaining({ signal: 'top-neighbor', edge: 'CALLS', from: 'renderCard', rank: 1 })]);
    expect(by.get('api')!.score).toBeCloseTo(CALLER_SHARE * 1);
    expect(by.get('fetch')!.score).toBe(0.8);
    expect(by.get('helper')!.score).toBeCloseTo(0.1 + CALLEE_SHARE * 0.8);
    expect(out.map((r) => r.id)).toEqual(['render', 'fetch', 'helper', 'wrapText', 'api']);
  });
});

describe('LOCALIZE test scopes inside source files', () => {
  it('knows Rust test modules, test_ functions and *Test classes, not library Test* classes', () => {
    for (const q of ['tests.is_within_less_than', 'test_parse', 'Parser.test_roundtrip', 'ParserTest.parses', 'size.tests.works']) expect(isTestScope(q)).toBe(true);
    for (const q of ['SizeFilter.is_within', 'TestResponse.json', 'contest.run', 'latest_version', 'Session.request']) expect(isTestScope(q)).toBe(false);
  });

  it('counts as a test file does, and says why', () => {
    const prior = filePrior('src/filter/size.rs', new Set(), 'tests.is_within_less_than');
    expect(prior.factor).toBe(TEST_FILE_FACTOR);
    expect(prior.reasons[0]).toContain('a test inside a source file');
    expect(filePrior('src/filter/size.rs', new Set(), 'SizeFilter.is_within').factor).toBe(1);
  });
});

describe('LOCALIZE explain of the stages after the fusion', () => {
  it('names every stage with the hits it touched and its rule', () => {
    const out = afterFusionExplain(
      [
        { evidence: [{ signal: 'prose' }, { signal: 'file-sibling' }, { signal: 'function-match' }] },
        { evidence: [{ signal: 'file-sibling' }, { signal: 'top-neighbor' }] },
        { evidence: [{ signal: 'file-prior' }] },
        { evidence: [{ signal: 'contract' }] },
      ],
      3,
      0.5,
    );
    expect(out.map((s) => [s.signal, s.hits])).toEqual([
      ['file-prior', 1],
      ['file-sibling', 2],
      ['function-match', 1],
      ['top-neighbor', 1],
      ['contract', 1],
    ]);
    expect(out[1].rule).toContain('3 best files');
    expect(out[0].rule).toContain(`x${TEST_FILE_FACTOR}`);
  });

describe('LOCALIZE contract partners: equality, hashing and ordering agree', () => {
  const rec = (id: string, qualifiedName: string) => ({ id, name: qualifiedName.split('.').pop()!, qualifiedName });
  const candidates = [
    rec('cmp', 'Version.compareTo'),
    rec('eq', 'Version.equals'),
    rec('hash', 'Version.hashCode'),
    rec('str', 'Version.toString'),
    rec('otherEq', 'TypeReference.equals'),
    rec('pyEq', 'Point.__eq__'),
    rec('freeEq', 'equals'),
  ];

  it('a best method of the contract lends its type’s other contract methods a share of its score', () => {
    const ranked = [
      { id: 'cmp', score: 1, evidence: [] },
      { id: 'str', score: 0.5, evidence: [] },
      { id: 'eq', score: 0.3, evidence: [] },
    ];
    const seeds = [{ ...ranked[0], ...rec('cmp', 'Version.compareTo') }];
    const out = withContractPartners(ranked, seeds, candidates);
    const by = new Map(out.map((r) => [r.id, r]));
    expect(CONTRACT_SHARE).toBe(0.3);
    expect(by.get('eq')!.score).toBeCloseTo(0.6, 6);
    // A partner no list found joins the ranking.
    expect(by.get('hash')!.score).toBeCloseTo(0.3, 6);
    expect(by.get('hash')!.evidence[0]).toMatchObject({ signal: 'contract', from: 'Version.compareTo', rank: 1 });
    // Not the seed itself, not a non-contract method, not another type's equals, not a free function.
    expect(by.get('cmp')!.score).toBe(1);
    expect(by.get('str')!.score).toBe(0.5);
    expect(by.has('otherEq')).toBe(false);
    expect(by.has('freeEq')).toBe(false);
    // equals, below toString before, now above it.
    expect(out.map((r) => r.id)).toEqual(['cmp', 'eq', 'str', 'hash']);
  });

  it('a best function outside the contract lends nothing', () => {
    const ranked = [{ id: 'str', score: 1, evidence: [] }];
    const out = withContractPartners(ranked, [{ ...ranked[0], ...rec('str', 'Version.toString') }], candidates);
    expect(out).toEqual(ranked);
  });

  it('knows the contract methods of Java, Python, Rust and C#', () => {
    for (const n of ['equals', 'hashCode', 'compareTo', '__eq__', '__hash__', '__lt__', 'eq', 'partial_cmp', 'GetHashCode']) expect(isContractMethod(n)).toBe(true);
    for (const n of ['toString', '__init__', 'equal', 'hash_value']) expect(isContractMethod(n)).toBe(false);
  });
});
});
