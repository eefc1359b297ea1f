import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';
import { evalCondition } from './extractor';

const parser = new ParserService({ languages: ['csharp'] });
beforeAll(() => parser.init());

function table(f: ParsedFile): [string, string, string, number, number][] {
  return f.scopes.map((s) => [s.id, s.kind, s.qualifiedName, s.startLine, s.endLine]);
}

function refs(f: ParsedFile): string[] {
  return f.references.map((r) => {
    const from = r.fromId.split('#')[1].split('|')[0].replace('Shop.Orders.', '');
    return `${from} ${r.kind} ${r.targetName} @${r.line}${r.targetLanguage ? ` (${r.targetLanguage})` : ''}`;
  });
}

describe('CSharpExtractor', () => {
  const src = [
    'using System;', //                                                        1
    'using Shop.Data;', //                                                     2
    'using Db = Shop.Data.Sql;', //                                            3
    '', //                                                                     4
    'namespace Shop.Orders', //                                                5
    '{', //                                                                    6
    '    /// <summary>Handles orders.</summary>', //                           7
    '    [Service]', //                                                        8
    '    public class OrderService : ServiceBase<Order>, IOrderService', //    9
    '    {', //                                                                10
    '        private readonly IOrderRepository _repo;', //                     11
    '        public OrderService(IOrderRepository repo) : base(repo) { _repo = repo; }', // 12
    '        public int Count { get; private set; }', //                       13
    '        public void Place(Order order) { Place(order, 1); }', //          14
    '        public void Place(Order order, int qty)', //                      15
    '        {', //                                                            16
    '            var cmd = new SqlCommand("usp_PlaceOrder", _conn);', //       17
    '            cmd.CommandText = "SELECT * FROM [dbo].[Order] o JOIN dbo.Line l ON l.OrderId = o.Id";', // 18
    '            _repo.Save(order);', //                                       19
    '            int Twice(int x) => x * 2;', //                               20
    '            Log.Write("dbo.Order saved");', //                           21
    '        }', //                                                            22
    '        public struct Key { }', //                                        23
    '    }', //                                                                24
    '    public interface IOrderService : IDisposable { void Place(Order order); }', // 25
    '    public record OrderDto(int Id) : Dto;', //                           26
    '    public enum Status { Open, Closed }', //                              27
    '}', //                                                                    28
  ].join('\n');

  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('src/Orders/OrderService.cs', src);
  });

  it('extracts the exact scope list, with overloads told apart by signature', () => {
    expect(f.errors).toEqual([]);
    const P = 'src/Orders/OrderService.cs';
    expect(table(f)).toEqual([
      [`${P}#${P}|file`, 'file', P, 1, 28],
      [`${P}#Shop.Orders|namespace`, 'namespace', 'Shop.Orders', 5, 28],
      [`${P}#Shop.Orders.OrderService|class`, 'class', 'Shop.Orders.OrderService', 8, 24],
      [`${P}#Shop.Orders.OrderService.OrderService|constructor`, 'constructor', 'Shop.Orders.OrderService.OrderService', 12, 12],
      [`${P}#Shop.Orders.OrderService.Count|property`, 'property', 'Shop.Orders.OrderService.Count', 13, 13],
      [`${P}#Shop.Orders.OrderService.Place|method`, 'method', 'Shop.Orders.OrderService.Place', 14, 14],
      [`${P}#Shop.Orders.OrderService.Place|method~1`, 'method', 'Shop.Orders.OrderService.Place', 15, 22],
      [`${P}#Shop.Orders.OrderService.Place.Twice|function`, 'function', 'Shop.Orders.OrderService.Place.Twice', 20, 20],
      [`${P}#Shop.Orders.OrderService.Key|struct`, 'struct', 'Shop.Orders.OrderService.Key', 23, 23],
      [`${P}#Shop.Orders.IOrderService|interface`, 'interface', 'Shop.Orders.IOrderService', 25, 25],
      [`${P}#Shop.Orders.IOrderService.Place|method`, 'method', 'Shop.Orders.IOrderService.Place', 25, 25],
      [`${P}#Shop.Orders.OrderDto|record`, 'record', 'Shop.Orders.OrderDto', 26, 26],
      [`${P}#Shop.Orders.Status|enum`, 'enum', 'Shop.Orders.Status', 27, 27],
    ]);
  });

  it('fills signatures, XML docs and exported', () => {
    const by = new Map(f.scopes.map((s) => [s.id.split('#')[1], s]));
    const cls = by.get('Shop.Orders.OrderService|class')!;
    expect(cls.signature).toBe('public class OrderService : ServiceBase<Order>, IOrderService');
    expect(cls.docComment).toBe('Handles orders.');
    expect(cls.exported).toBe(true);
    expect(by.get('Shop.Orders.OrderService.Count|property')!.signature).toBe('public int Count { get; private set; }');
    expect(by.get('Shop.Orders.OrderService.Place|method~1')!.signature).toBe('public void Place(Order order, int qty)');
    expect(by.get('Shop.Orders.OrderService.Place.Twice|function')!.parentId).toBe('src/Orders/OrderService.cs#Shop.Orders.OrderService.Place|method~1');
  });

  it('records calls, base lists, type references and SQL names in strings', () => {
    expect(refs(f)).toEqual([
      'OrderService EXTENDS ServiceBase @9',
      'OrderService REFERENCES Order @9',
      'OrderService IMPLEMENTS IOrderService @9',
      'OrderService REFERENCES IOrderRepository @11',
      'OrderService.OrderService REFERENCES IOrderRepository @12',
      'OrderService.OrderService CALLS base @12',
      'OrderService.Place REFERENCES Order @14',
      'OrderService.Place CALLS Place @14',
      'OrderService.Place REFERENCES Order @15',
      'OrderService.Place CALLS SqlCommand @17',
      'OrderService.Place REFERENCES usp_PlaceOrder @17 (sql)',
      'OrderService.Place REFERENCES dbo.Order @18 (sql)',
      'OrderService.Place REFERENCES dbo.Line @18 (sql)',
      'OrderService.Place CALLS _repo.Save @19',
      'OrderService.Place CALLS Log.Write @21',
      'IOrderService EXTENDS IDisposable @25',
      'IOrderService.Place REFERENCES Order @25',
      'OrderDto EXTENDS Dto @26',
    ]);
  });

  it('records usings and typed bindings', () => {
    expect(f.imports).toEqual([
      { fromPath: 'src/Orders/OrderService.cs', specifier: 'System', names: [{ imported: '*', local: '*' }], isNamespace: true, line: 1 },
      { fromPath: 'src/Orders/OrderService.cs', specifier: 'Shop.Data', names: [{ imported: '*', local: '*' }], isNamespace: true, line: 2 },
      { fromPath: 'src/Orders/OrderService.cs', specifier: 'Shop.Data.Sql', names: [{ imported: '*', local: 'Db' }], isNamespace: true, line: 3 },
    ]);
    expect(f.bindings).toEqual(expect.arrayContaining([
      { scopeId: 'src/Orders/OrderService.cs#Shop.Orders.OrderService|class', name: '_repo', typeName: 'IOrderRepository', member: true },
      { scopeId: 'src/Orders/OrderService.cs#Shop.Orders.OrderService.Place|method~1', name: 'cmd', typeName: 'SqlCommand', member: false },
    ]));
  });

  it('handles file-scoped namespaces and interpolated / verbatim / concatenated SQL', () => {
    const g = parser.parseFile('Repo.cs', [
      'namespace Shop.Data;',
      'internal class Repo',
      '{',
      '    string A() => $"EXEC dbo.usp_Get {id}";',
      '    string B() => @"SELECT *',
      '                    FROM [sales].[Invoice]";',
      '    string C() => "SELECT a " + "FROM dbo.Archive " + where;',
      '    string D() => "Hello world";',
      '    string E() => "appsettings.json";',
      '}',
    ].join('\n'));
    expect(g.scopes.map((s) => s.qualifiedName)).toEqual(['Repo.cs', 'Shop.Data', 'Shop.Data.Repo', 'Shop.Data.Repo.A', 'Shop.Data.Repo.B', 'Shop.Data.Repo.C', 'Shop.Data.Repo.D', 'Shop.Data.Repo.E']);
    expect(g.scopes[2].exported).toBe(false);
    expect(g.references.filter((r) => r.targetLanguage === 'sql').map((r) => `${r.targetName}@${r.line}`)).toEqual([
      'dbo.usp_Get@4', 'sales.Invoice@6', 'dbo.Archive@7',
    ]);
  });

  it('parses the branches active with no symbol defined, so a base list split by directives keeps its type whole', () => {
    const src = [
      'namespace N {', //                                   1
      '  public class C : B, I1', //                        2
      '#if !(PORTABLE)', //                                 3
      '    , I2', //                                         4
      '#elif X', //                                         5
      '    , I3', //                                         6
      '#endif', //                                          7
      '  {', //                                             8
      '#if NET20', //                                       9
      '    void Old() {}', //                               10
      '#else', //                                           11
      '    void New() {}', //                               12
      '#endif', //                                          13
      '    void M() { Old(); }', //                         14
      '  }', //                                             15
      '}', //                                               16
    ].join('\n');
    const f = parser.parseFile('C.cs', src);
    expect(f.errors).toEqual([]);
    expect(f.scopes.map((s) => `${s.qualifiedName}@${s.startLine}-${s.endLine}`)).toEqual(['C.cs@1-16', 'N@1-16', 'N.C@2-15', 'N.C.New@12-12', 'N.C.M@14-14']);
    expect(f.references.filter((r) => r.kind === 'IMPLEMENTS').map((r) => r.targetName)).toEqual(['I1', 'I2']);
    // the scope's text is the file's, directives included
    expect(f.scopes[2].source).toContain('#elif X');
  });

  it('reads #if conditions with every symbol undefined', () => {
    expect(evalCondition('NET20')).toBe(false);
    expect(evalCondition('!(NETFX_CORE || PORTABLE40 || PORTABLE)')).toBe(true);
    expect(evalCondition('!NET20 && (true || X)')).toBe(true);
    expect(evalCondition('DEBUG == false')).toBe(true);
    expect(evalCondition('A ||')).toBeNull();
    expect(evalCondition('NET_4_5 > 1')).toBeNull();
  });

  it('records what declarations type: call results, element types, extension targets, `new` marks', () => {
    const f = parser.parseFile('S.cs', [
      'namespace N {',
      '  static class S {',
      '    static Task<Order> Load(this Repo r) { return null; }',
      '    static List<Line> Lines;',
      '    static void Go(Order[] all) {',
      '      var a = Load(null);',
      '      var b = all;',
      '      var c = new Line();',
      '      foreach (var l in Lines) {}',
      '      Get(out Order o);',
      '    }',
      '  }',
      '}',
    ].join('\n'));
    const b = (f.bindings ?? []).map((x) => `${x.scopeId.split('#')[1].split('|')[0]} ${x.name}: ${x.typeName}`);
    expect(b).toEqual(expect.arrayContaining([
      'N.S.Load (): Order', // Task<Order> unwrapped
      'N.S.Load this: Repo',
      'N.S Lines: List',
      'N.S Lines[]: Line',
      'N.S.Go all[]: Order',
      'N.S.Go a: =Load()',
      'N.S.Go b: =all',
      'N.S.Go c: Line',
      'N.S.Go new Line: Line',
      'N.S.Go l: =Lines[]',
      'N.S.Go o: Order',
    ]));
  });
});
