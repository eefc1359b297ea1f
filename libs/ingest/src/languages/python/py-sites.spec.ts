import type { ParsedScope, RawReference } from '../../parse/types';
import { pythonSourceRoots } from './py-checker';
import { rootPackageName } from './modules';
import { outcomeOfDefinitions, sitePosition, SourceLines } from './py-sites';

const ref = (targetName: string, line: number, kind: RawReference['kind'] = 'CALLS'): RawReference => ({ fromId: 'f', kind, targetName, line });

describe('sitePosition: where pyright is asked about a reference', () => {
  const src = new SourceLines([
    'def run(self):',
    '    self.repo.save(cart)',
    '    super().__init__(x)',
    '    super(Base, self).close()',
    '    é = "😀" + self.café.mañana()',
    '    (self.repo',
    '        .latest())',
    '    x.save_all(); save()',
  ].join('\n'));

  it('points at the last name of a dotted chain', () => {
    expect(sitePosition(src, ref('self.repo.save', 2))).toEqual({ line: 1, character: 14 });
  });

  it('finds super calls written with arguments or none', () => {
    expect(sitePosition(src, ref('super.__init__', 3))).toEqual({ line: 2, character: 12 });
    expect(sitePosition(src, ref('super.close', 4))).toEqual({ line: 3, character: 22 });
  });

  it('counts UTF-16 code units, as the protocol does, and matches non-ASCII names', () => {
    expect(sitePosition(src, ref('self.café.mañana', 5))).toEqual({ line: 4, character: 25 });
  });

  it('follows a chain onto the next line', () => {
    expect(sitePosition(src, ref('self.repo.latest', 6))).toEqual({ line: 6, character: 9 });
  });

  it('matches whole names only (not the tail of a longer name or of another chain)', () => {
    expect(sitePosition(src, ref('save', 8))).toEqual({ line: 7, character: 18 });
  });

  it('gives nothing when the line does not hold the chain (a stale file)', () => {
    expect(sitePosition(src, ref('self.repo.save', 1))).toBeUndefined();
    expect(sitePosition(src, ref('self.repo.save', 99))).toBeUndefined();
  });
});

describe('outcomeOfDefinitions: pyright locations as scopes', () => {
  const root = '/repo';
  const scope = (id: string, name: string, kind: ParsedScope['kind'], startLine: number, endLine: number) =>
    ({ id, name, kind, startLine, endLine }) as ParsedScope;
  const scopes = [
    scope('file', 'm', 'file', 1, 20),
    scope('Cart', 'Cart', 'class', 1, 10),
    scope('Cart.total', 'total', 'method', 4, 6),
    scope('helper', 'helper', 'function', 12, 16),
  ];
  const text = new SourceLines([
    'class Cart:', '    rate = 0.5', '', '    def total(self):', '        self.fn = print', '        return 1', '', '', '', '', '',
    'def helper(cb):', '    inner = cb', '    return inner()', '', '', 'from os import path', 'handler = make()',
  ].join('\n'));
  const scopesOf = (rel: string) => (rel === 'pkg/m.py' ? scopes : undefined);
  const linesOf = (rel: string) => (rel === 'pkg/m.py' ? text : undefined);
  const at = (line: number, character: number, file = '/repo/pkg/m.py') => ({ file, line, character });

  it('maps a declaration to the innermost scope of its name spanning its line', () => {
    expect(outcomeOfDefinitions('CALLS', [at(3, 8)], root, scopesOf, linesOf)).toEqual({ targetIds: ['Cart.total'] });
    expect(outcomeOfDefinitions('CALLS', [at(0, 6)], root, scopesOf, linesOf)).toEqual({ targetIds: ['Cart'] });
  });

  it('keeps every declaration pyright names (overloads), once each', () => {
    expect(outcomeOfDefinitions('CALLS', [at(3, 8), at(11, 4), at(3, 8)], root, scopesOf, linesOf)).toEqual({ targetIds: ['Cart.total', 'helper'] });
  });

  it('calls through parameters and locals are `local`; through attributes and module variables `dynamic`', () => {
    expect(outcomeOfDefinitions('CALLS', [at(11, 11)], root, scopesOf, linesOf)).toEqual({ reason: 'local' });
    expect(outcomeOfDefinitions('CALLS', [at(12, 4)], root, scopesOf, linesOf)).toEqual({ reason: 'local' });
    expect(outcomeOfDefinitions('CALLS', [at(4, 13)], root, scopesOf, linesOf)).toEqual({ reason: 'dynamic' });
    expect(outcomeOfDefinitions('CALLS', [at(17, 0)], root, scopesOf, linesOf)).toEqual({ reason: 'dynamic' });
  });

  it('a type annotation naming a module variable (alias, TypeVar) gets no answer', () => {
    expect(outcomeOfDefinitions('REFERENCES', [at(17, 0)], root, scopesOf, linesOf)).toBeUndefined();
  });

  it('an import pyright could not follow is external; its bundled stubs are builtin; other files external', () => {
    expect(outcomeOfDefinitions('CALLS', [at(16, 15)], root, scopesOf, linesOf)).toEqual({ reason: 'external' });
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/x/node_modules/pyright/dist/typeshed-fallback/stdlib/builtins.pyi')], root, scopesOf, linesOf)).toEqual({ reason: 'builtin' });
    // ty unpacks its stubs into its cache, under the typeshed commit it vendors
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/root/.cache/ty/vendored/typeshed/2e4d4dcf657f82305709bbe3e86bca4d27d4dd46/stdlib/typing.pyi')], root, scopesOf, linesOf)).toEqual({ reason: 'builtin' });
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/usr/lib/python3/site-packages/attr/__init__.py')], root, scopesOf, linesOf)).toEqual({ reason: 'external' });
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/usr/lib/python3/site-packages/typeshed/stdlib/os.pyi')], root, scopesOf, linesOf)).toEqual({ reason: 'external' });
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/repo/not-indexed.py')], root, scopesOf, linesOf)).toEqual({ reason: 'external' });
  });

  it('a repository scope wins over other answers; no definitions is no answer', () => {
    expect(outcomeOfDefinitions('CALLS', [at(1, 1, '/usr/lib/x.py'), at(3, 8)], root, scopesOf, linesOf)).toEqual({ targetIds: ['Cart.total'] });
    expect(outcomeOfDefinitions('CALLS', [], root, scopesOf, linesOf)).toBeUndefined();
  });
});

describe('pythonSourceRoots', () => {
  it('is the parent of each top-level package, besides the root itself', () => {
    expect(pythonSourceRoots(['src/shop/__init__.py', 'src/shop/sub/__init__.py', 'lib/x/__init__.py', 'app.py', 'top/__init__.py'])).toEqual(['lib', 'src']);
  });
});

describe('rootPackageName', () => {
  it('is the root folder\'s name when the root holds __init__.py and the name is an identifier', () => {
    expect(rootPackageName('/x/docutils-0.21.2/docutils', ['__init__.py', 'nodes.py'])).toBe('docutils');
    expect(rootPackageName('/x/docutils-0.21.2/docutils/', ['__init__.py'])).toBe('docutils');
    expect(rootPackageName('/x/docutils-0.21.2', ['docutils/__init__.py'])).toBeUndefined();
    expect(rootPackageName('/x/docutils-main', ['__init__.py'])).toBeUndefined();
  });
});
