import * as fs from 'node:fs';
import * as path from 'node:path';
import { DeadCodeService } from '@scopegraph/impact';
import { IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

jest.setTimeout(120_000);

// A library that also ships a console script, indexed into the real graph: its public names are API
// (listed under the default confidence), its private ones stay candidates, and the io protocol method
// of a file-like class and a socket's hook the standard library calls are no candidates at all.
describe('dead code of an installable Python package', () => {
  const h = new IngestHarness();
  const repoId = runId('deadpyapi');

  const write = (dir: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
  };

  beforeAll(async () => {
    await h.init();
    const dir = h.emptyDir();
    write(dir, {
      'pyproject.toml': '[project]\nname = "tidy"\nversion = "1.0"\n\n[project.scripts]\ntidy = "tidy.cli:run"\n',
      'tidy/__init__.py': '',
      'tidy/cli.py': 'from tidy.text import clean\n\n\ndef run():\n    print(clean(" x "))\n',
      'tidy/text.py': 'def clean(s):\n    return s.strip()\n',
      // No module of the package imports this one: only its users can.
      'tidy/extra.py': [
        'def shout(s):',
        '    return s.upper()',
        '',
        '',
        'def _forgotten(s):',
        '    return s[::-1]',
        '',
        '',
        'class Pipe:',
        '    def read(self, n=-1):',
        '        return b""',
        '',
        '    def seekable(self):',
        '        return False',
        '',
      ].join('\n'),
      // A TLS transport's socket hook (socket.SocketIO.close calls it) beside a private method nothing calls.
      'tidy/_transport.py': [
        'import socket',
        '',
        '',
        'class _Transport:',
        '    def makefile(self, mode="r"):',
        '        return socket.SocketIO(self, mode)',
        '',
        '    def _decref_socketios(self):',
        '        self._refs -= 1',
        '',
        '    def _unwrap(self):',
        '        return None',
        '',
      ].join('\n'),
      // Accessors handed out through locals() (the property(**f()) idiom) beside a nested function nothing uses.
      'tidy/_filters.py': [
        'class _Filter:',
        '    def method():',
        '        def fget(self):',
        '            return self._method',
        '',
        '        def fset(self, value):',
        '            self._method = value',
        '',
        '        return locals()',
        '',
        '    method = property(**method())',
        '',
        '',
        'def _diff(a, b):',
        '    def _unused(name):',
        '        return name',
        '',
        '    return a == b',
        '',
      ].join('\n'),
    });
    await h.ingest.index({ path: dir, name: repoId, embed: false });
  });

  afterAll(() => h.dispose([repoId]));

  it('lists public names under the default with the API reason, private ones above it, io protocol methods not at all', async () => {
    const service = new DeadCodeService(h.neo4j);
    const all = await service.deadCode({ repository: repoId, minConfidence: 0 });
    const byName = new Map(all.candidates.map((c) => [c.scope.qualifiedName, c]));
    expect(byName.get('shout')!.confidence).toBeLessThan(0.7);
    expect(byName.get('shout')!.reasons).toContain('public API of an importable package: may be used by its users');
    expect(byName.get('_forgotten')!.confidence).toBeGreaterThanOrEqual(0.7);
    expect(byName.has('Pipe.seekable')).toBe(false);
    expect(all.excluded['an io protocol method of a file-like class: io wrappers call it by name']).toBeGreaterThanOrEqual(1);
    expect(byName.has('_Filter.method.fget')).toBe(false);
    expect(byName.has('_Filter.method.fset')).toBe(false);
    expect(all.excluded["handed out by name through its enclosing function's locals() (property(**f()))"]).toBe(2);
    expect(byName.has('_diff._unused')).toBe(true);
    expect(byName.has('_Transport._decref_socketios')).toBe(false);
    expect(byName.has('_Transport._unwrap')).toBe(true);

    const defaults = await service.deadCode({ repository: repoId });
    const names = defaults.candidates.map((c) => c.scope.qualifiedName);
    expect(names).toContain('_forgotten');
    expect(names).not.toContain('shout');
  });
});
