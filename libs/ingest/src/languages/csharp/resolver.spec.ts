import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';

const parser = new ParserService({ languages: ['csharp'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const calls = (r: ResolveResult) =>
  r.edges.filter((e) => e.type === 'CALLS').map((e) => `${e.fromId.split('#')[1].split('|')[0]} -> ${e.toId.split('#')[1].split('|')[0]}`).sort();
const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}:${u.reason}${u.origin ? `(${u.origin})` : ''}`).sort();

const MODEL = [
  'namespace Shop.Model {',
  '  public class Line { public void Touch() {} }',
  '  public class Order {',
  '    public List<Line> Lines { get; }',
  '    public Line First() { return null; }',
  '    public Task<Line> LastAsync() { return null; }',
  '    public Line[] All() { return null; }',
  '    public void Save() {}',
  '  }',
  '  public class Repo { public Order Find(int id) { return null; } public static Repo Open() { return null; } }',
  '}',
].join('\n');

describe('CSharpResolver: receivers typed through declarations', () => {
  it('types `var` locals from calls, properties, casts, awaits, foreach elements and patterns', () => {
    const r = resolveRepository(parse({
      'Model.cs': MODEL,
      'Service.cs': [
        'using System.Collections.Generic;',
        'using Shop.Model;',
        'namespace Shop.App {',
        '  public class Service {',
        '    private readonly Repo _repo = Repo.Open();',
        '    public async void Run(object o) {',
        '      var order = _repo.Find(1);', // var from a method's declared result
        '      order.Save();',
        '      var first = order.First();',
        '      first.Touch();',
        '      foreach (var line in order.Lines) line.Touch();', // element of List<Line>
        '      foreach (var l2 in order.All()) l2.Touch();', // element of Line[]
        '      var last = await order.LastAsync();', // Task<Line> awaited
        '      last.Touch();',
        '      var cast = (Order)o;',
        '      cast.Save();',
        '      if (o is Line pat) pat.Touch();',
        '      var repo = Repo.Open();',
        '      repo.Find(2).Save();',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual([
      'Shop.App.Service -> Shop.Model.Repo.Open', // the field's initializer
      'Shop.App.Service.Run -> Shop.Model.Line.Touch',
      'Shop.App.Service.Run -> Shop.Model.Order.All',
      'Shop.App.Service.Run -> Shop.Model.Order.First',
      'Shop.App.Service.Run -> Shop.Model.Order.LastAsync',
      'Shop.App.Service.Run -> Shop.Model.Order.Save',
      'Shop.App.Service.Run -> Shop.Model.Repo.Find',
      'Shop.App.Service.Run -> Shop.Model.Repo.Open',
    ]);
    // every Touch/Save site above resolved: nothing left unknown
    expect(misses(r).filter((m) => m.includes('unknown-receiver') || m.includes('not-found'))).toEqual([]);
  });

  it('finds in-repo extension methods on in-repo and outside receivers, and not on unrelated ones', () => {
    const r = resolveRepository(parse({
      'Model.cs': MODEL,
      'Ext.cs': [
        'using System;',
        'namespace Shop.Util {',
        '  public static class OrderExtensions {',
        '    public static void Archive(this Order o) {}',
        '    public static bool IsGenericish(this Type t) { return false; }',
        '    public static bool StartsWith(this string s, char c) { return false; }',
        '    public static string Shout(this string s) { return s; }',
        '  }',
        '}',
      ].join('\n'),
      'Use.cs': [
        'using System;',
        'using Shop.Model;',
        'using Shop.Util;',
        'namespace Shop.App {',
        '  class Use {',
        '    void Go(Order order, Type type, Line line) {',
        '      order.Archive();',
        '      type.IsGenericish();',
        '      line.Archive();', // Archive extends Order, not Line
        '      string name = "a";',
        '      name.StartsWith("x", StringComparison.Ordinal);', // string's own method wins
        '      name.Shout();',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual([
      'Shop.App.Use.Go -> Shop.Util.OrderExtensions.Archive',
      'Shop.App.Use.Go -> Shop.Util.OrderExtensions.IsGenericish',
      'Shop.App.Use.Go -> Shop.Util.OrderExtensions.Shout',
    ]);
    expect(misses(r)).toContain('name.StartsWith:builtin(string)');
    expect(misses(r)).toContain('line.Archive:not-found');
  });

  it('calls an extension method, not a same-named static one, through an instance', () => {
    const r = resolveRepository(parse({
      'Ref.cs': [
        'namespace P {',
        '  struct Ref {',
        '    internal static bool IsNull(in Ref r) { return true; }',
        '    void Check() { if (this.IsNull()) {} if (IsNull(this)) {} }',
        '  }',
        '  static class RefExtensions { public static bool IsNull(this in Ref r) { return Ref.IsNull(r); } }',
        '}',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual(['P.Ref.Check -> P.Ref.IsNull', 'P.Ref.Check -> P.RefExtensions.IsNull', 'P.RefExtensions.IsNull -> P.Ref.IsNull']);
    const check = r.edges.filter((e) => e.type === 'CALLS' && e.fromId.includes('Check')).map((e) => `${e.line} ${e.toId.split('#')[1].split('|')[0]}`).sort();
    expect(check).toEqual(['4 P.Ref.IsNull', '4 P.RefExtensions.IsNull']);
  });

  it('takes `: this(...)` to the constructors, and no extension method for an unknown receiver when a type has the method', () => {
    const r = resolveRepository(parse({
      'J.cs': [
        'namespace J {',
        '  public class Token { public Token(int a) {} public Token() : this(1) {} public Token[] Children() { return null; } }',
        '  public static class Extensions { public static Token[] Children(this Token[] source) { return null; } public static void Only(this Token[] s) {} }',
        '  class Use { void Go(Token[] ts) { Each(ts, t => t.Children()); Each(ts, t => t.Only()); } void Each(Token[] a, object f) {} }',
        '}',
      ].join('\n'),
    }));
    // both constructors (an overload set, as for base(...)); never the class
    expect(calls(r)).toEqual(['J.Token.Token -> J.Token.Token', 'J.Token.Token -> J.Token.Token', 'J.Use.Go -> J.Extensions.Only', 'J.Use.Go -> J.Use.Each']);
    expect(misses(r)).toContain('t.Children:unknown-receiver');
  });

  it('does not take a constructor for the class in `Assert.That` inside class Assert', () => {
    const r = resolveRepository(parse({
      'Assert.cs': 'namespace T { public class Assert { protected Assert() {} public static void That(bool b) {} public static void True(bool b) { Assert.That(b); } } }',
    }));
    expect(calls(r)).toEqual(['T.Assert.True -> T.Assert.That']);
  });
});

describe('CSharpResolver: why a call stays unresolved', () => {
  it('delegates are dynamic, types from usings external (named), members of outside bases external, the rest misses', () => {
    const r = resolveRepository(parse({
      'Model.cs': MODEL,
      'Svc.cs': [
        'using System;',
        'using System.Collections.Concurrent;',
        'using System.Runtime.InteropServices;',
        'using Shop.Model;',
        'namespace Shop.App {',
        '  class Failure : ApplicationException { public Failure(string m) : base(m) {} void F() { GetBaseException(); } }',
        '  class Svc {',
        '    private readonly Func<int, int> _map;',
        '    private readonly ConcurrentDictionary<string, Order> _cache = new ConcurrentDictionary<string, Order>();',
        '    public Action OnDone { get; set; }',
        '    void Go(Func<int> make, Order order, dynamicThing x) {',
        '      make();', // a parameter of function type
        '      _map(1);', // a field
        '      Marshal.Copy(null, 0, IntPtr.Zero, 0);', // a static class from a using
        '      _cache.GetOrAdd("a", null);', // a field of an outside type
        '      order.Missing();', // a typed receiver lacking the member: a real miss
        '      Nowhere();', // nothing declares it
        '    }',
        '  }',
        '}',
      ].join('\n'),
    }));
    expect(misses(r)).toEqual([
      'ConcurrentDictionary:external(ConcurrentDictionary)', // `new` of a type from a using
      'GetBaseException:external',
      'Marshal.Copy:external(Marshal)',
      'Nowhere:not-found',
      '_cache.GetOrAdd:external(ConcurrentDictionary)',
      '_map:dynamic',
      'base:external',
      'make:dynamic',
      'order.Missing:not-found',
    ]);
  });
});
