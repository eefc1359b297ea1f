import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';
import { parseCargoToml } from './resolver';

const parser = new ParserService({ languages: ['rust'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const short = (id: string) => id.split('#')[1].split('|')[0];
const edges = (r: ResolveResult, type: string) =>
  r.edges.filter((e) => e.type === type).map((e) => `${short(e.fromId)} -> ${e.toId}`).sort();
const misses = (r: ResolveResult) => r.unresolved.map((u) => `${short(u.fromId)} ${u.targetName}: ${u.reason}`).sort();

describe('RustExtractor', () => {
  const src = [
    '//! Crate docs.', //                                         1
    'use crate::a::{B, c as d, self};', //                        2
    'pub use super::*;', //                                       3
    'mod foo;', //                                                4
    '/// A point.', //                                            5
    '#[derive(Debug)]', //                                        6
    'pub struct Point<T> { pub x: T, inner: Box<Inner> }', //     7
    'pub(crate) trait Shape: Named { fn area(&self) -> f64; }', // 8
    'impl<T> Point<T> {', //                                      9
    '    /** Makes one. */', //                                  10
    '    pub fn new(x: T) -> Self { Self { x, inner: Inner::default() } }', // 11
    '    fn go(&self, s: &dyn Shape) { self.inner.run(); s.area(); let f = |v: u8| v; f(1); }', // 12
    '}', //                                                      13
    'impl Shape for Point<u8> { fn area(&self) -> f64 { 0.0 } }', // 14
    'pub mod inner { use super::Point; pub type P = Point<u8>; }', // 15
    'macro_rules! twice { ($e:expr) => { $e; $e }; }', //        16
    'pub const MAX: usize = 3;', //                              17
  ].join('\n');
  const f = () => parser.parseFile('src/lib.rs', src);

  it('parses valid code without errors and records scopes as Rust names them', () => {
    const file = f();
    expect(file.errors).toEqual([]);
    expect(file.scopes.map((s) => [s.id, s.startLine, s.endLine, s.exported ?? null, s.owner ?? null])).toEqual([
      ['src/lib.rs#src/lib.rs|file', 1, 17, null, null],
      ['src/lib.rs#Point|struct', 6, 7, true, null],
      ['src/lib.rs#Shape|trait', 8, 8, false, null],
      ['src/lib.rs#Shape.area|method', 8, 8, false, null],
      ['src/lib.rs#Point.new|method', 11, 11, true, 'Point'],
      ['src/lib.rs#Point.go|method', 12, 12, false, 'Point'],
      ['src/lib.rs#Point.area|method', 14, 14, true, 'Point'],
      ['src/lib.rs#inner|module', 15, 15, true, null],
      ['src/lib.rs#inner.P|type_alias', 15, 15, true, null],
      ['src/lib.rs#twice!|function', 16, 16, false, null],
      ['src/lib.rs#MAX|variable', 17, 17, true, null],
    ]);
    const byName = new Map(file.scopes.map((s) => [s.qualifiedName, s]));
    expect(byName.get('src/lib.rs')!.docComment).toBe('Crate docs.');
    expect(byName.get('Point')!.docComment).toBe('A point.');
    expect(byName.get('Point')!.signature).toBe('pub struct Point<T>');
    expect(byName.get('Point.new')!.docComment).toBe('Makes one.');
    expect(byName.get('Point.new')!.signature).toBe('pub fn new(x: T) -> Self');
  });

  it('records calls, type uses, supertraits, uses, and typed bindings', () => {
    const file = f();
    const refs = file.references.map((r) => `${short(r.fromId)} ${r.kind} ${r.targetName}`);
    expect(refs).toEqual(expect.arrayContaining([
      'Point REFERENCES Inner',
      'Shape EXTENDS Named',
      'Point.new CALLS Point',
      'Point.new CALLS Inner::default',
      'Point.go CALLS self.inner.run',
      'Point.go CALLS s.area',
      'Point.go CALLS f',
      'inner.P REFERENCES Point',
    ]));
    expect(refs.filter((r) => r.startsWith('Point.go'))).not.toContain('Point.go REFERENCES T');
    expect(file.imports.map((i) => [i.specifier, i.names, !!i.reexport])).toEqual([
      ['crate::a::B', [{ imported: 'B', local: 'B' }], false],
      ['crate::a::c', [{ imported: 'c', local: 'd' }], false],
      ['crate::a', [{ imported: 'a', local: 'a' }], false],
      ['super::*', [{ imported: '*', local: '*' }], true],
      ['mod foo', [], false],
      ['inner|super::Point', [{ imported: 'Point', local: 'Point' }], false],
    ]);
    const bindings = file.bindings.map((b) => `${short(b.scopeId)} ${b.name}: ${b.typeName}${b.member ? ' (member)' : ''}`);
    expect(bindings).toEqual(expect.arrayContaining([
      'Point inner: Inner (member)',
      'Point.go self: Point',
      'Point.go s: Shape',
      'Point.go f: <fn>',
      'Point.new ->: Point (member)',
      'src/lib.rs impl Shape for Point: Point (member)',
      'inner.P =: Point (member)',
    ]));
  });

  it('parses supplementary-plane characters wherever tree-sitter input chunks end (regex-syntax tables)', () => {
    const table = `pub const T: &[char] = &[\n${Array.from({ length: 3000 }, () => "    '\u{10C9D}',\n").join('')}];\n`;
    expect(parser.parseFile('src/t.rs', table).errors).toEqual([]);
  });

  it('reads package and dependency names from Cargo.toml', () => {
    expect(parseCargoToml('[package]\nname = "my-lib"\n[dependencies]\nserde = "1"\nregex-syntax = { version = "0.8" }\n[dev-dependencies.rand]\nversion = "0.8"\n'))
      .toEqual({ name: 'my_lib', deps: new Set(['serde', 'regex_syntax', 'rand']) });
  });
});

describe('RustResolver', () => {
  it('follows mod/use/super/glob/re-export paths across files and attaches impls written in other modules', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': 'pub mod model;\nmod util;\npub use model::Item;\npub fn run() { let i = Item::new(); i.show(); util::helper(); crate::util::helper(); }',
      'src/model/mod.rs': 'pub mod item;\npub use self::item::Item;',
      'src/model/item.rs': 'pub struct Item;\nimpl Item { pub fn new() -> Item { Item } }',
      'src/util.rs': 'use super::*;\nimpl Item { pub fn show(&self) { helper(); } }\npub fn helper() {}\n#[cfg(test)]\nmod tests { use super::*; fn t() { helper(); } }',
    }), { manifests: { 'Cargo.toml': '[package]\nname = "app"\n' } });
    expect(edges(r, 'CALLS')).toEqual([
      'Item.show -> src/util.rs#helper|function',
      'run -> src/model/item.rs#Item.new|method',
      'run -> src/util.rs#Item.show|method',
      'run -> src/util.rs#helper|function',
      'tests.t -> src/util.rs#helper|function',
    ]);
    expect(edges(r, 'IMPORTS')).toEqual([
      'src/lib.rs -> src/model/item.rs#src/model/item.rs|file',
      'src/lib.rs -> src/model/mod.rs#src/model/mod.rs|file',
      'src/lib.rs -> src/util.rs#src/util.rs|file',
      'src/model/mod.rs -> src/model/item.rs#src/model/item.rs|file',
      'src/util.rs -> src/lib.rs#src/lib.rs|file',
    ]);
  });

  it('types receivers by fields, return types and aliases; trait calls land on the trait item', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': [
        'pub trait Draw { fn draw(&self); }',
        'pub struct Pen { ink: Ink }',
        'pub struct Ink;',
        'pub type Brush = Pen;',
        'impl Ink { fn dry(&self) {} }',
        'impl Pen { fn new() -> Self { Pen { ink: Ink } } fn ink(&self) -> &Ink { &self.ink } }',
        'impl Draw for Pen { fn draw(&self) { self.ink.dry(); self.ink().dry(); } }',
        'fn paint<T: Draw>(t: T, d: &dyn Draw) { t.draw(); d.draw(); let b = Brush::new(); b.draw(); }',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'Pen.draw -> src/lib.rs#Ink.dry|method',
      'Pen.draw -> src/lib.rs#Pen.ink|method',
      'Pen.new -> src/lib.rs#Pen|struct',
      'paint -> src/lib.rs#Draw.draw|method',
      'paint -> src/lib.rs#Pen.draw|method',
      'paint -> src/lib.rs#Pen.new|method',
    ]);
    expect(edges(r, 'IMPLEMENTS')).toEqual(['Pen -> src/lib.rs#Draw|trait']);
    expect(edges(r, 'OVERRIDES')).toEqual(['Pen.draw -> src/lib.rs#Draw.draw|method']);
  });

  it('says why the rest is not in the repository: std builtin, dependency external, closures dynamic', () => {
    const r = resolveRepository(parse({
      'src/main.rs': 'use serde::Serialize;\nfn main() { let v = Vec::new(); v.len(); std::process::exit(0); serde::to_string(); println!("x"); let f = |x: u8| x; f(1); unknown.go(); missing(); }',
    }), { manifests: { 'Cargo.toml': '[package]\nname = "app"\n[dependencies]\nserde = "1"\n' } });
    expect(misses(r)).toEqual([
      'main Vec::new: builtin',
      'main f: dynamic',
      'main missing: not-found',
      'main println!: builtin',
      'main serde::to_string: external',
      'main std::process::exit: builtin',
      'main unknown.go: unknown-receiver',
      'main v.len: builtin',
    ]);
    expect(r.fileImports).toEqual([{ fromPath: 'src/main.rs', specifier: 'serde::Serialize', line: 1, external: 'serde' }]);
  });

  it('types match bindings by the variant payload; a name bound to two types in one function has both', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': [
        'pub struct Lit; impl Lit { fn span(&self) {} }',
        'pub struct Rep; impl Rep { fn span(&self) {} fn min(&self) {} }',
        'pub enum Ast { Lit(Lit), Rep(Box<Rep>) }',
        'mod ast { pub fn make() {} }',
        'fn walk(a: &Ast) { match a { Ast::Rep(x) => { x.min(); } _ => {} } }',
        'fn both(a: &Ast) { match a { Ast::Lit(x) => x.span(), Ast::Rep(x) => x.span() } }',
        'fn shadow(ast: Lit) { ast.span(); ast::make(); }',
        'fn again(l: &Lit) { let l = l.clone(); l.span(); }',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS')).toEqual([
      'again -> src/lib.rs#Lit.span|method',
      'both -> src/lib.rs#Lit.span|method',
      'both -> src/lib.rs#Rep.span|method',
      'shadow -> src/lib.rs#Lit.span|method',
      'shadow -> src/lib.rs#ast.make|function',
      'walk -> src/lib.rs#Rep.min|method',
    ]);
    expect(misses(r)).toEqual(['again l.clone: builtin']);
  });

  it('types loop variables and iterator closures by the element type of the collection', () => {
    const r = resolveRepository(parse({
      // Other's same-named methods make the crate-unique-name fallback useless here
      'src/lib.rs': 'pub struct Node; impl Node { fn visit(&self) {} fn weight(&self) -> u8 { 0 } }\npub struct Other; impl Other { fn visit(&self) {} fn weight(&self) -> u8 { 1 } }\npub struct Tree { nodes: Vec<Node> }\nimpl Tree { fn walk(&self) { for n in &self.nodes { n.visit(); } let _w: Vec<u8> = self.nodes.iter().map(|n| n.weight()).collect(); } }',
    }));
    expect(edges(r, 'CALLS')).toEqual(['Tree.walk -> src/lib.rs#Node.visit|method', 'Tree.walk -> src/lib.rs#Node.weight|method']);
  });

  it('prefers an inherent method over a trait impl of the same name, as the compiler does', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': 'pub trait Build { fn add(&mut self); }\npub struct G;\nimpl G { pub fn add(&mut self) {} }\nimpl Build for G { fn add(&mut self) { G::add(self) } }\nfn f(g: &mut G) { g.add(); }',
    }));
    // the two `G.add` share a base id: the inherent `pub fn add` sorts second (`~1`)
    expect(edges(r, 'CALLS').filter((e) => e.startsWith('f '))).toEqual(['f -> src/lib.rs#G.add|method~1']);
  });

  it('makes each file of tests/ a crate of its own, sharing the modules of its subdirectories', () => {
    const r = resolveRepository(parse({
      'tests/a.rs': 'mod common;\nfn helper() {}\n#[test]\nfn t() { helper(); common::setup(); }',
      'tests/b.rs': 'fn helper() {}\n#[test]\nfn u() { helper(); }',
      'tests/common/mod.rs': 'pub fn setup() {}',
    }));
    expect(edges(r, 'CALLS')).toEqual([
      't -> tests/a.rs#helper|function',
      't -> tests/common/mod.rs#setup|function',
      'u -> tests/b.rs#helper|function',
    ]);
  });

  it('counts calls on a value of an unbounded type parameter as dynamic', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': 'pub struct Wrap<S> { inner: S }\nimpl<S> Wrap<S> { fn go(&self) { self.inner.run(); } }\nfn each<T>(t: T) { t.run(); }\nstruct A; impl A { fn run(&self) {} }',
    }));
    expect(misses(r)).toEqual(['Wrap.go self.inner.run: dynamic', 'each t.run: dynamic']);
  });

  it('lets tests/ use the library by its package name', () => {
    const r = resolveRepository(parse({
      'lib/geo/src/lib.rs': 'pub fn area() -> f64 { 1.0 }',
      'lib/geo/tests/it.rs': 'use my_geo::area;\n#[test]\nfn works() { area(); my_geo::area(); }',
    }), { manifests: { 'lib/geo/Cargo.toml': '[package]\nname = "my-geo"\n' } });
    expect(edges(r, 'CALLS')).toEqual(['works -> lib/geo/src/lib.rs#area|function']);
    expect(misses(r)).toEqual([]);
  });

  it('reads items written inside a module-level macro invocation that parses as Rust (petgraph trait_template!)', () => {
    const src = [
      'macro_rules! trait_template { ($($t:tt)*) => { $($t)* }; }', // 1
      'trait_template! {', //                                      2
      '/// Counts nodes.', //                                      3
      'pub trait NodeCount {', //                                  4
      '    @section self', //                                      5
      '    fn node_count(&self) -> usize;', //                     6
      '}', //                                                      7
      '}', //                                                      8
      'pub fn count<G: NodeCount>(g: G) -> usize { g.node_count() }', // 9
      'not_items! { a + b }', //                                  10
      'broken! { fn struct impl }', //                          11
    ].join('\n');
    const file = parser.parseFile('src/lib.rs', src);
    expect(file.errors).toEqual([]);
    expect(file.scopes.map((s) => [s.id, s.startLine, s.endLine])).toEqual([
      ['src/lib.rs#src/lib.rs|file', 1, 11],
      ['src/lib.rs#trait_template!|function', 1, 1],
      ['src/lib.rs#count|function', 9, 9],
      ['src/lib.rs#NodeCount|trait', 4, 7],
      ['src/lib.rs#NodeCount.node_count|method', 6, 6],
    ]);
    expect(file.scopes.find((s) => s.name === 'NodeCount')!.docComment).toBe('Counts nodes.');
    const r = resolveRepository([file]);
    expect(edges(r, 'CALLS')).toEqual(['count -> src/lib.rs#NodeCount.node_count|method', 'src/lib.rs -> src/lib.rs#trait_template!|function']);
  });

  it('finds a re-exported function named like its module, and a glob re-export reached again through a cycle', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': 'pub mod algo;\npub mod visit;\npub mod prelude;',
      'src/algo/mod.rs': 'pub mod dfs;\npub use dfs::dfs;',
      'src/algo/dfs.rs': 'pub fn dfs() {}',
      'src/visit/mod.rs': 'pub use self::filter::*;\npub use self::traversal::*;\nmod filter;\nmod traversal;',
      'src/visit/filter.rs': 'use crate::prelude::*;\npub struct Filtered;',
      'src/visit/traversal.rs': 'pub struct Walk; impl Walk { pub fn new() -> Self { Walk } }',
      'src/prelude.rs': 'pub use crate::visit::Walk;',
      'tests/it.rs': 'use geo::prelude::*;\nuse geo::algo::dfs;\nfn indexmap() {}\nfn t() { Walk::new(); dfs(); }',
      'tests/named.rs': 'use geo::visit::Walk;\nfn geo() {}\nfn u() { Walk::new(); }',
    }), { manifests: { 'Cargo.toml': '[package]\nname = "geo"\n' } });
    expect(edges(r, 'CALLS')).toEqual([
      't -> src/algo/dfs.rs#dfs|function',
      't -> src/visit/traversal.rs#Walk.new|method',
      'u -> src/visit/traversal.rs#Walk.new|method',
    ]);
  });

  it('counts a call on a value returned as a std type as builtin; an unknown receiver lands on a trait item every same-named method implements', () => {
    const r = resolveRepository(parse({
      'src/lib.rs': [
        'pub struct Map { v: Vec<u8> }',
        'impl Map { fn entries(&self) -> &[u8] { &self.v } fn go(&self) { self.entries().first(); let e = self.entries(); e.last(); } }',
        'pub trait EdgeRef { fn target(&self) -> u8; }',
        'pub struct E; impl EdgeRef for E { fn target(&self) -> u8 { 0 } }',
        'pub struct F; impl EdgeRef for F { fn target(&self) -> u8 { 1 } }',
        'pub fn walk(xs: Vec<u8>) { xs.iter().for_each(|e| { e.target(); }); }',
      ].join('\n'),
    }));
    expect(edges(r, 'CALLS').filter((e) => e.includes('target'))).toEqual(['walk -> src/lib.rs#EdgeRef.target|method']);
    expect(misses(r).filter((m) => /first|last|target/.test(m))).toEqual(['Map.go e.last: builtin', 'Map.go self.entries().first: builtin']);
  });

  it('makes enum variants members of their enum (kind variable); constructing one calls the variant', () => {
    const file = parser.parseFile('src/lib.rs', '/// Shapes.\npub enum Shape {\n    /// Round.\n    Circle(f64),\n    Square { side: f64 },\n    Dot,\n}\npub fn make() -> Shape { let _s = Shape::Square { side: 1.0 }; Shape::Circle(1.0) }');
    expect(file.errors).toEqual([]);
    expect(file.scopes.filter((s) => s.kind === 'variable').map((s) => [s.id, s.startLine, s.signature, s.docComment, s.exported])).toEqual([
      ['src/lib.rs#Shape.Circle|variable', 4, 'Circle(f64)', 'Round.', true],
      ['src/lib.rs#Shape.Square|variable', 5, 'Square { side: f64 }', null, true],
      ['src/lib.rs#Shape.Dot|variable', 6, 'Dot', null, true],
    ]);
    expect(edges(resolveRepository([file]), 'CALLS')).toEqual(['make -> src/lib.rs#Shape.Circle|variable', 'make -> src/lib.rs#Shape.Square|variable']);
  });
});

