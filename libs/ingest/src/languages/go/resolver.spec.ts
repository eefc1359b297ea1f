import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';

const parser = new ParserService({ languages: ['go'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const edges = (r: ResolveResult, type: string) =>
  r.edges.filter((e) => e.type === type).map((e) => `${e.fromId.split('#')[1]} -> ${e.toId}`).sort();
const misses = (r: ResolveResult) => r.unresolved.map((u) => `${u.targetName}:${u.reason}`).sort();

describe('GoResolver', () => {
  it('maps import paths through go.mod (IMPORTS to the files declaring what is used), the standard library as builtin, dependencies as external', () => {
    const files = parse({
      'svc/main.go': [
        'package main',
        'import (',
        '\t"fmt"',
        '\t"example.com/svc/store"',
        '\tdb "example.com/svc/store/sql"',
        '\t"github.com/go-chi/chi/v5"',
        ')',
        'func main() { store.Open(); db.Connect(); chi.NewRouter(); fmt.Println(store.Limit, db.Connect) }',
      ].join('\n'),
      'svc/store/a.go': 'package store\nfunc Open() { helper() }',
      'svc/store/b.go': 'package store\nconst Limit = 3\nfunc helper() {}',
      'svc/store/sql/conn.go': 'package sqlstore\nfunc Connect() {}',
      'other/store/a.go': 'package store\nfunc Open() {}',
      'svc/drivers.go': 'package main\nimport _ "example.com/svc/store"', // nothing used by name: every file
    });
    const r = resolveRepository(files, { manifests: { 'svc/go.mod': 'module example.com/svc\n\ngo 1.22\n' } });
    expect(edges(r, 'IMPORTS')).toEqual([
      'svc/drivers.go|file -> svc/store/a.go#svc/store/a.go|file',
      'svc/drivers.go|file -> svc/store/b.go#svc/store/b.go|file',
      'svc/main.go|file -> svc/store/a.go#svc/store/a.go|file',
      'svc/main.go|file -> svc/store/b.go#svc/store/b.go|file', // store.Limit, a value
      'svc/main.go|file -> svc/store/sql/conn.go#svc/store/sql/conn.go|file',
    ]);
    expect(edges(r, 'REFERENCES')).toEqual([
      'main|function -> svc/store/b.go#Limit|variable',
      'main|function -> svc/store/sql/conn.go#Connect|function', // a function as a value
    ]);
    expect(edges(r, 'CALLS')).toEqual([
      'Open|function -> svc/store/b.go#helper|function', // same package, another file, no import
      'main|function -> svc/store/a.go#Open|function',
      'main|function -> svc/store/sql/conn.go#Connect|function',
    ]);
    expect(misses(r)).toEqual(['chi.NewRouter:external', 'fmt.Println:builtin']);
    expect(r.fileImports.filter((i) => i.external).map((i) => i.external)).toEqual(['fmt', 'github.com/go-chi/chi/v5']);
  });

  it('without a go.mod, takes the directory that shares the longest tail with the import path', () => {
    const r = resolveRepository(parse({
      'cmd/app/main.go': 'package main\nimport "example.com/x/internal/util"\nfunc main() { util.Do() }',
      'internal/util/u.go': 'package util\nfunc Do() {}',
      'vendor/github.com/pkg/errors/errors.go': 'package errors\nfunc New() {}',
      'lib/l.go': 'package lib\nimport "github.com/pkg/errors"\nfunc F() { errors.New() }',
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'F|function -> vendor/github.com/pkg/errors/errors.go#New|function',
      'main|function -> internal/util/u.go#Do|function',
    ]);
  });

  it('types receivers and locals from literals, constructors, call results, elements and aliases', () => {
    const r = resolveRepository(parse({
      'a/types.go': [
        'package a',
        'type Item struct{ next *Item }',
        'func (i *Item) Do() *Item { return i.next }',
        'type List struct{ items []*Item; byName map[string]*Item }',
        'func (l List) First() *Item { return l.items[0] }',
        'func (l List) All() []*Item { return l.items }',
        'type Same = List',
        'type Items []*Item',
        'func (l List) Copy() Items { return nil }',
        'func NewList() *List { return &List{} }',
        'type Doer interface { Do() *Item }',
        'type Box[T Doer] struct{ v T }',
        'func (b Box[T]) Run() { b.v.Do() }',
        'func Apply[T Doer](x T) { x.Do() }',
      ].join('\n'),
      'a/use.go': [
        'package a',
        'func Use(s Same) {',
        '\tl := NewList()',
        '\tl.First().Do().Do()',
        '\tfor _, it := range l.items { it.Do() }',
        '\tfor _, it2 := range l.All() { it2.Do() }',
        '\tx := l.byName["k"]',
        '\tx.Do()',
        '\ts.First()',
        '\tl.items[0].Do()',
        '\tfor _, it3 := range l.Copy() { it3.Do() }',
        '\tm := l',
        '\tm.First()',
        '}',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'Apply|function -> a/types.go#Doer.Do|method', // a type parameter has its constraint's methods
      'Box.Run|method -> a/types.go#Doer.Do|method',
      'Use|function -> a/types.go#Item.Do|method',
      'Use|function -> a/types.go#List.All|method',
      'Use|function -> a/types.go#List.Copy|method',
      'Use|function -> a/types.go#List.First|method',
      'Use|function -> a/types.go#NewList|function',
    ]);
    expect(misses(r)).toEqual([]);
  });

  it('finds promoted methods, satisfies interfaces by method sets (promoted methods too), and calls interface methods through interface types', () => {
    const r = resolveRepository(parse({
      'p/p.go': [
        'package p',
        'import "io"',
        'type Reader interface { Read() int }',
        'type ReadCloser interface { Reader; Close() }',
        'type Wrapped interface { io.Reader; Extra() }',
        'type Any interface{}',
        'type base struct{}',
        'func (base) Close() {}',
        'type File struct{ base }',
        'func (f *File) Read() int { return 0 }',
        'func (f *File) Extra() {}',
        'type Pipe struct{}',
        'func (Pipe) Read() int { return 1 }',
        'func Use(rc ReadCloser, f *File) { rc.Read(); rc.Close(); f.Close() }',
      ].join('\n'),
    }));
    expect(edges(r, 'EXTENDS')).toEqual([
      'File|struct -> p/p.go#base|struct',
      'ReadCloser|interface -> p/p.go#Reader|interface',
    ]);
    // Wrapped embeds io.Reader (not in the repository): its method set is unknown, nothing satisfies it
    expect(edges(r, 'IMPLEMENTS')).toEqual([
      'File|struct -> p/p.go#ReadCloser|interface',
      'File|struct -> p/p.go#Reader|interface',
      'Pipe|struct -> p/p.go#Reader|interface',
    ]);
    expect(edges(r, 'OVERRIDES')).toEqual([
      'File.Read|method -> p/p.go#Reader.Read|method',
      'Pipe.Read|method -> p/p.go#Reader.Read|method',
    ]);
    expect(edges(r, 'CALLS')).toEqual([
      'Use|function -> p/p.go#ReadCloser.Close|method', // through the interface: the interface's method
      'Use|function -> p/p.go#Reader.Read|method', // embedded interface's method
      'Use|function -> p/p.go#base.Close|method', // promoted from the embedded struct
    ]);
  });

  it('calls through function values are dynamic; generic instantiations and conversions resolve', () => {
    const r = resolveRepository(parse({
      'd/d.go': [
        'package d',
        'type HandlerFunc func(int)',
        'type Celsius float64',
        'type Mux struct{ handlers map[string]HandlerFunc; hook func() }',
        'func Map[T any](xs []T) []T { return xs }',
        'func (m *Mux) Serve(cb func(), h HandlerFunc) {',
        '\tcb()',
        '\th(1)',
        '\tm.hook()',
        '\tm.handlers["x"](2)',
        '\tf := func() {}',
        '\tf()',
        '\tMap[int](nil)',
        '\t_ = Celsius(1.5)',
        '\t_ = HandlerFunc(nil)',
        '\tlen(m.handlers)',
        '\tundefined()',
        '}',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'Mux.Serve|method -> d/d.go#Celsius|type_alias',
      'Mux.Serve|method -> d/d.go#HandlerFunc|type_alias',
      'Mux.Serve|method -> d/d.go#Map|function',
    ]);
    expect(misses(r)).toEqual([
      'cb:dynamic', 'f:dynamic', 'h:dynamic', 'len:builtin', 'm.handlers[]:dynamic', 'm.hook:dynamic', 'undefined:not-found',
    ]);
  });

  it("a function literal's parameters shadow the enclosing function's locals", () => {
    const r = resolveRepository(parse({
      'h/h.go': [
        'package h',
        'type Router struct{}',
        'func (r *Router) Get(p string, h func(*Request)) {}',
        'type Request struct{}',
        'func (r *Request) Context() {}',
        'func Serve() {',
        '	r := &Router{}',
        '	r.Get("/", func(r *Request) { r.Context() })',
        '}',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'Serve.func1|function -> h/h.go#Request.Context|method',
      'Serve|function -> h/h.go#Router.Get|method',
    ]);
  });

  it('attaches methods to their receiver type in another file, and resolves dot and aliased imports', () => {
    const r = resolveRepository(parse({
      'm/t.go': 'package m\ntype T struct{}',
      'm/t_methods.go': 'package m\nfunc (t *T) M() {}\nfunc New() *T { return nil }',
      'u/u.go': 'package u\nimport (\n\t. "example.com/m"\n\tmm "example.com/m"\n)\nfunc F() { New().M(); mm.New().M() }',
    }), { manifests: { 'go.mod': 'module example.com' } });
    expect(edges(r, 'CALLS')).toEqual(['F|function -> m/t_methods.go#New|function', 'F|function -> m/t_methods.go#T.M|method']);
  });
});
