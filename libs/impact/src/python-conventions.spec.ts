import { judge } from './dead-code.service';
import { frameworkConvention, implementsInterface, importsOwnPackage, inheritedOutsideBase, inPackage, pythonContext, pythonImports, topLevelPackages } from './python-conventions';

describe('python conventions for dead code', () => {
  const fn = (name: string, path: string, kind = 'function') => ({ name, kind, path, language: 'python' });

  it('reads imports, also indented ones inside try blocks', () => {
    const text = ['import os, sys', 'from twisted.spread import pb', 'try:', '    from markdown.extensions import Extension', 'except ImportError:', '    pass'].join('\n');
    expect([...pythonImports(text)].sort()).toEqual(['markdown.extensions', 'os', 'sys', 'twisted.spread']);
  });

  it('finds doit tasks in dodo.py, and task_ functions elsewhere only where doit is imported', () => {
    const ctx = pythonContext([
      { path: 'dodo.py', text: 'import glob\ndef task_test():\n    return {}\n' },
      { path: 'pkg/jobs.py', text: 'def task_cleanup():\n    pass\n' },
      { path: 'tools/build.py', text: 'from doit.tools import run_once\ndef task_pack():\n    pass\n' },
    ]);
    expect(frameworkConvention(fn('task_test', 'dodo.py'), ctx)).toMatch(/doit/);
    expect(frameworkConvention(fn('task_pack', 'tools/build.py'), ctx)).toMatch(/doit/);
    expect(frameworkConvention(fn('task_cleanup', 'pkg/jobs.py'), ctx)).toBeNull();
    // Not a function of another language, and not a plain helper of dodo.py.
    expect(frameworkConvention({ ...fn('task_test', 'dodo.py'), language: 'typescript' }, ctx)).toBeNull();
    expect(frameworkConvention(fn('recursive_glob', 'dodo.py'), ctx)).toBeNull();
  });

  it('knows Perspective Broker methods when the repository uses twisted.spread, and Markdown extensions where markdown is imported', () => {
    const pb = pythonContext([
      { path: 'app/pbutil.py', text: 'from twisted.spread import pb\n' },
      { path: 'app/sched.py', text: 'from app import pbutil\nclass P(pbutil.Persp):\n    def perspective_getNames(self):\n        pass\n' },
      { path: 'app/mdx.py', text: 'try:\n    from markdown.extensions import Extension\nexcept ImportError:\n    Extension = object\ndef makeExtension(**kw):\n    pass\n' },
    ]);
    expect(frameworkConvention(fn('perspective_getNames', 'app/sched.py', 'method'), pb)).toMatch(/Perspective Broker/);
    expect(frameworkConvention(fn('remote_print', 'app/sched.py', 'method'), pb)).toMatch(/Perspective Broker/);
    expect(frameworkConvention(fn('makeExtension', 'app/mdx.py'), pb)).toMatch(/Markdown/);
    const none = pythonContext([{ path: 'app/sched.py', text: 'class P:\n    def perspective_getNames(self):\n        pass\n' }, { path: 'app/mdx.py', text: 'def makeExtension():\n    pass\n' }]);
    expect(frameworkConvention(fn('perspective_getNames', 'app/sched.py', 'method'), none)).toBeNull();
    expect(frameworkConvention(fn('makeExtension', 'app/mdx.py'), none)).toBeNull();
  });

  it('treats public methods of a zope @implementer class as interface members', () => {
    const head = '@implementer(IRealm)\nclass AuthRealm:\n    def __init__(self, master):\n';
    expect(implementsInterface(fn('requestAvatar', 'a.py', 'method'), head)).toBe(true);
    expect(implementsInterface(fn('requestAvatar', 'a.py', 'method'), '@zope.interface.implementer(IRealm)\nclass R:\n')).toBe(true);
    expect(implementsInterface(fn('_helper', 'a.py', 'method'), head)).toBe(false);
    // A decorator of a method inside the body is not the class's.
    expect(implementsInterface(fn('requestAvatar', 'a.py', 'method'), 'class AuthRealm:\n    @implementer(IRealm)\n    def x(self):\n')).toBe(false);
    expect(implementsInterface(fn('requestAvatar', 'a.py', 'method'), '@dataclass\nclass R:\n')).toBe(false);
  });

  it('names the first outside base with hooks that a class inherits through the repository', () => {
    const m = fn('getChild', 'a.py', 'method');
    expect(inheritedOutsideBase(m, ['resource.Resource'])).toBe('resource.Resource');
    expect(inheritedOutsideBase(m, ['Exception', 'Generic[T]', 'enum.Enum', 'ValueError'])).toBeNull();
    expect(inheritedOutsideBase(m, ['object', 'service.MultiService'])).toBe('service.MultiService');
    expect(inheritedOutsideBase(fn('helper', 'a.py'), ['resource.Resource'])).toBeNull();
    expect(inheritedOutsideBase(m, null)).toBeNull();
  });

  it('tells a config sample that imports the package from one that does not', () => {
    const pkgs = topLevelPackages(['buildbot/__init__.py', 'buildbot/process/__init__.py', 'buildbot/process/build.py', 'tests/__init__.py', 'setup.py']);
    expect([...pkgs]).toEqual(['buildbot']);
    expect(importsOwnPackage('# -*- python -*-\nfrom buildbot.plugins import *\nc = BuildmasterConfig = {}\n', pkgs)).toBe('buildbot');
    expect(importsOwnPackage('[server]\nport = 8010\n# import buildbot\n', pkgs)).toBeNull();
    expect(importsOwnPackage('import os\n', pkgs)).toBeNull();
    expect(inPackage('buildbot/process/build.py', 'buildbot')).toBe(true);
    expect(inPackage('devscripts/utils.py', 'buildbot')).toBe(false);
  });

  it('lowers the confidence for an inherited outside base and for a program configured in Python', () => {
    const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: true, application: true, read: [] };
    const row = { name: 'getChild', kind: 'method', path: 'app/www.py', exported: false, parentKind: 'class', parentExported: false, repoBase: true, extends: false, language: 'python' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
    const base = judge(row, none).confidence;
    expect(base).toBeGreaterThanOrEqual(0.7);
    expect(judge(row, { ...none, inheritsOutside: 'resource.Resource' }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, repoBase: false }, none).confidence).toBeGreaterThanOrEqual(0.7);
    expect(judge({ ...row, repoBase: false }, { ...none, configuredInPython: 'app/sample.cfg' }).confidence).toBeLessThan(0.7);
    // A class its docs or config samples name is offered to users: its public methods are API.
    expect(judge({ ...row, repoBase: false }, { ...none, classOutsideCode: { name: 'Www', path: 'docs/www.rst', count: 2 } }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, repoBase: false }, { ...none, classOutsideCode: { name: 'Www', path: '', count: 0 } }).confidence).toBeGreaterThanOrEqual(0.7);
    const fnRow = { ...row, kind: 'function', name: 'helper', exported: true, repoBase: false };
    expect(judge(fnRow, none).confidence).toBeGreaterThanOrEqual(0.7);
    expect(judge(fnRow, { ...none, configuredInPython: 'app/sample.cfg' }).confidence).toBeLessThan(0.7);
  });
});
