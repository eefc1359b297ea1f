import { languageForPath, ParserService } from './parser.service';

const parser = new ParserService();
beforeAll(() => parser.init());

const ids = (path: string, src: string) => parser.parseFile(path, src).scopes.map((s) => s.id);

describe('languageForPath', () => {
  it.each([
    ['a/b.ts', 'typescript'], ['a.mts', 'typescript'], ['a.cts', 'typescript'], ['a.d.ts', 'typescript'],
    ['a.tsx', 'tsx'], ['a.js', 'javascript'], ['a.mjs', 'javascript'], ['a.cjs', 'javascript'], ['a.jsx', 'javascript'],
    ['a.py', 'python'], ['A.CS', 'csharp'], ['db/x.sql', 'sql'], ['README.md', null], ['Makefile', null],
    ['.eslintrc', null], ['dir.ts/file', null],
  ])('%s -> %s', (path, lang) => {
    expect(languageForPath(path)).toBe(lang);
  });
});

describe('ParserService', () => {
  it('keeps ids stable when code is added above (ids never contain lines)', () => {
    const before = ids('src/a.ts', 'export function b() {}\nexport class C { m() {} }\n');
    const after = ids('src/a.ts', '// new\nexport function a() {}\n\nexport function b() {}\nexport class C { m() {} }\n');
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toContain('src/a.ts#a|function');
  });

  it('gives overloads distinct ids ordered by signature, not by position', () => {
    const v1 = 'class K {\n  void Run(int a) {}\n  void Run(string s) {}\n}';
    const v2 = 'class K {\n  void Run(string s) {}\n\n  void Run(int a) {}\n}';
    const a = parser.parseFile('K.cs', v1).scopes.filter((s) => s.name === 'Run').map((s) => [s.signature, s.id]);
    const b = parser.parseFile('K.cs', v2).scopes.filter((s) => s.name === 'Run').map((s) => [s.signature, s.id]);
    expect(new Set(a.map((x) => x[1])).size).toBe(2);
    expect(Object.fromEntries(b)).toEqual(Object.fromEntries(a));
    expect(Object.fromEntries(a)).toEqual({
      'void Run(int a)': 'K.cs#K.Run|method',
      'void Run(string s)': 'K.cs#K.Run|method~1',
    });
  });

  it('changes only the edited scope\'s contentHash', () => {
    const a = parser.parseFile('m.py', 'def f():\n    return 1\n\ndef g():\n    return 2\n');
    const b = parser.parseFile('m.py', 'def f():\n    return 1\n\ndef g():\n    return 3\n');
    const hash = (f: typeof a, id: string) => f.scopes.find((s) => s.id === id)!.contentHash;
    expect(hash(a, 'm.py#f|function')).toBe(hash(b, 'm.py#f|function'));
    expect(hash(a, 'm.py#g|function')).not.toBe(hash(b, 'm.py#g|function'));
    expect(a.contentHash).not.toBe(b.contentHash);
  });

  it('reports syntax errors without throwing and keeps what it could parse', () => {
    const f = parser.parseFile('broken.ts', 'export function ok() {}\nclass {{{ = ;\nfunction alsoOk() { return 1 }');
    expect(f.errors.length).toBeGreaterThan(0);
    expect(f.errors[0]).toMatch(/line \d+/);
    expect(f.scopes[0].kind).toBe('file');
    expect(f.scopes.map((s) => s.name)).toContain('ok');
  });

  it('reports no error for valid TypeScript the grammar rejects, and the compiler\'s own error for invalid code', () => {
    // tree-sitter's grammar errs on both (a type query through import(), a bare `&` in JSX text); TypeScript accepts them.
    const ts = parser.parseFile('w.ts', "export function list(): void {\n  let entries: import('node:fs').Dirent[];\n  entries = [];\n}\n");
    const tsx = parser.parseFile('p.tsx', 'export function Link() {\n  return <a href="#">Open scope & graph</a>;\n}\n');
    expect([ts.errors, tsx.errors]).toEqual([[], []]);
    expect(ts.scopes.map((s) => s.id)).toEqual(['w.ts#w.ts|file', 'w.ts#list|function']);
    expect(tsx.scopes.map((s) => s.id)).toEqual(['p.tsx#p.tsx|file', 'p.tsx#Link|function']);
    const broken = parser.parseFile('b.ts', 'export function f( {\n');
    expect(broken.errors).toEqual([expect.stringMatching(/^syntax error at line \d+, column \d+: .+ expected\.$/)]);
  });

  it('survives binary-ish and empty content', () => {
    expect(parser.parseFile('e.py', '').scopes.map((s) => s.id)).toEqual(['e.py#e.py|file']);
    const junk = parser.parseFile('j.cs', '\u0000\u0001\u0002 class { ] } \uFFFD\uFFFD');
    expect(junk.scopes[0].kind).toBe('file');
  });

  it('normalises paths, strips a BOM and reports the file hash', () => {
    const f = parser.parseFile('.\\src\\win\\x.ts', '\uFEFFexport const y = () => 1;');
    expect(f.path).toBe('src/win/x.ts');
    expect(f.scopes.map((s) => s.id)).toEqual(['src/win/x.ts#src/win/x.ts|file', 'src/win/x.ts#y|function']);
    expect(f.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('caps huge files to the file scope', () => {
    const small = new ParserService({ languages: ['sql'], maxContentLength: 10 });
    const f = small.parseFile('big.sql', 'CREATE TABLE t (id int)');
    expect(f.scopes).toHaveLength(1);
    expect(f.errors[0]).toMatch(/too large/);
  });

  it('throws for unsupported paths and when init() was not awaited', async () => {
    expect(() => parser.parseFile('README.md', '# hi')).toThrow(/Unsupported/);
    const fresh = new ParserService({ languages: ['python'] });
    expect(() => fresh.parseFile('a.py', 'x = 1')).toThrow(/init/);
    await fresh.init();
    expect(fresh.parseFile('a.py', 'x = 1').scopes).toHaveLength(1);
  });
});

describe('ParserService grammars', () => {
  it('loads a grammar only when the first file of its language is parsed', async () => {
    const lazy = new ParserService();
    await lazy.init();
    expect(lazy.loadedGrammars).toEqual([]);
    lazy.parseFile('db/t.sql', 'CREATE TABLE t (id int);'); // SQL has no grammar
    lazy.parseFile('a/a.go', 'package a\n');
    const f = lazy.parseFile('a/b.go', 'package a\n\nfunc F() {}\n');
    expect(f.scopes.map((s) => s.id)).toEqual(['a/b.go#a/b.go|file', 'a/b.go#F|function']);
    expect(lazy.loadedGrammars).toEqual(['go']);
    lazy.parseFile('lib/k.rb', 'class K; end\n');
    expect(lazy.loadedGrammars).toEqual(['go', 'ruby']);
    lazy.dispose();
  });

  it('loads the preload grammars in init(), every one with preload: all', async () => {
    const some = new ParserService({ preload: ['python', 'sql'] });
    await some.init();
    expect(some.loadedGrammars).toEqual(['python']);
    const all = new ParserService({ languages: ['typescript', 'csharp', 'sql'], preload: 'all' });
    await all.init();
    expect(all.loadedGrammars.sort()).toEqual(['csharp', 'typescript']);
    some.dispose();
    all.dispose();
  });
});
