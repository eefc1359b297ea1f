import { ParserService } from '../../parse/parser.service';
import type { ParsedFile, TypedBinding } from '../../parse/types';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';

const parser = new ParserService({ languages: ['java'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>): ParsedFile[] => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const short = (id: string) => id.slice(id.indexOf('#') + 1);
const edges = (r: ResolveResult, type: string) => r.edges.filter((e) => e.type === type).map((e) => `${short(e.fromId)} -> ${short(e.toId)}`).sort();
const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}: ${u.reason}`).sort();

describe('JavaExtractor', () => {
  const src = [
    'package com.acme.shop;', //                                               1
    '', //                                                                     2
    'import java.util.List;', //                                               3
    'import com.acme.data.*;', //                                              4
    'import static com.acme.util.Checks.notNull;', //                          5
    '', //                                                                     6
    '/**', //                                                                  7
    ' * Handles orders.', //                                                   8
    ' *   indented line', //                                                   9
    ' */', //                                                                  10
    '@Service', //                                                             11
    'public class OrderService<T extends Order> extends Base implements Api, Closeable {', // 12
    '    public static final int MAX = 3;', //                                 13
    '    private final Repo repo;', //                                         14
    '    /** Makes one. */', //                                                15
    '    @Inject public OrderService(Repo repo) { super(repo); this.repo = repo; }', // 16
    '    public void place(T order) { place(order, 1); }', //                  17
    '    protected void place(T order, int qty) { var line = new Line(qty); line.add(order); }', // 18
    '    void each(List<Order> xs, String... names) { for (Order o : xs) o.ship(); }', // 19
    '    static class Line { Line(int q) {} void add(Object o) {} }', //      20
    '    interface Api { void close(); }', //                                 21
    '    enum Kind { A { void m() {} }, B; void m() {} }', //                 22
    '    record Pair(String left, int right) implements Api { public void close() {} }', // 23
    '}', //                                                                    24
  ].join('\n');
  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('src/main/java/com/acme/shop/OrderService.java', src);
  });

  it('parses valid code without errors', () => {
    expect(f.errors).toEqual([]);
  });

  it('makes the package a namespace and leaves it out of qualified names; overloads get ~N', () => {
    expect(f.scopes.map((s) => `${short(s.id)} ${s.startLine}-${s.endLine} ${s.exported ?? ''}`)).toEqual([
      'src/main/java/com/acme/shop/OrderService.java|file 1-24 ',
      'com.acme.shop|namespace 1-24 ',
      'OrderService|class 11-24 true',
      'OrderService.MAX|property 13-13 true',
      'OrderService.OrderService|constructor 16-16 true',
      // overloads are ordered by signature: `protected ...` before `public ...`
      'OrderService.place|method~1 17-17 true',
      'OrderService.place|method 18-18 true',
      'OrderService.each|method 19-19 false',
      'OrderService.Line|class 20-20 false',
      'OrderService.Line.Line|constructor 20-20 false',
      'OrderService.Line.add|method 20-20 false',
      'OrderService.Api|interface 21-21 false',
      'OrderService.Api.close|method 21-21 true',
      'OrderService.Kind|enum 22-22 false',
      'OrderService.Kind.m|method 22-22 false',
      'OrderService.Kind.A|variable 22-22 false',
      'OrderService.Kind.m|method~1 22-22 false',
      'OrderService.Kind.B|variable 22-22 false',
      'OrderService.Pair|record 23-23 false',
      'OrderService.Pair.close|method 23-23 true',
      'OrderService.Pair.left|method 23-23 false',
      'OrderService.Pair.right|method 23-23 false',
    ]);
  });

  it('takes declaration headers without annotations and Javadoc without its stars', () => {
    const by = (q: string) => f.scopes.find((s) => s.id.endsWith(`#${q}`))!;
    expect(by('OrderService|class').signature).toBe('public class OrderService<T extends Order> extends Base implements Api, Closeable');
    expect(by('OrderService|class').docComment).toBe('Handles orders.\n  indented line');
    expect(by('OrderService.OrderService|constructor').signature).toBe('public OrderService(Repo repo)');
    expect(by('OrderService.OrderService|constructor').docComment).toBe('Makes one.');
    expect(by('OrderService.MAX|property').signature).toBe('public static final int MAX');
    expect(by('OrderService.each|method').signature).toBe('void each(List<Order> xs, String... names)');
  });

  it('records imports, heritage, calls as written and typed bindings (type parameters as their bounds)', () => {
    expect(f.imports.map((i) => `${i.specifier} ${i.names.map((n) => n.imported).join(',')}${i.isStatic ? ' static' : ''}${i.isNamespace ? ' *' : ''}`)).toEqual([
      'java.util.List List', 'com.acme.data * *', 'com.acme.util.Checks notNull static',
    ]);
    const refs = f.references.filter((r) => r.kind !== 'REFERENCES').map((r) => `${short(r.fromId).split('|')[0]} ${r.kind} ${r.targetName}`);
    expect(refs).toEqual(expect.arrayContaining([
      'OrderService EXTENDS Base', 'OrderService IMPLEMENTS Api', 'OrderService IMPLEMENTS Closeable',
      'OrderService.OrderService CALLS super', 'OrderService.place CALLS place', 'OrderService.place CALLS Line',
      'OrderService.place CALLS line.add', 'OrderService.each CALLS o.ship', 'OrderService.Pair IMPLEMENTS Api',
    ]));
    const bindings = (f.bindings as TypedBinding[]).filter((b) => !b.name.startsWith('(')).map((b) => `${short(b.scopeId).split('|')[0]} ${b.name}: ${b.typeName}${b.member ? ' (member)' : ''}`);
    expect(bindings).toEqual(expect.arrayContaining([
      'OrderService repo: Repo (member)', 'OrderService.place order: Order', 'OrderService.place line: Line',
      'OrderService.each xs: List', 'OrderService.each o: Order', 'OrderService.Kind A: Kind (member)',
      'OrderService.Pair left: String (member)',
    ]));
  });
});

describe('JavaResolver', () => {
  let repo: ParsedFile[];
  let r: ResolveResult;
  beforeAll(() => {
    repo = parse({
    'a/Base.java': 'package com.acme.a;\npublic abstract class Base { protected Helper helper; public void run() {} public abstract String name(); }',
    'a/Helper.java': 'package com.acme.a;\nclass Helper { void help() {} Helper self() { return this; } static Helper make() { return new Helper(); } }',
    'a/Util.java': 'package com.acme.a;\npublic final class Util { public static int twice(int x) { return x * 2; } public static String twice(String s) { return s + s; } public static class Box { public Box(int n) {} public Box(String s) {} } }',
    'b/Impl.java': [
      'package com.acme.b;',
      'import com.acme.a.Base;',
      'import com.acme.a.Util.Box;',
      'import static com.acme.a.Util.twice;',
      'import org.slf4j.Logger;',
      'import java.util.function.Supplier;',
      'public class Impl extends Base {',
      '  private Logger log;',
      '  private Supplier<String> names = () -> "x";',
      '  @Override public String name() { return names.get(); }',
      '  void run(int times) { helper.self().help(); name().trim(); }',
      '  void go(Runnable r) {',
      '    run(); helper.help(); twice(2); twice("s"); new Box(1);',
      '    var other = new Impl(); other.name(); super.run();',
      '    com.acme.a.Util.twice(3); log.info("x"); r.run(); toString(); missing();',
      '  }',
      '}',
    ].join('\n'),
    });
    r = resolveRepository(repo);
  });

  it('resolves across packages (imports, static imports, nested types, fully qualified names) and inside one without imports', () => {
    expect(edges(r, 'CALLS')).toEqual([
      'Helper.make|method -> Helper|class', // no constructor declared: the class
      'Impl.go|method -> Base.run|method',
      'Impl.go|method -> Helper.help|method',
      'Impl.go|method -> Impl.name|method',
      'Impl.go|method -> Impl|class',
      'Impl.go|method -> Util.Box.Box|constructor~1', // Box(int): `new Box(1)`
      'Impl.go|method -> Util.twice|method',
      'Impl.go|method -> Util.twice|method~1',
      // a call on a call's result continues from the declared return type; overloads are inherited
      'Impl.run|method -> Helper.help|method',
      'Impl.run|method -> Helper.self|method',
      'Impl.run|method -> Impl.name|method',
    ]);
    expect(edges(r, 'EXTENDS')).toEqual(['Impl|class -> Base|class']);
    // run(int) does not override run(): only same-signature methods are overrides
    expect(edges(r, 'OVERRIDES')).toEqual(['Impl.name|method -> Base.name|method']);
    expect(edges(r, 'IMPORTS')).toEqual(['b/Impl.java|file -> a/Base.java|file', 'b/Impl.java|file -> a/Util.java|file']);
  });

  it('picks overloads by the arguments written', () => {
    const twice = r.edges.filter((e) => e.type === 'CALLS' && e.toId.includes('Util.twice'));
    expect(twice.map((e) => short(e.toId)).sort()).toEqual(['Util.twice|method', 'Util.twice|method~1']);
    const only = resolveRepository([...repo.slice(0, 3), parser.parseFile('c/C.java', 'package com.acme.c;\nimport com.acme.a.Util;\nclass C { void f() { Util.twice(1); new Util.Box("s"); } }')]);
    expect(edges(only, 'CALLS').filter((e) => e.startsWith('C.f'))).toEqual([
      'C.f|method -> Util.Box.Box|constructor', // Box(String)
      'C.f|method -> Util.twice|method~1', // twice(int)
    ]);
  });

  it('calls a call with more than three overloads left by its arguments ambiguous', () => {
    const many = resolveRepository(parse({
      'P.java': [
        'class P {',
        '  void put(int v) {} void put(long v) {} void put(char v) {} void put(Object v) {} void put(String v) {}',
        '  void known() { put("s"); }',
        '  void unknown(java.util.List<Object> xs) { put(xs.get(0)); }',
        '}',
      ].join('\n'),
    }));
    expect(edges(many, 'CALLS')).toEqual(['P.known|method -> P.put|method~1']); // put(String): ids follow the signatures' order
    expect(misses(many)).toEqual(['put: ambiguous', 'xs.get: builtin']);
  });

  it('labels what is not in the repository: platform builtin, dependencies external, lambdas dynamic', () => {
    expect(misses(r)).toEqual([
      'log.info: external', 'missing: not-found', 'name().trim: builtin', 'names.get: dynamic', 'r.run: dynamic', 'toString: builtin',
    ]);
  });

  it('links a method to the base overload with its parameter types only (generic parameters match any type)', () => {
    const r = resolveRepository([
      parser.parseFile('src/a/Base.java', 'package a;\npublic abstract class Base<T> {\n  public void put(String k) {}\n  public void put(String k, int v) {}\n  public void take(T item) {}\n  public void all(String... ks) {}\n}'),
      parser.parseFile('src/a/Impl.java', 'package a;\npublic class Impl extends Base<Integer> {\n  @Override public void put(String k) {}\n  @Override public void take(Integer item) {}\n  @Override public void all(String[] ks) {}\n}'),
    ]);
    expect(r.edges.filter((e) => e.type === 'OVERRIDES').map((e) => `${e.fromId.split('#')[1]} -> ${e.toId.split('#')[1]}`).sort()).toEqual([
      'Impl.all|method -> Base.all|method',
      'Impl.put|method -> Base.put|method',
      'Impl.take|method -> Base.take|method',
    ]);
  });
});

