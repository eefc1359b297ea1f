import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';
import { resolveRepository } from '../../resolve/resolver';
import { languageForPath } from '..';
import { maskElseBranches, maskExternC, maskSpecifierMacros } from './extractor';
import { buildIncludeDirs } from './resolver';

const parser = new ParserService({ languages: ['c', 'cpp'] });
beforeAll(() => parser.init());

const parse = (files: Record<string, string>): ParsedFile[] => Object.entries(files).map(([p, src]) => parser.parseFile(p, src));
const scope = (f: ParsedFile, qn: string) => f.scopes.find((s) => s.qualifiedName === qn);

describe('C/C++ plug-in: languages by path', () => {
  it('reads .c as C and C++ sources and every header as C++', () => {
    expect(['a.c', 'a.h', 'a.cc', 'a.cpp', 'a.hpp', 'a.cxx', 'a.hh'].map((p) => languageForPath(p)))
      .toEqual(['c', 'cpp', 'cpp', 'cpp', 'cpp', 'cpp', 'cpp']);
  });
});

describe('C/C++ extractor', () => {
  it('C: functions, static ones not exported, prototypes only in headers, Doxygen docs, macros, typedefs', () => {
    const [h, c] = parse({
      'inc/list.h': [
        '/** A node. */',
        'typedef struct node { int v; struct node *next; } node_t;',
        'typedef struct { int n; } counter;',
        '/// Pushes @p v.',
        '/// Returns the new head.',
        'node_t *list_push(node_t *head, int v);',
        '#define LIST_EMPTY(l) ((l) == 0)',
        'union num { int i; float f; };',
        'enum color { RED, GREEN };',
      ].join('\n'),
      'src/list.c': [
        '#include "../inc/list.h"',
        'static int helper(void);',
        'static int helper(void) { return 1; }',
        'node_t *list_push(node_t *head, int v) { helper(); return head; }',
      ].join('\n'),
    });
    expect(h.errors).toEqual([]);
    expect(h.scopes.map((s) => `${s.qualifiedName}|${s.kind}`)).toEqual([
      'inc/list.h|file', 'node|struct', 'node_t|type_alias', 'counter|struct', 'list_push|function', 'LIST_EMPTY|function',
      'num|union', 'color|enum', 'color.RED|variable', 'color.GREEN|variable',
    ]);
    expect(scope(h, 'node')!.docComment).toBe('A node.');
    expect(scope(h, 'list_push')!.docComment).toBe('Pushes @p v.\nReturns the new head.');
    expect(scope(h, 'list_push')!.signature).toBe('node_t *list_push(node_t *head, int v)');
    expect(scope(h, 'LIST_EMPTY')!.signature).toBe('#define LIST_EMPTY(l)');
    // the prototype of a static function in a .c file is not a scope of its own
    expect(c.scopes.map((s) => `${s.qualifiedName}|${s.exported}`)).toEqual(['src/list.c|undefined', 'helper|false', 'list_push|true']);
    expect(c.imports).toEqual([{ fromPath: 'src/list.c', specifier: '../inc/list.h', names: [], line: 1 }]);
  });

  it('C++: namespaces, classes with access, out-of-line members with their owner, overloads, templates', () => {
    const [f] = parse({
      'a.cpp': [
        'namespace ns {',
        'class A : public Base {',
        ' public:',
        '  A();',
        '  void f(int);',
        '  void f(double);',
        ' private:',
        '  int g();',
        '};',
        'template <typename T> T id(T x) { return x; }',
        '}',
        'void ns::A::f(int) {}',
        'namespace { void hidden() {} }',
      ].join('\n'),
    });
    expect(f.errors).toEqual([]);
    expect(f.scopes.map((s) => `${s.id.split('#')[1]} ${s.exported} ${s.owner ?? ''}`.trim())).toEqual([
      'a.cpp|file undefined', 'ns|namespace true', 'ns.A|class true', 'ns.A.A|constructor true',
      // overloads: `~N` by signature (`f(double)` before `f(int)`), whatever the source order
      'ns.A.f|method~1 true', 'ns.A.f|method true', 'ns.A.g|method false', 'ns.id|function true', 'ns.A.f|method~2 true ns::A', 'hidden|function false',
    ]);
    expect(f.references.filter((r) => r.kind === 'EXTENDS').map((r) => r.targetName)).toEqual(['Base']);
    // a template's parameter is no type reference
    expect(f.references.filter((r) => r.targetName === 'T')).toEqual([]);
  });

  it('C++: a namespace is one scope per file whose text is its header, not the block', () => {
    const [f] = parse({
      'm.cc': [
        '/** The library. */',
        'namespace marisa { namespace grimoire {',
        'namespace trie {',
        'class LoudsTrie { public: void build(); };',
        'void LoudsTrie::build() {}',
        '}',
        '}',
        '}',
        'namespace marisa { void later() {} }',
        'namespace a::b { int x; }',
      ].join('\n'),
    });
    expect(f.errors).toEqual([]);
    expect(f.scopes.map((s) => s.id.split('#')[1])).toEqual([
      'm.cc|file', 'marisa|namespace', 'marisa.grimoire|namespace', 'marisa.grimoire.trie|namespace',
      'marisa.grimoire.trie.LoudsTrie|class', 'marisa.grimoire.trie.LoudsTrie.build|method', 'marisa.grimoire.trie.LoudsTrie.build|method~1',
      'marisa.later|function', 'a|namespace', 'a.b|namespace',
    ]);
    const ns = f.scopes.filter((s) => s.kind === 'namespace').map((s) => [s.qualifiedName, s.source.trim(), s.startLine, s.endLine]);
    expect(ns).toEqual([
      ['marisa', 'namespace marisa', 2, 2], ['marisa.grimoire', 'namespace grimoire', 2, 2], ['marisa.grimoire.trie', 'namespace trie', 3, 3],
      ['a', 'namespace a::b', 10, 10], ['a.b', 'namespace a::b', 10, 10],
    ]);
    expect(scope(f, 'marisa')!.docComment).toBe('The library.');
    expect(scope(f, 'marisa.later')!.parentId).toBe('m.cc#marisa|namespace');
  });

  it('valid code whose preprocessor conditionals split a construct parses without errors', () => {
    const [h, c] = parse({
      'api.h': '#ifdef __cplusplus\nextern "C" {\n#endif\nint api(void);\n#ifdef __cplusplus\n}\n#endif\n',
      'impl.c': [
        '#define MY_INLINE inline',
        'static MY_INLINE unsigned int twice(unsigned int x) { return x * 2; }',
        '#if defined(FAST)',
        'int pick(int a) {',
        '#else',
        'int pick(int b) {',
        '#endif',
        '  return twice(1);',
        '}',
      ].join('\n'),
    });
    expect(h.errors).toEqual([]);
    expect(h.scopes.map((s) => s.qualifiedName)).toEqual(['api.h', 'api']);
    expect(c.errors).toEqual([]);
    expect(c.scopes.map((s) => s.qualifiedName)).toEqual(['impl.c', 'twice', 'pick']);
    // line numbers survive the masking
    expect(scope(c, 'pick')!.startLine).toBe(4);
  });

  it('masks keep every offset', () => {
    const src = '#ifdef __cplusplus\nextern "C" {\n#endif\nX_API int f(void);\n#if A\nint g;\n#else\nlong g;\n#endif\n';
    for (const m of [maskExternC(src), maskSpecifierMacros(src), maskElseBranches(src)]) {
      expect(m).not.toBeNull();
      expect(m!.length).toBe(src.length);
      expect(m!.split('\n').length).toBe(src.split('\n').length);
    }
    expect(maskElseBranches(src)).toContain('\nint g;\n     \n       \n      \n');
  });

  it('reads include directories from Makefiles and CMakeLists.txt', () => {
    expect(buildIncludeDirs('CFLAGS += -Iinclude -I ../third/zstd -I$(X)\n')).toEqual(['include', '../third/zstd']);
    expect(buildIncludeDirs('include_directories(src/common "api")\ntarget_include_directories(lib PUBLIC lib/inc)\n'))
      .toEqual(['src/common', 'api', 'lib/inc']);
  });
});

describe('C/C++ resolver', () => {
  it('C: a call through a header prototype lands on the definition; the definition IMPLEMENTS the prototype', () => {
    const files = parse({
      'include/m.h': 'int twice(int x);\n',
      'src/m.c': '#include <m.h>\nint twice(int x) { return 2 * x; }\n',
      'src/main.c': [
        '#include "m.h"',
        '#include <stdio.h>',
        'struct ops { int (*run)(int); };',
        'int main(void) {',
        '  struct ops o;',
        '  int (*fp)(int) = twice;',
        '  printf("%d", twice(2) + o.run(1) + fp(3));',
        '  return 0;',
        '}',
      ].join('\n'),
    });
    expect(files.flatMap((f) => f.errors)).toEqual([]);
    const r = resolveRepository(files);
    const edges = r.edges.map((e) => `${e.type} ${e.fromId.split('#')[1]} -> ${e.toId}`).sort();
    expect(edges).toEqual([
      'CALLS main|function -> src/m.c#twice|function',
      'IMPLEMENTS twice|function -> include/m.h#twice|function',
      'IMPORTS src/m.c|file -> include/m.h#include/m.h|file',
      'IMPORTS src/main.c|file -> include/m.h#include/m.h|file',
      'REFERENCES main|function -> src/main.c#ops|struct',
    ]);
    const reasons = Object.fromEntries(r.unresolved.map((u) => [u.targetName, u.reason]));
    expect(reasons).toEqual({ printf: 'builtin', 'o.run': 'dynamic', fp: 'dynamic' });
  });

  it('C++: `using a::B;` in a namespace brings B into that namespace (header-only namespace scopes)', () => {
    const files = parse({
      'a.h': 'namespace a {\nstruct B { static int f(); };\n}\n',
      'n.cc': [
        '#include "a.h"',
        'namespace n {',
        'using a::B;',
        '}',
        'namespace n {',
        'int g() { return B::f(); }',
        '}',
        'int h() { return n::B::f(); }',
      ].join('\n'),
    });
    expect(files.flatMap((f) => f.errors)).toEqual([]);
    expect(files[1].imports.filter((i) => i.names.length)).toEqual([
      { fromPath: 'n.cc', specifier: 'a.B', names: [{ imported: 'B', local: 'B' }], line: 3, namespace: 'n' },
    ]);
    const r = resolveRepository(files);
    const calls = r.edges.filter((e) => e.type === 'CALLS').map((e) => `${e.fromId.split('#')[1]} -> ${e.toId.split('#')[1]}`).sort();
    expect(calls).toEqual(['h|function -> a.B.f|method', 'n.g|function -> a.B.f|method']);
  });

  it('C++: typed receivers, this, ns::f, base members, a class called is its constructor, std is builtin', () => {
    const files = parse({
      'lib/shape.h': [
        'namespace geo {',
        'class Base { public: int id() const; };',
        'class Sq : public Base {',
        ' public:',
        '  explicit Sq(int s);',
        '  int area() const;',
        '  int twice() const { return this->area() * 2; }',
        '};',
        'int helper(int);',
        '}',
      ].join('\n'),
      'lib/shape.cpp': [
        '#include "shape.h"',
        '#include <vector>',
        'namespace geo {',
        'int Base::id() const { return 1; }',
        'Sq::Sq(int s) {}',
        'int Sq::area() const { std::vector<int> v; v.push_back(1); return helper(id()); }',
        'int helper(int x) { return x; }',
        '}',
        'int use() {',
        '  geo::Sq s(2);',
        '  geo::Sq *p = new geo::Sq(3);',
        '  return s.area() + p->id() + geo::helper(1);',
        '}',
      ].join('\n'),
    });
    expect(files.flatMap((f) => f.errors)).toEqual([]);
    const r = resolveRepository(files);
    const calls = r.edges.filter((e) => e.type === 'CALLS').map((e) => `${e.fromId.split('#')[1]} -> ${e.toId.split('#')[1]}`).sort();
    expect(calls).toEqual([
      'geo.Sq.area|method -> geo.Base.id|method',
      'geo.Sq.area|method -> geo.helper|function',
      'geo.Sq.twice|method -> geo.Sq.area|method',
      'use|function -> geo.Base.id|method',
      'use|function -> geo.Sq.Sq|constructor',
      'use|function -> geo.Sq.area|method',
      'use|function -> geo.helper|function',
    ]);
    // every call target is the definition in the .cpp file, not the declaration in the header
    expect(r.edges.filter((e) => e.type === 'CALLS').every((e) => e.toId.startsWith('lib/shape.cpp#'))).toBe(true);
    expect(r.edges.filter((e) => e.type === 'EXTENDS').map((e) => `${e.fromId} -> ${e.toId}`))
      .toEqual(['lib/shape.h#geo.Sq|class -> lib/shape.h#geo.Base|class']);
    expect(r.unresolved.map((u) => `${u.targetName} ${u.reason}`)).toEqual(['v.push_back builtin']);
  });
});

describe('C/C++ resolver: receivers made by calls', () => {
  it('a temporary `A().f()` and a declared return type `a.get().f()` type the receiver; `f()()` is not guessed', () => {
    const files = parse({
      'x.h': 'struct B { int f() const { return 1; } };\nstruct A { B get() const { return B(); } };\nA make();\n',
      'x.cpp': [
        '#include "x.h"',
        'int use() {',
        '  A a;',
        '  return A().get().f() + a.get().f() + make().get().f() + make()();',
        '}',
      ].join('\n'),
    });
    expect(files.flatMap((f) => f.errors)).toEqual([]);
    const r = resolveRepository(files);
    // `A()`: A has no constructor, the struct itself is the target
    expect(r.edges.filter((e) => e.type === 'CALLS' && e.fromId.endsWith('#use|function')).map((e) => e.toId.split('#')[1]).sort())
      .toEqual(['A.get|method', 'A|struct', 'B.f|method', 'make|function']);
    expect(r.unresolved.map((u) => `${u.targetName} ${u.reason}`)).toEqual(['make() unknown-receiver']);
  });
});
