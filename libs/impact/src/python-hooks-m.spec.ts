import { frameworkConvention, pythonContext } from './python-conventions';
import { builtName, builtNameHeads, identifierStrings } from './python-dynamic';

// Rules read off sample M's live candidates (pytest-perf exercises, a name built in an importing
// file); each test fails when its rule is taken out.
describe('python names reached as sample M showed', () => {
  const fn = (name: string, path: string, kind = 'function') => ({ name, kind, path, language: 'python' });
  const names = (text: string) => ({ heads: builtNameHeads(text), strings: identifierStrings(text) });

  it("takes the functions pytest-perf collects (its own name pattern) from a file that names pytest_perf", () => {
    const exercises = ['from pytest_perf.deco import extras', '', "@extras('perf')", 'def discovery_perf():', '    pass', '', 'def import_time():', '    "import"', '', 'def perfect():', '    pass', '', 'def _helper():', '    pass', ''].join('\n');
    const ctx = pythonContext([
      { path: 'exercises.py', text: exercises },
      { path: 'pkg/bench.py', text: 'def entry_points_perf():\n    pass\n' },
    ]);
    expect(frameworkConvention(fn('discovery_perf', 'exercises.py'), ctx)).toMatch(/pytest-perf/);
    expect(frameworkConvention(fn('entry_points_perf', 'exercises.py'), ctx)).toMatch(/pytest-perf/);
    expect(frameworkConvention(fn('import_time', 'exercises.py'), ctx)).toMatch(/pytest-perf/);
    // Its pattern wants perf as a word: perfect is not collected; neither is a file that never names pytest_perf.
    expect(frameworkConvention(fn('perfect', 'exercises.py'), ctx)).toBeNull();
    expect(frameworkConvention(fn('_helper', 'exercises.py'), ctx)).toBeNull();
    expect(frameworkConvention(fn('entry_points_perf', 'pkg/bench.py'), ctx)).toBeNull();
  });

  it("takes a name built in a file that imports the name's file, the rest written as a string in either", () => {
    const base = ['class BaseServer:', "    compression_methods = ['gzip', 'deflate']", '', '    def _gzip(self, response):', '        return response', ''].join('\n');
    const server = ['from . import base_server', '', 'class Server(base_server.BaseServer):', '    def send(self, encoding, r):', "        return getattr(self, '_' + encoding)(r)", ''].join('\n');
    const unrelated = 'import json\n\ndef dump(x):\n    return json.dumps(x)\n';
    expect(builtName('_gzip', names(base), [names(server)])).toBe("'_' + 'gzip' in a file importing its file");
    // No head in the importers, or a rest that no string of either file spells: nothing built.
    expect(builtName('_gzip', names(base), [names(unrelated)])).toBeNull();
    expect(builtName('_brotli', names(base), [names(server)])).toBeNull();
    expect(builtName('_gzip', names(base), [])).toBeNull();
  });
});
