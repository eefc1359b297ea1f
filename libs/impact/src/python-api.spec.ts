import { judge } from './dead-code.service';
import { ioProtocolMethod, lookedUpNames, pythonApiContext, pythonPublicApi, siblingMethods } from './python-api';

// Rules from sample G (scapy's shell API, luigi's file objects, deluge's component registry): each
// test fails when its rule is taken out.
describe('public API of an installable Python package', () => {
  const files = [
    { path: 'pkg/__init__.py', text: '' },
    { path: 'pkg/layers/__init__.py', text: '' },
    { path: 'pkg/layers/dns.py', text: 'def dns_resolve(x):\n    pass\n' },
    { path: 'pkg/_core.py', text: 'def helper():\n    pass\n' },
    { path: 'pkg/_private.py', text: 'def hidden():\n    pass\n' },
    { path: 'pkg/all.py', text: 'from ._core import *\nfrom pkg.layers.dns import *\n' },
    { path: 'pkg/thirdparty/__init__.py', text: '' },
    { path: 'pkg/thirdparty/bottle.py', text: 'def route():\n    pass\n' },
    { path: 'run.py', text: 'import pkg\n' },
  ];
  const fn = (name: string, path: string, qualifiedName = name, parentKind: string | null = 'file') => ({ name, kind: 'function', path, language: 'python', qualifiedName, parentKind });

  it('counts public names of public modules as API, not underscore-private ones, nested functions, vendored copies or scripts', () => {
    const ctx = pythonApiContext(files, ['pyproject.toml']);
    expect(pythonPublicApi(fn('dns_resolve', 'pkg/layers/dns.py'), ctx)).toMatch(/public API of an importable package/);
    expect(pythonPublicApi({ ...fn('send', 'pkg/layers/dns.py', 'Resolver.send', 'class'), kind: 'method' }, ctx)).toMatch(/public API/);
    expect(pythonPublicApi({ ...fn('send', 'pkg/layers/dns.py', '_Resolver.send', 'class'), kind: 'method' }, ctx)).toBeNull();
    expect(pythonPublicApi(fn('_resolve', 'pkg/layers/dns.py'), ctx)).toBeNull();
    expect(pythonPublicApi(fn('inner', 'pkg/layers/dns.py', 'dns_resolve.inner', 'function'), ctx)).toBeNull();
    expect(pythonPublicApi(fn('hidden', 'pkg/_private.py'), ctx)).toBeNull();
    expect(pythonPublicApi(fn('route', 'pkg/thirdparty/bottle.py'), ctx)).toBeNull();
    expect(pythonPublicApi(fn('main2', 'run.py'), ctx)).toBeNull();
  });

  it('follows `from x import *` hubs from a public module into private modules', () => {
    const ctx = pythonApiContext(files, ['setup.py']);
    expect(pythonPublicApi(fn('helper', 'pkg/_core.py'), ctx)).toMatch(/re-exported by a public module/);
    expect(pythonPublicApi(fn('hidden', 'pkg/_private.py'), ctx)).toBeNull();
  });

  it('leaves clear applications and packages without a manifest to their uses', () => {
    expect(pythonPublicApi(fn('dns_resolve', 'pkg/layers/dns.py'), pythonApiContext(files, []))).toBeNull();
    const django = pythonApiContext([...files, { path: 'manage.py', text: '' }], ['setup.py']);
    expect(django.application).toMatch(/Django project/);
    expect(pythonPublicApi(fn('dns_resolve', 'pkg/layers/dns.py'), django)).toBeNull();
    expect(pythonApiContext([{ path: 'tool.py', text: '' }], ['setup.py']).application).toBe('no importable package');
  });

  it('puts an API name under the default confidence, and keeps a program\'s private name above it', () => {
    const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: true, application: true, read: ['pyproject.toml'] };
    const row = { name: 'dns_resolve', kind: 'function', path: 'pkg/layers/dns.py', exported: true, parentKind: 'file', parentExported: false, repoBase: false, extends: false, language: 'python' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
    // A library with a console script was a program: its public names lost only 0.15 and stayed listed.
    expect(judge(row, none).confidence).toBeGreaterThanOrEqual(0.7);
    const api = judge(row, { ...none, pythonApi: 'public API of an importable package: may be used by its users' });
    expect(api.confidence).toBeLessThan(0.7);
    expect(api.reasons).toContain('public API of an importable package: may be used by its users');
    expect(judge({ ...row, name: '_resolve', exported: false }, none).confidence).toBeGreaterThanOrEqual(0.7);
  });
});

describe('io protocol methods', () => {
  const m = (name: string) => ({ name, kind: 'method', language: 'python' });
  it('are live in a file-like class or a subclass of an io base, not elsewhere', () => {
    const lines = ['class Pipe(object):', '    def read(self, n=-1):', '        return b""', '', '    def seekable(self):', '        return False', '', 'class Other:', '    def seekable(self):', '        return True'];
    expect([...siblingMethods(lines, 5)].sort()).toEqual(['read', 'seekable']);
    expect(ioProtocolMethod(m('seekable'), [], null, siblingMethods(lines, 5))).toMatch(/file-like class \(it defines read\(\)\)/);
    expect(ioProtocolMethod(m('seekable'), [], null, siblingMethods(lines, 9))).toBeNull();
    expect(ioProtocolMethod(m('readable'), ['io.RawIOBase'], null, new Set())).toMatch(/subclass of io\.RawIOBase/);
    expect(ioProtocolMethod(m('readable'), ['Base'], ['io.TextIOWrapper'], new Set())).toMatch(/TextIOWrapper/);
    // Not an io method name, or no file-like shape: judged on its uses.
    expect(ioProtocolMethod(m('rewind'), ['io.RawIOBase'], null, new Set(['read']))).toBeNull();
    expect(ioProtocolMethod(m('close'), [], null, new Set(['open', 'close']))).toBeNull();
  });
});

describe('classes a registry hands out by name', () => {
  it('reads capitalised names passed as a string to a call or subscript', () => {
    const into = new Set<string>();
    lookedUpNames('core = component.get("Core")\nplug = REGISTRY[\'Preferences\']\nlog("started now")\nx = f("lower")', into);
    expect([...into].sort()).toEqual(['Core', 'Preferences']);
  });

  it('puts the public methods of such a class under the default confidence', () => {
    const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: true, application: true, read: ['setup.py'] };
    const row = { name: 'get_torrent_status', kind: 'method', path: 'app/_core/core.py', exported: false, parentKind: 'class', parentExported: false, repoBase: false, extends: false, language: 'python' };
    const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
    expect(judge(row, none).confidence).toBeGreaterThanOrEqual(0.7);
    const looked = judge(row, { ...none, lookedUpClass: 'Core' });
    expect(looked.confidence).toBeLessThan(0.7);
    expect(looked.reasons.join(' ')).toMatch(/looked up by a string/);
  });
});
