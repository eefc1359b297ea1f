import { ParserService } from '../../parse/parser.service';
import { PY_PARAM } from './py-unresolved';
import type { ParsedFile, TypedBinding } from '../../parse/types';

const parser = new ParserService({ languages: ['python'] });
beforeAll(() => parser.init());

function table(f: ParsedFile): [string, string, string, number, number][] {
  return f.scopes.map((s) => [s.id, s.kind, s.qualifiedName, s.startLine, s.endLine]);
}

function refs(f: ParsedFile): string[] {
  return f.references.map((r) => `${r.fromId.split('#')[1].split('|')[0]} ${r.kind} ${r.targetName} @${r.line}`);
}

describe('PythonExtractor', () => {
  const src = [
    '"""Orders module."""', //                                   1
    'import os.path', //                                         2
    'import numpy as np', //                                     3
    'from .base import Model, helper as h', //                   4
    'from .. import utils', //                                   5
    '', //                                                       6
    '', //                                                       7
    '# Registry of handlers.', //                                8
    'HANDLERS = {"a": 1}', //                                    9
    'on_event = lambda e: h(e)', //                              10
    '', //                                                       11
    '', //                                                       12
    '@dataclass', //                                             13
    'class Order(Model, mixins.Printable):', //                  14
    '    """An order.', //                                       15
    '', //                                                       16
    '    Has lines.', //                                         17
    '    """', //                                                18
    '', //                                                       19
    '    def __init__(self, repo: Repo, lines: "List[Line]"):', // 20
    '        super().__init__()', //                             21
    '        self.repo = repo', //                               22
    '', //                                                       23
    '    # Sum of the lines.', //                                24
    '    def total(self) -> Money:', //                          25
    '        def add(a, b):', //                                 26
    '            return a + b', //                               27
    '        self.repo.load(self)', //                           28
    '        return utils.reduce(add, np.array([]))', //         29
    '', //                                                       30
    '', //                                                       31
    'def _private():', //                                        32
    '    pass', //                                               33
  ].join('\n');

  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('shop/orders.py', src);
  });

  it('extracts the exact scope list', () => {
    expect(f.errors).toEqual([]);
    expect(table(f)).toEqual([
      ['shop/orders.py#shop/orders.py|file', 'file', 'shop/orders.py', 1, 33],
      ['shop/orders.py#HANDLERS|variable', 'variable', 'HANDLERS', 9, 9],
      ['shop/orders.py#on_event|function', 'function', 'on_event', 10, 10],
      ['shop/orders.py#Order|class', 'class', 'Order', 13, 29],
      ['shop/orders.py#Order.__init__|constructor', 'constructor', 'Order.__init__', 20, 22],
      ['shop/orders.py#Order.total|method', 'method', 'Order.total', 25, 29],
      ['shop/orders.py#Order.total.add|function', 'function', 'Order.total.add', 26, 27],
      ['shop/orders.py#_private|function', 'function', '_private', 32, 33],
    ]);
  });

  it('uses docstrings, then # comments, as doc comments', () => {
    const by = new Map(f.scopes.map((s) => [s.qualifiedName, s]));
    expect(by.get('shop/orders.py')!.docComment).toBe('Orders module.');
    expect(by.get('Order')!.docComment).toBe('An order.\n\nHas lines.');
    expect(by.get('Order.total')!.docComment).toBe('Sum of the lines.');
    expect(by.get('HANDLERS')!.docComment).toBe('Registry of handlers.');
    expect(by.get('Order')!.signature).toBe('class Order(Model, mixins.Printable)');
    expect(by.get('Order.total')!.signature).toBe('def total(self) -> Money');
    expect(by.get('Order')!.exported).toBe(true);
    expect(by.get('_private')!.exported).toBe(false);
    expect(by.get('Order.total.add')!.parentId).toBe('shop/orders.py#Order.total|method');
  });

  it('records calls, bases and annotation references', () => {
    expect(refs(f)).toEqual([
      'on_event CALLS h @10',
      'Order CALLS dataclass @13',
      'Order EXTENDS Model @14',
      'Order EXTENDS mixins.Printable @14',
      'Order.__init__ REFERENCES Repo @20',
      'Order.__init__ CALLS super.__init__ @21',
      'Order.total REFERENCES Money @25',
      'Order.total CALLS self.repo.load @28',
      'Order.total CALLS utils.reduce @29',
      'Order.total CALLS np.array @29',
    ]);
  });

  it('records imports and self.x bindings', () => {
    expect(f.imports).toEqual([
      { fromPath: 'shop/orders.py', specifier: 'os.path', names: [{ imported: '*', local: 'os.path' }], isNamespace: true, line: 2 },
      { fromPath: 'shop/orders.py', specifier: 'numpy', names: [{ imported: '*', local: 'np' }], isNamespace: true, line: 3 },
      { fromPath: 'shop/orders.py', specifier: '.base', names: [{ imported: 'Model', local: 'Model' }, { imported: 'helper', local: 'h' }], line: 4 },
      { fromPath: 'shop/orders.py', specifier: '..', names: [{ imported: 'utils', local: 'utils' }], line: 5 },
    ]);
    expect((f.bindings as TypedBinding[]).filter((b) => !b.name.startsWith(PY_PARAM))).toEqual([
      { scopeId: 'shop/orders.py#Order.__init__|constructor', name: 'repo', typeName: 'Repo', member: false },
      { scopeId: 'shop/orders.py#Order|class', name: 'repo', typeName: 'Repo', member: true },
    ]);
    // every parameter but self is marked (calls through them are dynamic: ./py-unresolved.ts)
    expect((f.bindings as TypedBinding[]).filter((b) => b.name.startsWith(PY_PARAM) && b.scopeId.endsWith('__init__|constructor')).map((b) => b.name)).toEqual([`${PY_PARAM}repo`, `${PY_PARAM}lines`]);
  });
});
