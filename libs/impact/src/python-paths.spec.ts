import { judge } from './dead-code.service';
import { handedFolderOf, pathHandedFolders } from './python-paths';

// The rule read off sample I's live candidates (stub folders a package hands to an analyser as a
// path), by the shape of the code that builds the path; each test fails when the rule is taken out.
describe('python folders handed out as a path', () => {
  const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: true, read: [] };
  const row = { name: 'atan2', kind: 'function', path: 'app/plugins/board/api_stubs/math.py', exported: true, parentKind: null, parentExported: false, repoBase: false, extends: false, language: 'python' };
  const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };
  const paths = ['app/__init__.py', 'app/plugins/__init__.py', 'app/plugins/board/__init__.py', 'app/plugins/board/back.py', 'app/plugins/board/api_stubs/math.py', 'app/plugins/board/api_stubs/machine.pyi'];

  it('takes a folder of Python files that is no package, whose path a backend builds from __file__ and returns', () => {
    const back = [
      'import os',
      'class Backend:',
      '    def get_sys_path_for_analysis(self):',
      '        return [os.path.join(os.path.dirname(__file__), "api_stubs")] + super().get_sys_path_for_analysis()',
    ].join('\n');
    const handed = pathHandedFolders([{ path: 'app/plugins/board/back.py', text: back }], paths);
    expect(handed).toEqual([{ folder: 'app/plugins/board/api_stubs', where: 'app/plugins/board/back.py:4', how: 'no __init__.py' }]);
    const h = handedFolderOf(row, handed);
    expect(h?.folder).toBe('app/plugins/board/api_stubs');
    // 0.95 falls below the default 0.7 with the reason; a file outside the folder is untouched.
    const judged = judge(row, { ...none, handedFolder: h });
    expect(judged.confidence).toBeLessThan(0.7);
    expect(judged.reasons.join(' ')).toContain('in a folder the package hands out as a path');
    expect(handedFolderOf({ ...row, path: 'app/plugins/board/back.py' }, handed)).toBeNull();
    // A private helper inside the folder is no API a tool reads: it stays a candidate.
    expect(handedFolderOf({ ...row, name: '_log_data', qualifiedName: 'Connection._log_data' }, handed)).toBeNull();
    expect(handedFolderOf({ ...row, name: 'draw_pixel', qualifiedName: 'Screen.draw_pixel' }, handed)?.folder).toBe('app/plugins/board/api_stubs');
    expect(judge(row, none).confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('follows a name bound to the anchor, pathlib and resource APIs, and sys.path for a package folder', () => {
    const all = ['pkg/__init__.py', 'pkg/tool.py', 'pkg/stubs/a.py', 'pkg/data/b.py', 'pkg/res/c.py', 'vendor/__init__.py', 'vendor/lib.py', 'pkg/up/d.py'];
    const text = [
      'HERE = os.path.dirname(os.path.abspath(__file__))',
      'STUBS = os.path.join(HERE, "stubs")',
      'DATA = Path(__file__).resolve().parent / "data"',
      'RES = importlib.resources.files(__package__).joinpath("res")',
      'sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "vendor"))',
    ].join('\n');
    const folders = pathHandedFolders([{ path: 'pkg/tool.py', text }], all).map((h) => `${h.folder} ${h.how}`);
    expect(folders.sort()).toEqual(['pkg/data no __init__.py', 'pkg/res no __init__.py', 'pkg/stubs no __init__.py', 'vendor sys.path']);
  });

  it('leaves subpackages, plugin folders imported by a loader, `..`, file paths and folders without Python files alone', () => {
    const all = ['pkg/__init__.py', 'pkg/tool.py', 'pkg/sub/__init__.py', 'pkg/sub/a.py', 'pkg/plugins/p.py', 'pkg/scripts/run.py', 'pkg/templates/x.html', 'top.py', 'setup.py', 'src/app.py', 'tests/test_x.py', 'lib/m.py'];
    const text = [
      'SUB = os.path.join(os.path.dirname(__file__), "sub")',
      'for m in pkgutil.iter_modules([os.path.join(os.path.dirname(__file__), "plugins")]): pass',
      'subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "scripts", "run.py")])',
      'TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")',
      'sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))',
    ].join('\n');
    expect(pathHandedFolders([{ path: 'pkg/tool.py', text }], all)).toEqual([]);
    // Build scripts and tests put the source folder on sys.path to build or test the code itself.
    const setup = 'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))';
    const test = 'sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "lib"))';
    expect(pathHandedFolders([{ path: 'setup.py', text: setup }, { path: 'tests/test_x.py', text: test }], all)).toEqual([]);
  });
});
