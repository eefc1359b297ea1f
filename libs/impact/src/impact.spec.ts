import * as fs from 'node:fs';
import * as path from 'node:path';
import { changedByContent, mapChangedScopes, VersionScope } from './change-mapper';
import { entryPoint } from './dead-code.service';
import { IMPACT_LIMITS } from './impact.service';
import { isTestPath } from './test-paths';

const scope = (id: string, startLine: number, endLine: number, contentHash = id): VersionScope => ({ id, name: id, qualifiedName: id, kind: 'function', startLine, endLine, contentHash });

describe('mapChangedScopes', () => {
  it('reads added, modified and removed scopes off the hunks of both versions', () => {
    const before = [scope('a', 1, 3), scope('b', 5, 7), scope('gone', 9, 11)];
    const after = [scope('a', 1, 3), scope('b', 5, 8, 'b2'), scope('c', 10, 12)];
    // b gains a line (new 7), gone's lines 9-11 are replaced by c's 10-12.
    const hunks = [
      { oldStart: 7, oldLen: 0, newStart: 7, newLen: 1 },
      { oldStart: 9, oldLen: 3, newStart: 10, newLen: 3 },
    ];
    expect(mapChangedScopes('x.ts', hunks, before, after).map((s) => `${s.change} ${s.id}`)).toEqual(['modified b', 'removed gone', 'added c']);
    expect(changedByContent('x.ts', before, after).map((s) => `${s.change} ${s.id}`).sort()).toEqual(['added c', 'modified b', 'removed gone']);
  });

  it('counts a pure deletion inside a scope as a change of it, not of its neighbours', () => {
    const before = [scope('a', 1, 5), scope('b', 7, 9)];
    const after = [scope('a', 1, 4, 'a2'), scope('b', 6, 8)];
    expect(mapChangedScopes('x.ts', [{ oldStart: 3, oldLen: 1, newStart: 3, newLen: 0 }], before, after).map((s) => `${s.change} ${s.id}`)).toEqual(['modified a']);
  });
});

describe('dead-code entry points', () => {
  const base = { kind: 'function', path: 'src/a.py', exported: false, head: 'def f():', parentKind: 'file', parentExported: false, externalBase: false, language: 'python' };
  it('leaves out tests, dunders, decorated handlers, overriders of outside classes and public API', () => {
    expect(entryPoint({ ...base, name: 'f', path: 'tests/test_a.py' }, new Set())).toBe('test');
    expect(entryPoint({ ...base, name: '__repr__', kind: 'method' }, new Set())).toBe('dunder method');
    expect(entryPoint({ ...base, name: 'index', head: '@app.route("/")\ndef index():' }, new Set())).toBe('registered by a decorator');
    expect(entryPoint({ ...base, name: 'flush_buffer', kind: 'method', externalBase: true }, new Set())).toBe('overrides a method of an outside class');
    expect(entryPoint({ ...base, name: 'api', exported: true }, new Set(['src/a.py']))).toBe('public API of the package');
    expect(entryPoint({ ...base, name: 'helper' }, new Set())).toBeNull();
    expect(entryPoint({ ...base, name: 'cli', path: 'pkg/cli.py' }, new Set(), { entryFunctions: new Map([['pkg/cli.py', new Set(['cli'])]]), library: false })).toBe('named as an entry point by the package manifest');
  });

  it('knows test paths of several languages', () => {
    expect(['test/a.e2e-spec.ts', 'src/a.spec.ts', 'pkg/test_x.py', 'x_test.go', 'FooTest.java', 'spec/a_spec.rb', 'trio/_tests/type_tests/path.py', 'trio/_core/_tests/tutil.py'].every(isTestPath)).toBe(true);
    expect(isTestPath('pkg/_testsuite.py')).toBe(false);
    expect(isTestPath('src/contest.ts')).toBe(false);
  });
});

describe('impact/walk.cypher', () => {
  it('repeats one level block per depth 1-6, identical but for the depth numbers', () => {
    const text = fs.readFileSync(path.join(__dirname, '../../../cypher/impact/walk.cypher'), 'utf8');
    // Each block runs from its "// Depth N." line to the first line that closes it.
    const blocks = text.split(/^\/\/ Depth \d\.$/m).slice(1).map((b) => b.slice(0, b.indexOf('\n}\n') + 2).trim());
    expect(blocks).toHaveLength(IMPACT_LIMITS.maxDepth);
    const shapes = blocks.map((b, i) => b.replaceAll(`$depth >= ${i + 1}`, '$depth >= D').replace(/\b([a-z]+)[0-9]\b/gi, '$1#'));
    expect(new Set(shapes).size).toBe(1);
    // Each block reads the previous depth's frontier and writes its own.
    blocks.forEach((b, i) => {
      expect(b).toContain(`CALL (f${i}, seen${i}, room${i}, stop${i})`);
      expect(b).toContain(`AS level${i + 1},`);
      expect(b).toContain(`$depth >= ${i + 1} AND`);
    });
  });
});
