import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeOnly, NameUse, nameUses } from './code-text';
import { judge } from './dead-code.service';
import { readManifests } from './manifests';

const uses = (file: string, text: string, names: string[]) => {
  const into = new Map<string, NameUse[]>();
  nameUses(file, codeOnly(file, text), new Set(names), into);
  return into;
};

describe('code-only name uses', () => {
  it('skips comments and prose in strings, keeps template and f-string code, and tells attributes apart', () => {
    const ts = [
      '// helper is mentioned here',
      "const s = 'call helper later';",
      'const t = `${helper()} and ${x.other}`;',
      'const re = /[`"]/g; other(1);',
      '/* helper */ run(helper);',
    ].join('\n');
    const found = uses('a.ts', ts, ['helper', 'other']);
    expect(found.get('helper')!.map((u) => u.line)).toEqual([3, 5]);
    // The regex literal's backtick does not open a template that swallows the rest of the line.
    expect(found.get('other')!.map((u) => [u.line, u.member])).toEqual([[3, true], [4, false]]);

    const py = ['# helper', 'x = "helper"', 'y = f"{helper(1)}"', '"""helper in a docstring"""', 'obj.helper()'].join('\n');
    expect(uses('a.py', py, ['helper']).get('helper')!.map((u) => [u.line, u.member])).toEqual([[3, false], [5, true]]);
    // With strings kept, command strings run by eval still show the name.
    const kept = new Map<string, NameUse[]>();
    nameUses('a.py', codeOnly('a.py', "add('go', 'cursorDown(1)')", true), new Set(['cursorDown']), kept);
    expect(kept.get('cursorDown')).toHaveLength(1);
  });

  it('reads JavaScript private members as one token', () => {
    expect(uses('a.js', 'class A { #x() {} y() { this.#x(); } }', ['#x']).get('#x')!.map((u) => u.member)).toEqual([false, true]);
  });
});

describe('dead-code confidence', () => {
  const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: true, read: [] };
  const row = { name: 'helper', kind: 'function', path: 'src/a.ts', exported: false, parentKind: 'file', parentExported: false, repoBase: false, extends: false, language: 'typescript' };
  const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };

  it('is high for a name used nowhere, and each sign of life lowers it under the default', () => {
    expect(judge(row, none).confidence).toBe(0.95);
    const below = (e: Partial<Parameters<typeof judge>[1]>) => judge(row, { ...none, ...e }).confidence < 0.7;
    expect(below({ uses: [{ path: 'b.ts', line: 3, member: false }] })).toBe(true);
    expect(below({ uses: [{ path: 'b.ts', line: 3, member: true }] })).toBe(true);
    expect(below({ quoted: 1 })).toBe(true);
    expect(below({ prefix: 'hel' })).toBe(true);
    expect(below({ unresolved: 2 })).toBe(true);
    expect(below({ inStrings: 1 })).toBe(true);
    expect(below({ outsideCode: { path: 'config/rc.conf', count: 1 } })).toBe(true);
  });

  it('keeps a library\'s public methods and subclasses under the default, an application\'s exports above it', () => {
    const lib = { ...manifests, library: true, jsLibrary: true, application: false };
    expect(judge({ ...row, kind: 'method', name: 'render2', parentKind: 'class' }, { ...none, manifests: lib }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, kind: 'method', name: 'get_view', parentKind: 'class', language: 'python', path: 'p/a.py' }, { ...none, manifests: lib }).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, kind: 'class', name: 'Plugin', extends: true }, none).confidence).toBeLessThan(0.7);
    expect(judge({ ...row, exported: true }, none).confidence).toBeGreaterThanOrEqual(0.7);
  });
});

describe('package manifests', () => {
  it('reads entry files from package.json and entry functions from console_scripts', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'manifests-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.mkdirSync(path.join(root, 'tool'));
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ main: 'dist/index.js', bin: { t: './bin/t.js' } }));
    fs.writeFileSync(path.join(root, 'setup.cfg'), '[options.entry_points]\nconsole_scripts =\n    tool = tool.cli:main_entry\n');
    const m = await readManifests(root, ['src/index.ts', 'src/other.ts', 'bin/t.js', 'tool/cli.py', 'tool/__init__.py']);
    expect([...m.entryFiles].sort()).toEqual(['bin/t.js', 'src/index.ts', 'tool/cli.py']);
    expect(m.entryFunctions.get('tool/cli.py')).toEqual(new Set(['main_entry']));
    expect({ library: m.library, jsLibrary: m.jsLibrary, application: m.application }).toEqual({ library: true, jsLibrary: true, application: true });
    fs.rmSync(root, { recursive: true, force: true });
  });
});
