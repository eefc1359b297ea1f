import { entryPoint, pythonBase } from './dead-code.service';
import { affixMatch, attributeScanAffixes, isDoctestHolder, isReturnedThroughLocals, isTestSuitePath, keyAffixes } from './dead-code-signs';
import { classBases, dottedBases, frameworkConvention, frameworkInnerClass, pythonContext, stdlibProtocol } from './python-conventions';

// Python signs of life seen on sample D (Trac, fabric, urwid, bottle, scons): each rule reads a code
// shape, and each test below fails when its rule is taken out.
describe('python signs of life without an edge', () => {
  const affixes = (text: string, python = true) => {
    const into = new Set<string>();
    keyAffixes(text, into, python);
    return into;
  };

  it('reads method names built from a literal head and tail with %, .format, f-strings and +', () => {
    const forms = [
      "handler = getattr(self, '_%s_formatter' % itype)",
      "handler = getattr(self, '_{}_formatter'.format(itype))",
      'handler = getattr(self, f"_{itype}_formatter")',
      "handler = self.__dict__['_' + itype + '_formatter']",
    ];
    for (const text of forms) expect(affixMatch('_superscript_formatter', affixes(text))).toBe('_${...}_formatter');
    // A tail alone appended to a variable: registry[kind + '_handler'].
    expect(affixMatch('on_close_handler', affixes("fn = REGISTRY[kind + '_handler']"))).toBe('${...}_handler');
    // Prose and paths are no keys; a name that does not fit the pattern stays unmatched.
    expect(affixMatch('_superscript_formatter', affixes("log('%s formatter' % x); p = base + '.txt'"))).toBeNull();
    expect(affixMatch('_parse_header', affixes("getattr(self, '_%s_formatter' % itype)"))).toBeNull();
    // The Python forms are read in Python files only.
    expect(affixMatch('_superscript_formatter', affixes("getattr(self, '_%s_formatter' % itype)", false))).toBeNull();
  });

  it('treats top-level integration/, it/, functional/, e2e/ folders as test suites', () => {
    const row = { name: 'failed_command', kind: 'method', exported: false, head: null, parentKind: 'class', parentExported: false, externalBase: false, language: 'python' };
    for (const p of ['integration/group.py', 'it/test_flow.py', 'functional/cli.py', 'e2e/login.py']) {
      expect(isTestSuitePath(p)).toBe(true);
      expect(entryPoint({ ...row, path: p }, new Set())).toBe('test');
    }
    // A package module that integrates with something is code, not a test suite.
    expect(isTestSuitePath('pkg/integration/slack.py')).toBe(false);
    expect(entryPoint({ ...row, path: 'pkg/integration/slack.py' }, new Set())).toBeNull();
  });

  it('knows a function that only holds a doctest from one that has code or no examples', () => {
    const holder = ['    def _test_process_input(self) -> None:', '        """Doctest for :meth:`process_input`.', '', '        >>> ml = MainLoop(w)', '        >>> ml.process_input(["enter"])', '        True', '        """'];
    expect(isDoctestHolder(holder)).toBe(true);
    expect(isDoctestHolder([...holder, '        pass'])).toBe(true);
    expect(isDoctestHolder([...holder, '        return self.run()'])).toBe(false);
    expect(isDoctestHolder(['def f(x):', '    """Adds one."""'])).toBe(false);
  });

  it('knows accessors handed out through locals() (method = property(**method())) from nested functions that are not', () => {
    const cls = ['class Filter:', '    def method():', '        def fget(self):', '            return self._method', '', '        def fset(self, value):', '            self._method = value', '', '        return locals()', '', '    method = property(**method())'];
    expect(isReturnedThroughLocals(cls, 3, 4)).toBe(true);
    expect(isReturnedThroughLocals(cls, 6, 7)).toBe(true);
    const plain = ['def diff(a, b):', '    def newComponent(name, body):', '        return None', '', '    return compare(a, b)', '', 'def other():', '    return locals()'];
    expect(isReturnedThroughLocals(plain, 2, 3)).toBe(false);
    expect(isReturnedThroughLocals(['def top():', '    pass', 'return locals()'], 1, 2)).toBe(false);
  });

  it('knows the importlib finder/loader protocol in a file that installs it on sys.meta_path', () => {
    const method = (name: string, path: string) => ({ name, kind: 'method', path, language: 'python' });
    const ctx = pythonContext([
      { path: 'bottle.py', text: 'import sys\nclass _ImportRedirect(object):\n    def __init__(self):\n        sys.meta_path.append(self)\n    def exec_module(self, module):\n        pass\n' },
      { path: 'other.py', text: 'class Loader:\n    def exec_module(self, module):\n        pass\n' },
    ]);
    expect(frameworkConvention(method('exec_module', 'bottle.py'), ctx)).toMatch(/importlib/);
    expect(frameworkConvention(method('find_spec', 'bottle.py'), ctx)).toMatch(/importlib/);
    expect(frameworkConvention(method('redirect', 'bottle.py'), ctx)).toBeNull();
    expect(frameworkConvention(method('exec_module', 'other.py'), ctx)).toBeNull();
  });

  it('knows standard-library protocol methods of a base reached through the repository', () => {
    const m = (name: string) => ({ name, kind: 'method', language: 'python' });
    expect(stdlibProtocol(m('finish'), ['socketserver.StreamRequestHandler'])).toBe('socketserver.StreamRequestHandler');
    expect(stdlibProtocol(m('emit'), ['logging.Handler'])).toBe('logging.Handler');
    expect(stdlibProtocol(m('handle_starttag'), ['HTMLParser'])).toBe('HTMLParser');
    expect(stdlibProtocol(m('_private_helper'), ['logging.Handler'])).toBeNull();
    expect(stdlibProtocol(m('finish'), ['Widget'])).toBeNull();
  });

  it('reads dotted bases the graph has no edge for: outside ones hook the method, the repository\'s own override it', () => {
    expect(classBases('@dec\nclass X(mod.Base, Mixin, metaclass=Meta):\n    pass')).toEqual(['mod.Base', 'Mixin']);
    const imports = new Set(['json', 'SCons.cpp', 'os']);
    const packages = new Set(['SCons']);
    expect(dottedBases('class Enc(json.JSONEncoder):', imports, packages)).toEqual([{ base: 'json.JSONEncoder', where: 'outside', className: 'JSONEncoder' }]);
    expect(dottedBases('class S(SCons.cpp.PreProcessor):', imports, packages)).toEqual([{ base: 'SCons.cpp.PreProcessor', where: 'repository', className: 'PreProcessor' }]);
    // Not imported, or a base without hooks: nothing to say.
    expect(dottedBases('class E(yaml.Loader):', imports, packages)).toEqual([]);
    expect(dottedBases('class K(enum.Enum):', new Set(['enum']), packages)).toEqual([]);

    const row = (name: string, parentHead: string, outsideAncestors: string[] | null = null) =>
      ({ id: 'x', name, qualifiedName: `C.${name}`, kind: 'method', path: 'SCons/Scanner/C.py', startLine: 1, endLine: 2, language: 'python', exported: false, head: null, parentKind: 'class', parentExported: false, externalBase: false, repoBase: false, extends: false, parentHead, outsideAncestors });
    const qualified = new Set(['PreProcessor.initialize_result']);
    expect(pythonBase(row('initialize_result', 'class S(SCons.cpp.PreProcessor):'), imports, packages, qualified).entry).toMatch(/overrides a method of its base/);
    expect(pythonBase(row('helper', 'class S(SCons.cpp.PreProcessor):'), imports, packages, qualified)).toEqual({ entry: null, repoBase: true });
    expect(pythonBase(row('_encode_item', 'class Enc(json.JSONEncoder):'), imports, packages, qualified).entry).toMatch(/outside class/);
    expect(pythonBase(row('finish', 'class H(BaseHandler):', ['socketserver.StreamRequestHandler']), imports, packages, qualified).entry).toMatch(/standard-library protocol/);
    expect(pythonBase(row('helper', 'class P:'), imports, packages, qualified)).toEqual({ entry: null, repoBase: false });
  });

  // Seen on sample F (octoprint, huey).
  it('reads head/tail pairs of functions that filter dir(x) names, literal or passed in by their callers', () => {
    const scan = (files: { path: string; text: string }[]) => {
      const affixes = new Set<string>();
      const heads = new Set<string>();
      attributeScanAffixes(files, affixes, heads);
      return { affixes, heads };
    };
    const plugin = {
      path: 'wizard/__init__.py',
      text: [
        'class Wizard:',
        '    def details(self):',
        '        names = self._get_subwizard_attrs("_get_", "_wizard_name")',
        '        extra = self._get_subwizard_attrs(',
        '            "_get_", "_wizard_additional"',
        '        )',
        '        return names, extra',
        '',
        '    def _get_subwizard_attrs(self, start, end, callback=None):',
        '        result = {}',
        '        for item in dir(self):',
        '            if not item.startswith(start) or not item.endswith(end):',
        '                continue',
        '            result[item] = getattr(self, item)',
        '        return result',
        '',
      ].join('\n'),
    };
    const { affixes } = scan([plugin]);
    expect(affixMatch('_get_onlinecheck_wizard_name', affixes)).toBe('_get_${...}_wizard_name');
    expect(affixMatch('_get_onlinecheck_wizard_additional', affixes)).toBe('_get_${...}_wizard_additional');
    expect(affixMatch('_get_onlinecheck_details', affixes)).toBeNull();
    // Literal head and tail inside the scanning function itself; a head alone becomes a string head.
    const literal = scan([{ path: 'a.py', text: 'def hooks(obj):\n    return [n for n in vars(obj) if n.startswith("on_") and n.endswith("_event")]\n' }]);
    expect(affixMatch('on_close_event', literal.affixes)).toBe('on_${...}_event');
    expect(scan([{ path: 'b.py', text: 'def cmds(obj):\n    return [n for n in obj.__dict__ if n.startswith("cmd_")]\n' }]).heads.has('cmd_')).toBe(true);
    // The same filter over a plain list is no attribute scan.
    expect(scan([{ path: 'c.py', text: 'def pick(words, a, b):\n    return [w for w in words if w.startswith(a) and w.endswith(b)]\nx = pick(ws, "_get_", "_name")\n' }]).affixes.size).toBe(0);
  });

  it('knows an inner class of a class with an outside base or metaclass is read by the framework', () => {
    const file = 'from peewee import Model, CharField\nfrom .base import Local\nfrom pydantic import BaseModel as PBase\nimport sqlalchemy.orm\nfrom registry import RegistryMeta\n';
    const inner = { kind: 'class', language: 'python', parentKind: 'class' };
    const pkgs = new Set(['huey']);
    expect(frameworkInnerClass(inner, 'class HueyInflight(Model):\n    class Meta:', null, file, pkgs)).toBe('Model');
    expect(frameworkInnerClass(inner, 'class Settings(PBase):\n    class Config:', null, file, pkgs)).toBe('PBase');
    expect(frameworkInnerClass(inner, 'class Row(sqlalchemy.orm.DeclarativeBase):', null, file, pkgs)).toBe('sqlalchemy.orm.DeclarativeBase');
    expect(frameworkInnerClass(inner, 'class Plugin(metaclass=RegistryMeta):', null, file, pkgs)).toBe('metaclass RegistryMeta');
    // Through the repository's own base class: the graph's outside ancestors.
    expect(frameworkInnerClass(inner, 'class KV(Base):', ['Model'], file, pkgs)).toBe('Model');
    // Own bases, hook-less outside bases and classes nested in functions say nothing.
    expect(frameworkInnerClass(inner, 'class Thing(Local):', null, file, pkgs)).toBeNull();
    expect(frameworkInnerClass(inner, 'class Thing(object):', ['object', 'Exception'], file, pkgs)).toBeNull();
    expect(frameworkInnerClass({ ...inner, parentKind: 'function' }, 'def make():', null, file, pkgs)).toBeNull();
    expect(frameworkInnerClass({ ...inner, kind: 'method' }, 'class HueyInflight(Model):', null, file, pkgs)).toBeNull();
    // A base written as a call (six's with_metaclass, impacket's ndr.py) names no import, and its
    // parentheses must not be read as a regular expression (that failed the whole dead-code answer).
    expect(frameworkInnerClass(inner, 'class NDRENUM(with_metaclass(EnumType, NDR)):\n    class Meta:', null, `${file}from six import with_metaclass\n`, pkgs)).toBeNull();
  });
});
