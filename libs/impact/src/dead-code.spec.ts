import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeOnly, NameUse, nameUses } from './code-text';
import { entryPoint, judge, namesOutsideCode, rubyStringHeads } from './dead-code.service';
import { affixMatch, commentAbove, isClassExpression, isLoaderHook, keyAffixes, registeredHookFiles, testHook } from './dead-code-signs';
import { readManifests } from './manifests';

const uses = (file: string, text: string, names: string[]) => {
  const into = new Map<string, NameUse[]>();
  nameUses(file, codeOnly(file, text), new Set(names), into);
  return into;
};

describe('code-only name uses', () => {
  it('skips comments and prose in strings, keeps template and f-string code, and tells attributes apart', () => {
    const ts = [
      '// helper is mentioned here',
      "const s = 'call helper later';",
      'const t = `${helper()} and ${x.other}`;',
      'const re = /[`"]/g; other(1);',
      '/* helper */ run(helper);',
    ].join('\n');
    const found = uses('a.ts', ts, ['helper', 'other']);
    expect(found.get('helper')!.map((u) => u.line)).toEqual([3, 5]);
    // The regex literal's backtick does not open a template that swallows the rest of the line.
    expect(found.get('other')!.map((u) => [u.line, u.member])).toEqual([[3, true], [4, false]]);

    const py = ['# helper', 'x = "helper"', 'y = f"{helper(1)}"', '"""helper in a docstring"""', 'obj.helper()'].join('\n');
    expect(uses('a.py', py, ['helper']).get('helper')!.map((u) => [u.line, u.member])).toEqual([[3, false], [5, true]]);
    // With strings kept, command strings run by eval still show the name.
    const kept = new Map<string, NameUse[]>();
    nameUses('a.py', codeOnly('a.py', "add('go', 'cursorDown(1)')", true), new Set(['cursorDown']), kept);
    expect(kept.get('cursorDown')).toHaveLength(1);
  });

  it('reads JavaScript private members as one token', () => {
    expect(uses('a.js', 'class A { #x() {} y() { this.#x(); } }', ['#x']).get('#x')!.map((u) => u.member)).toEqual([false, true]);
  });
});

describe('dead-code confidence', () => {
  const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: true, read: [] };
  const row = { name: 'helper', kind: 'function', path: 'src/a.ts', exported: false, parentKind: 'file', parentExported: false, repoBase: false, extends: false, language: 'typescript' };
  const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };

  it('is high for a name used nowhere, and each sign of life lowers it under the default', () => {
    expect(judge(row, none).confidence).toBe(0.95);
    const below = (e: Partial<Parameters<typeof judge>[1]>) => judge(row, { ...none, ...e }).confidence < 0.7;
    expect(below({ uses: [{ path: 'b.ts', line: 3, member: false }] })).toBe(true);
    expect(below({ uses: [{ path: 'b.ts', line: 3, member: true }] })).toBe(true);
    expect(below({ quoted: 1 })).toBe(true);
    expect(below({ prefix: 'hel' })).toBe(true);
    expect(below({ unresolved: 2 })).toBe(true);
    expect(below({ inStrings: 1 })).toBe(true);
    expect(below({ outsideCode: { path: 'config/rc.conf', count: 1 } })).toBe(true);
  });

  it('keeps a library\'s public methods and subclasses under the default, an application\'s exports above it', () => {
    const lib = { ...manifests, library: true, jsLibrary: true, application: false };
    expect(judge({ ...row, kind: 'method', name: 'render2', parentKind: 'class' }, { ...none, manifests: lib }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, kind: 'method', name: 'get_view', parentKind: 'class', language: 'python', path: 'p/a.py' }, { ...none, manifests: lib }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, kind: 'class', name: 'Plugin', extends: true }, none).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, exported: true }, none).confidence).toBeGreaterThanOrEqual(0.7);
  });
});

describe('package manifests', () => {
  it('reads entry files from package.json and entry functions from console_scripts', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'manifests-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.mkdirSync(path.join(root, 'tool'));
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'dist/index.js', bin: { t: './bin/t.js' } }));
    fs.writeFileSync(path.join(root, 'setup.cfg'), '[options.entry_points]\nconsole_scripts =\n    tool = tool.cli:main_entry\n');
    const m = await readManifests(root, ['src/index.ts', 'src/other.ts', 'bin/t.js', 'tool/cli.py', 'tool/__init__.py']);
    expect([...m.entryFiles].sort()).toEqual(['bin/t.js', 'src/index.ts', 'tool/cli.py']);
    expect(m.entryFunctions.get('tool/cli.py')).toEqual(new Set(['main_entry']));
    expect({ library: m.library, jsLibrary: m.jsLibrary, application: m.application }).toEqual({ library: true, jsLibrary: true, application: true });
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('signs of life no edge records (TS/JS conventions)', () => {
  it('reads identifiers with letters beyond ASCII whole, so a renamed destructuring is a use', () => {
    const found = uses('a.js', 'const { ɵcodegenFunctionsDirectory: codegenProd } = WebFrameworks[fw];', ['ɵcodegenFunctionsDirectory', 'codegenFunctionsDirectory']);
    expect(found.get('ɵcodegenFunctionsDirectory')!.map((u) => u.member)).toEqual([false]);
    // The ASCII tail of the name is not a use of some other scope of that name.
    expect(found.get('codegenFunctionsDirectory')).toBeUndefined();
  });

  it('tells a class expression used where it is written from a class declaration', () => {
    expect(isClassExpression('\tnew (class RawSourceSerializer {', 'RawSourceSerializer')).toBe(true);
    expect(isClassExpression('register(A, class Ser {', 'Ser')).toBe(true);
    expect(isClassExpression('const Local = class Named extends Base {', 'Named')).toBe(true);
    expect(isClassExpression('  return class Mixed extends Base {', 'Mixed')).toBe(true);
    expect(isClassExpression('class Plain {', 'Plain')).toBe(false);
    expect(isClassExpression('export default class Plain {', 'Plain')).toBe(false);
    expect(isClassExpression('exports.Plain = class Plain {', 'Plain')).toBe(false);
    expect(isClassExpression('module.exports = class Plain {', 'Plain')).toBe(false);
  });

  it('finds test hooks by the words of their name or the comment above them', () => {
    expect(testHook('_testGetAllLayoutFrontMatterData', '')).toMatch(/name/);
    expect(testHook('_rebindLog4js4testing', '')).toMatch(/name/);
    expect(testHook('resetForTests', '')).toMatch(/name/);
    const lines = ['  }', '', '  // This is only used by tests', '  _setLocalPathRoot(dir) {'];
    expect(testHook('_setLocalPathRoot', commentAbove(lines, 4))).toMatch(/only used by tests/);
    expect(testHook('_setConfig', commentAbove(['/**', ' * Used by tests', ' */', '_setConfig(c) {'], 4))).toMatch(/Used by tests/);
    // Words that merely contain "test", and comments about what the code tests, are not hooks.
    expect(testHook('latestVersion', '')).toBeNull();
    expect(testHook('attestation', '')).toBeNull();
    expect(testHook('isMatch', commentAbove(['// Tests whether the glob matches', 'function isMatch(g) {'], 2))).toBeNull();
  });

  it('matches members called through keys built from a fixed head and tail', () => {
    const affixes = new Set<string>();
    keyAffixes('let key = `_${name}Summary`; this[key](); log(`Error: ${e}`); const k2 = "on" + type + "Handler";', affixes);
    expect(affixMatch('_buildSummary', affixes)).toBe('_${...}Summary');
    expect(affixMatch('onClickHandler', affixes)).toBe('on${...}Handler');
    expect(affixMatch('_build', affixes)).toBeNull();
    expect(affixMatch('Error', affixes)).toBeNull();
    // A plural `s` after a substitution is prose, not a key convention.
    const plural = new Set<string>();
    keyAffixes('`${n}s`', plural);
    expect(plural.size).toBe(0);
  });

  it('knows the Node loader hooks of a file given to module.register()', () => {
    const hookFiles = new Set<string>();
    registeredHookFiles('src/Util/Adapter.js', 'module.register("./EsmResolver.js", import.meta.url, { data });', hookFiles);
    expect(isLoaderHook('initialize', 'src/Util/EsmResolver.js', hookFiles)).toBe(true);
    expect(isLoaderHook('addToModifiedPaths', 'src/Util/EsmResolver.js', hookFiles)).toBe(false);
    expect(isLoaderHook('initialize', 'src/Other.js', hookFiles)).toBe(false);
  });

  it('counts a test hook and a run-time key as reasons under the default confidence', () => {
    const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: true, read: [] };
    const row = { name: '_buildSummary', kind: 'method', path: 'lib/a.js', exported: false, parentKind: 'class', parentExported: false, repoBase: false, extends: false, language: 'javascript' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
    expect(judge(row, none).confidence).toBe(0.95);
    expect(judge(row, { ...none, keyAffix: '_${...}Summary' }).confidence).toBeLessThan(0.7);
    expect(judge(row, { ...none, testHook: 'its name says it serves tests' }).confidence).toBeLessThan(0.7);
  });

  it('reads code files the index skipped (a 1.6 MB generated file) for names', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skipped-'));
    fs.writeFileSync(path.join(root, 'big.js'), `${'x();\n'.repeat(200_000)}require("./parser").printEarlyIn(d);\n`);
    fs.writeFileSync(path.join(root, 'parser.js'), 'module.exports.printEarlyIn = () => 1;\n');
    const found = await namesOutsideCode(root, new Set(['parser.js']), new Set(['printEarlyIn']));
    expect(found.get('printEarlyIn')).toEqual({ path: 'big.js', count: 1 });
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('package exports with subpath patterns', () => {
  it('opens every file a `*` pattern can stand for, sources of built files included', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-'));
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ exports: { '.': './dist/index.js', './hot/*': './hot/*.js', './lib/*': './dist/*.js' } }));
    const m = await readManifests(root, ['src/index.ts', 'src/a/b.ts', 'hot/log.js', 'hot/log.d.ts', 'other/x.js', 'src/a/b.css.ts']);
    expect([...m.entryFiles].sort()).toEqual(['hot/log.d.ts', 'hot/log.js', 'src/a/b.css.ts', 'src/a/b.ts', 'src/index.ts']);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('exports of a library without an exports map', () => {
  it('are public API under the default confidence; with an exports map a file outside it stays a candidate', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'deep-'));
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'lib/index.js' }));
    const open = await readManifests(root, ['lib/index.js', 'lib/util.js']);
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'lib/index.js', exports: { '.': './lib/index.js' } }));
    const closed = await readManifests(root, ['lib/index.js', 'lib/util.js']);
    fs.rmSync(root, { recursive: true, force: true });
    expect([open.jsDeepImports, closed.jsDeepImports]).toEqual([true, undefined]);
    const row = { name: 'helper', kind: 'function', path: 'lib/util.js', exported: true, parentKind: 'file', parentExported: false, repoBase: false, extends: false, language: 'javascript' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [] };
    expect(judge(row, { ...none, manifests: open }).confidence).toBeLessThan(0.7);
    expect(judge(row, { ...none, manifests: closed }).confidence).toBeGreaterThanOrEqual(0.7);
  });
});

describe('unnamed classes', () => {
  it('are no candidates: `internals.Server = class {...}` has no name to look for', () => {
    const row = { name: 'anonymous', kind: 'class', path: 'lib/server.js', exported: false, head: 'class {', parentKind: 'file', parentExported: false, externalBase: false, language: 'javascript' };
    expect(entryPoint(row, new Set())).toBe('a class expression: its value is used where it is written');
    expect(entryPoint({ ...row, name: 'Server' }, new Set())).toBeNull();
  });
});

describe('entry points the runtimes of Go, Rust, Java, PHP and Ruby call', () => {
  const row = { kind: 'method', path: 'a', exported: true, head: null as string | null, parentKind: 'class', parentExported: true, externalBase: false };
  const why = (language: string, name: string, extra: Partial<typeof row> = {}) => entryPoint({ ...row, ...extra, language, name }, new Set());

  it('knows Go function literals, init and the method sets of standard interfaces', () => {
    expect(why('go', 'func1', { kind: 'function' })).toBe('a function literal: its value is used where it is written');
    expect(why('go', 'init', { kind: 'function' })).toBe('called by name by a runtime or framework');
    expect(why('go', 'String')).toBe('called by name by a runtime or framework');
    expect(why('go', 'MarshalJSON')).toBe('called by name by a runtime or framework');
    // A function of that name is no method of an interface; a name that only starts like a literal's is a name.
    expect(why('go', 'String', { kind: 'function' })).toBeNull();
    expect(why('go', 'funcName', { kind: 'function' })).toBeNull();
  });

  it('knows PHP magic methods, Java serialization hooks and Ruby hooks, each in its own language only', () => {
    expect(why('php', '__call')).toBe('called by name by a runtime or framework');
    expect(why('php', '__get')).toBe('called by name by a runtime or framework');
    expect(why('java', 'writeObject')).toBe('called by name by a runtime or framework');
    expect(why('java', 'readResolve')).toBe('called by name by a runtime or framework');
    expect(why('ruby', 'inherited')).toBe('called by name by a runtime or framework');
    expect(why('ruby', 'method_missing')).toBe('called by name by a runtime or framework');
    expect(why('php', 'writeObject')).toBeNull();
    expect(why('java', '__call')).toBeNull();
    expect(why('python', 'inherited')).toBeNull();
    expect(why('java', 'String')).toBeNull();
  });

  it('reads Rust attributes above the item, doc comments first: tests and exported symbols are entry points', () => {
    const fn = (attrs: string) => why('rust', 'drain_rev', { kind: 'function', head: `/// Drains in reverse.\n/// More words.\n/// And more.\n${attrs}fn drain_rev() {\n    let v = 1;\n` });
    expect(fn('#[test]\n')).toBe('test');
    expect(fn('#[tokio::test]\n#[ignore]\n')).toBe('test');
    expect(fn('#[cfg(test)]\n')).toBe('test');
    expect(fn('#[no_mangle]\npub extern "C" ')).toBe('registered by an attribute (a linker symbol, a runtime entry or a compiler plugin)');
    expect(fn('#[tokio::main]\nasync ')).toBe('registered by an attribute (a linker symbol, a runtime entry or a compiler plugin)');
    expect(fn('#[inline]\n')).toBeNull();
    expect(fn('')).toBeNull();
    // An attribute inside the body is not the item's.
    expect(why('rust', 'f', { kind: 'function', head: 'fn f() {\n    #[cfg(test)]\n    let x = 1;\n' })).toBeNull();
  });

  it('reads the heads Ruby builds method names from by interpolation', () => {
    expect(rubyStringHeads('send("on_#{type}", *args)\nrespond_to?(:"visit_#{kind}")\nputs "Hi #{name}"')).toEqual(['on_', 'visit_']);
  });

  it('counts a crate\'s unit-test file and its benches as tests', () => {
    expect(why('rust', 'grow', { kind: 'function', path: 'src/tests.rs' })).toBe('test');
    expect(why('rust', 'bench_push', { kind: 'function', path: 'benches/push.rs' })).toBe('test');
    expect(why('rust', 'grow', { kind: 'function', path: 'src/lib.rs' })).toBeNull();
  });
});

describe('libraries declared by Go, Rust, JVM, PHP, Ruby and .NET manifests', () => {
  const write = (root: string, files: Record<string, string>) => {
    for (const [p, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    }
  };
  const manifestsOf = async (files: Record<string, string>, code: string[]) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'libs-'));
    write(root, files);
    try {
      return await readManifests(root, code);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };

  it('tells a library from a program by what each manifest says', async () => {
    // A doc comment's `package main` example is not the file's package clause.
    const goLib = await manifestsOf({ 'go.mod': 'module example.com/log\n', 'doc.go': '/*\nUse it:\n\n  package main\n*/\npackage log\n', 'log.go': 'package log\n' }, ['doc.go', 'log.go']);
    const goProgram = await manifestsOf({ 'go.mod': 'module example.com/tool\n', 'main.go': '// Tool.\npackage main\n', 'pkg/x.go': 'package pkg\n' }, ['main.go', 'pkg/x.go']);
    expect([goLib.libraries?.get('go'), goProgram.libraries?.has('go')]).toEqual(['go.mod', false]);

    const crate = await manifestsOf({ 'Cargo.toml': '[package]\nname = "v"\n', 'src/lib.rs': 'pub fn f() {}\n' }, ['src/lib.rs']);
    const bin = await manifestsOf({ 'Cargo.toml': '[package]\nname = "v"\n', 'src/main.rs': 'fn main() {}\n' }, ['src/main.rs']);
    expect([crate.libraries?.get('rust'), bin.libraries?.has('rust')]).toEqual(['Cargo.toml', false]);

    const jar = await manifestsOf({ 'pom.xml': '<project><artifactId>io</artifactId></project>', 'src/main/java/A.java': 'class A {}' }, ['src/main/java/A.java']);
    const app = await manifestsOf({ 'pom.xml': '<project><build><plugins><plugin><configuration><mainClass>x.Main</mainClass></configuration></plugin></plugins></build></project>', 'src/main/java/A.java': 'class A {}' }, ['src/main/java/A.java']);
    const gradleApp = await manifestsOf({ 'build.gradle.kts': 'plugins {\n    id("application")\n}\n', 'src/A.java': '' }, ['src/A.java']);
    expect([jar.libraries?.get('java'), app.libraries?.has('java'), gradleApp.libraries?.has('java')]).toEqual(['pom.xml', false, false]);

    const phpLib = await manifestsOf({ 'composer.json': '{"name": "acme/psr7"}', 'src/A.php': '' }, ['src/A.php']);
    const phpProject = await manifestsOf({ 'composer.json': '{"name": "acme/site", "type": "project"}', 'src/A.php': '' }, ['src/A.php']);
    expect([phpLib.libraries?.get('php'), phpProject.libraries?.has('php')]).toEqual(['composer.json', false]);

    const gem = await manifestsOf({ 'mustache.gemspec': 'Gem::Specification.new', 'lib/m.rb': '' }, ['lib/m.rb']);
    const rails = await manifestsOf({ 'Gemfile': "gem 'rails'", 'app/m.rb': '' }, ['app/m.rb']);
    expect([gem.libraries?.get('ruby'), rails.libraries?.has('ruby')]).toEqual(['mustache.gemspec', false]);

    const dll = await manifestsOf({ 'src/Lib/Lib.csproj': '<Project Sdk="Microsoft.NET.Sdk"></Project>', 'src/Lib/A.cs': '' }, ['src/Lib/A.cs']);
    const exe = await manifestsOf({ 'src/App/App.csproj': '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>', 'src/App/A.cs': '' }, ['src/App/A.cs']);
    expect([dll.libraries?.get('csharp'), exe.libraries?.has('csharp')]).toEqual(['src/Lib/Lib.csproj', false]);
    // None of it is a JS or Python library.
    expect([goLib.library, crate.jsLibrary, jar.application]).toEqual([false, undefined, false]);
  });

  it('keeps a library\'s exported names under the default confidence, except in Go\'s internal packages', () => {
    const libraries = new Map([['go', 'go.mod']]);
    const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: false, read: ['go.mod'], libraries };
    const row = { name: 'Debugf', kind: 'function', path: 'exported.go', exported: true, parentKind: 'file', parentExported: false, repoBase: false, extends: false, language: 'go' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
    const lib = judge(row, none);
    expect(lib.confidence).toBeLessThan(0.7);
    expect(lib.reasons).toContain('public name of a library (go.mod declares one): code outside the repository could use it');
    expect(judge({ ...row, path: 'internal/x/exported.go' }, none).confidence).toBeGreaterThanOrEqual(0.7);
    expect(judge(row, { ...none, manifests: { ...manifests, libraries: new Map() } }).confidence).toBeGreaterThanOrEqual(0.7);
    expect(judge({ ...row, language: 'rust' }, none).confidence).toBeGreaterThanOrEqual(0.7);
  });
});
