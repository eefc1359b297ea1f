import type { KeywordDoc } from './keyword-blend';
import { rescore, rescoreTerms } from './rescore';

const doc = (id: string, name: string, source: string, docComment: string | null = null): KeywordDoc => ({ id, name, qualifiedName: name, signature: null, docComment, source });
const params = { depth: 30, keywordWeight: 0.5, phraseBonus: 1, nameBonus: 0.3 };

describe('rescore', () => {
  const docs = new Map(
    [
      doc('a', 'reportError', 'function reportError(e) { log(e); }'),
      doc('b', 'assertExtensible', 'if (!isExtensible(o)) throw new Error("Cannot make the designated object observable; it is not extensible")'),
      doc('c', 'makeObservable', 'export function makeObservable(target) { return target; }'),
    ].map((d) => [d.id, d]),
  );
  const fused = [
    { id: 'a', score: 0.05 },
    { id: 'c', score: 0.04 },
    { id: 'b', score: 0.01 },
    { id: 'z', score: 0.005 }, // not fetched: keeps its place after the rescored head
  ];

  it('puts the scope holding a pasted message word for word first', () => {
    const out = rescore(fused, docs, 'Error: [MobX] Cannot make the designated object observable; it is not extensible', params);
    expect(out[0].id).toBe('b');
    expect(out[3].id).toBe('z');
    expect(out[0].rescore.phrase).toBe(1);
    expect(out[3].score).toBeLessThan(out[2].score);
  });

  it('matches a pasted dotted word (a file or type name) as the words bodies are split into', () => {
    const loaders = new Map(
      [
        doc('init', 'Initialize', 'throw new Exception("Failed to initialize the loader")'),
        doc('load', 'load', 'raise RuntimeError("Failed to initialize Python.Runtime.dll") from exc'),
      ].map((d) => [d.id, d]),
    );
    const out = rescore([{ id: 'init', score: 0.05 }, { id: 'load', score: 0.04 }], loaders, 'RuntimeError: Failed to initialize Python.Runtime.dll', params);
    expect(out[0].id).toBe('load');
    expect(out[0].rescore.phrase).toBeGreaterThan(out[1].rescore.phrase);
  });

  it('gives the phrase bonus to the innermost scope holding the message, not to its containers', () => {
    const nested = new Map(
      [
        { ...doc('file', 'writer.cc', 'namespace io { void Writer::write_data() { MARISA_THROW_IF(::fflush(file_) != 0, MARISA_IO_ERROR); } }'), parentId: null },
        { ...doc('ns', 'io', '{ void Writer::write_data() { MARISA_THROW_IF(::fflush(file_) != 0, MARISA_IO_ERROR); } }'), parentId: 'file' },
        { ...doc('m', 'Writer.write_data', 'void Writer::write_data() { MARISA_THROW_IF(::fflush(file_) != 0, MARISA_IO_ERROR); }'), parentId: 'ns' },
      ].map((d) => [d.id, d]),
    );
    const out = rescore([{ id: 'file', score: 0.05 }, { id: 'ns', score: 0.045 }, { id: 'm', score: 0.03 }], nested, 'writer.cc:135: MARISA_IO_ERROR: ::fflush(file_) != 0', params);
    expect(Object.fromEntries(out.map((o) => [o.id, o.rescore.phrase > 0]))).toEqual({ m: true, ns: false, file: false });
    expect(out[0].id).toBe('m');
  });

  it('rewards a name the query mentions', () => {
    const out = rescore(fused, docs, 'how does makeObservable decorate the target', params);
    expect(out[0].id).toBe('c');
    expect(out[0].rescore.name).toBe(0.3);
  });

  it('keeps the fused order when the candidates hold no evidence', () => {
    const out = rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0.5 });
    expect(out.map((o) => o.id)).toEqual(['a', 'c', 'b', 'z']);
  });

  it('reads a candidate again when its text changed, whatever its id (candidates are remembered by text)', () => {
    const query = 'Cannot make the designated object observable; it is not extensible';
    const before = rescore(fused, docs, query, params);
    const edited = new Map(docs).set('b', doc('b', 'assertExtensible', 'if (!isExtensible(o)) throw new TypeError("frozen")'));
    const after = rescore(fused, edited, query, params);
    expect(before[0]).toMatchObject({ id: 'b', rescore: { phrase: 1 } });
    expect(after.find((o) => o.id === 'b')!.rescore.phrase).toBe(0);
    // And once more from the remembered texts: the same answer as the first time.
    expect(rescore(fused, docs, query, params)).toEqual(before);
  });

  it('leaves stop words out of the terms', () => {
    expect(rescoreTerms('the parseFile of a repo')).toEqual(['parsefile', 'parse', 'file', 'repo']);
  });
});

describe('rescore with stems', () => {
  it('matches a question word with the same word in another form (converted / convert, listeners / listener)', () => {
    expect(rescoreTerms('notify the registered listeners', true)).toEqual(['notifi', 'regist', 'listen']);
    const docs = new Map(
      [doc('a', 'render', 'function render(view) { draw(view); }'), doc('b', 'notifyListener', 'function notifyListener(listener, change) { listener(change); }')].map((d) => [d.id, d]),
    );
    const fused = [
      { id: 'a', score: 0.05 },
      { id: 'b', score: 0.04 },
    ];
    const question = 'notifies every registered listeners';
    expect(rescore(fused, docs, question, { ...params, stemming: false })[0].id).toBe('a');
    expect(rescore(fused, docs, question, { ...params, stemming: true })[0].id).toBe('b');
  });
});

/** Candidates in fused order, each scored a little below the one before (close enough for a bonus to reorder them). */
function head(...candidates: KeywordDoc[]) {
  return { docs: new Map(candidates.map((d) => [d.id, d])), fused: candidates.map((d, i) => ({ id: d.id, score: 0.06 - i * 0.001 })) };
}

describe('rescore: container evidence', () => {
  const member = (id: string, name: string, parentId: string | null): KeywordDoc => ({ ...doc(id, name, 'return x;'), parentId });
  const { docs, fused } = head(member('loose', 'confirm', 'other-file'), member('orphan', 'Other.method', 'not-a-candidate'), member('cls', 'BoolParamType', 'file'), member('m', 'BoolParamType.str_to_bool', 'cls'));

  it('lifts a candidate whose class is a candidate too, and only that one', () => {
    const out = rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0, containerBonus: 0.15 });
    expect(out[0].id).toBe('m');
    expect(out[0].rescore.container).toBe(0.15);
    expect(out.filter((o) => o.rescore.container > 0).map((o) => o.id)).toEqual(['m']);
    // The rest keep the fused order.
    expect(out.slice(1).map((o) => o.id)).toEqual(['loose', 'orphan', 'cls']);
  });

  it('is off without the setting, and when the container fell outside the re-ordered head', () => {
    expect(rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0 }).map((o) => o.id)).toEqual(['loose', 'orphan', 'cls', 'm']);
    const shallow = rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0, containerBonus: 0.15, depth: 3 });
    expect(shallow.find((o) => o.id === 'm')!.rescore.container).toBe(0);
  });
});

describe('rescore: link evidence', () => {
  const scope = (id: string, linked: string[]): KeywordDoc => ({ ...doc(id, id, 'return x;'), linked });
  // `helper` calls `caller` (both candidates); `far` calls something outside the head.
  const { docs, fused } = head(scope('lone', []), scope('far', ['not-a-candidate']), scope('helper', ['caller']), scope('caller', ['helper']));

  it('lifts candidates with a code edge between them, and not one linked only outside the head', () => {
    const out = rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0, linkBonus: 0.1 });
    expect(out.map((o) => o.id)).toEqual(['helper', 'caller', 'lone', 'far']);
    expect(out.filter((o) => o.rescore.link > 0).map((o) => o.id)).toEqual(['helper', 'caller']);
  });

  it('is off without the setting', () => {
    expect(rescore(fused, docs, 'zzz qqq', { ...params, keywordWeight: 0 }).map((o) => o.id)).toEqual(['lone', 'far', 'helper', 'caller']);
  });
});

describe('rescore: a name made of the question words', () => {
  // A one-line helper whose doc comment repeats the question's words, and the function named by them.
  const helper = doc('wrap', 'wrap', 'function wrap(config: LoadedConfig): LoadedConfig { return { ...config, disk: null }; }', 'What the cache keeps of a loaded config read from disk.');
  const loader = doc('load', 'ConfigService.loadConfig', 'loadConfig(path: string): LoadedConfig { const text = fs.readFileSync(path, "utf8"); return parse(text); }', 'Load one config file.');
  const single = doc('config', 'config', 'const config = (c) => c;');
  const docs = new Map([helper, loader, single].map((d) => [d.id, { ...d, name: d.qualifiedName.split('.').pop()! }]));
  const fused = [
    { id: 'wrap', score: 0.2 },
    { id: 'config', score: 0.15 },
    { id: 'load', score: 0.1 },
  ];
  const on = { depth: 30, keywordWeight: 0.3, phraseBonus: 1, nameBonus: 0, stemming: true, nameWordsBonus: 0.2 };

  it('lifts a candidate whose name has two or more words, each a word of the question (stems compared)', () => {
    const out = rescore(fused, docs, 'loading the configs from disk', on);
    const byId = new Map(out.map((o) => [o.id, o]));
    expect(byId.get('load')!.rescore.nameWords).toBe(0.2);
    // One word is not a name made of the question's words: "config" is just a word of it.
    expect(byId.get('config')!.rescore.nameWords).toBe(0);
    expect(byId.get('wrap')!.rescore.nameWords).toBe(0);
  });

  it('needs every word of the name in the question, and is off without the setting', () => {
    expect(rescore(fused, docs, 'load the settings from disk', on).find((o) => o.id === 'load')!.rescore.nameWords).toBe(0);
    expect(rescore(fused, docs, 'load the config from disk', { ...on, nameWordsBonus: 0 }).find((o) => o.id === 'load')!.rescore.nameWords).toBe(0);
  });
});

describe('rescore: short candidates in the pool BM25', () => {
  // A one-line scope holding the query's words beside a long one holding them as often.
  const long = `${'const other = compute(value);\n'.repeat(40)}load the config from disk`;
  const docs = new Map(
    [doc('tiny', 'tiny', 'load config disk'), doc('long', 'long', long), doc('pad', 'pad', 'unrelated words only here')].map((d) => [d.id, d]),
  );
  const fused = [
    { id: 'pad', score: 0.3 },
    { id: 'tiny', score: 0.2 },
    { id: 'long', score: 0.2 },
  ];
  const base = { depth: 30, keywordWeight: 1, phraseBonus: 0, nameBonus: 0, stemming: true };
  const keyword = (shortAsAverage: boolean) => new Map(rescore(fused, docs, 'load the config from disk', { ...base, shortAsAverage }).map((o) => [o.id, o.rescore.keyword]));

  it('scores a candidate shorter than the pool average as an average one, so being tiny earns nothing', () => {
    const plain = keyword(false);
    const floored = keyword(true);
    // Without the rule the tiny scope leads by its length alone; with it, it stays the best match but its lead over the long one shrinks.
    expect(plain.get('tiny')! / plain.get('long')!).toBeGreaterThan(floored.get('tiny')! / floored.get('long')!);
    expect(floored.get('tiny')).toBe(1);
  });
});
