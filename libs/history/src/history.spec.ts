import { CommitRecord, DEFAULT_AGGREGATE } from './aggregate';
import { aggregate } from './counts';
import { mapLineBack, RangeTracker } from './attribution';
import { linesOf, parseUnifiedDiff } from './git-log';

describe('parseUnifiedDiff', () => {
  it('splits context hunks into the runs that changed, with gap starts normalised', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,6 +1,6 @@',
      ' line1',
      '-line2',
      '+line2b',
      '+++ not a header',
      ' line3',
      ' line4',
      '-line5',
      ' line6',
      'diff --git a/b.py b/b.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/b.py',
      '@@ -0,0 +1,2 @@',
      '+x',
      '+y',
    ].join('\n');
    const [a, b] = parseUnifiedDiff(diff);
    expect(a.path).toBe('src/a.ts');
    expect(a.hunks).toEqual([
      { oldStart: 2, oldLen: 1, newStart: 2, newLen: 2 },
      { oldStart: 5, oldLen: 1, newStart: 6, newLen: 0 },
    ]);
    expect(a.linesAdded).toBe(2);
    expect(a.linesDeleted).toBe(2);
    expect(b).toMatchObject({ path: 'b.py', added: true, hunks: [{ oldStart: 1, oldLen: 0, newStart: 1, newLen: 2 }] });
  });
});

describe('RangeTracker', () => {
  it('maps lines back through insertions and deletions', () => {
    // 2 lines inserted after old line 5; old line 6 is new line 8.
    expect(mapLineBack([{ oldStart: 6, oldLen: 0, newStart: 6, newLen: 2 }], 8, 'start')).toBe(6);
    // old lines 6-7 deleted; new line 6 is old line 8.
    expect(mapLineBack([{ oldStart: 6, oldLen: 2, newStart: 6, newLen: 0 }], 6, 'start')).toBe(8);
  });

  it('attributes hunks to the scopes they fall in, innermost as leaves, and stops at a scope’s creation', () => {
    const tracker = new RangeTracker([
      { id: 'C', path: 'a.ts', start: 1, end: 20 },
      { id: 'C.m', path: 'a.ts', start: 3, end: 8 },
      { id: 'C.n', path: 'a.ts', start: 10, end: 18 },
    ]);
    // Newest commit: C.n was added whole (lines 10-18 new).
    const newest = tracker.apply({ path: 'a.ts', added: false, deleted: false, linesAdded: 9, linesDeleted: 0, hunks: [{ oldStart: 10, oldLen: 0, newStart: 10, newLen: 9 }] });
    expect(newest.touched.map((t) => t.id).sort()).toEqual(['C', 'C.n']);
    expect(newest.leaves).toEqual(['C.n']);
    // Older commit: a change at line 5 (C.m), and one at old line 10, which C.n did not exist for.
    const older = tracker.apply({ path: 'a.ts', added: false, deleted: false, linesAdded: 2, linesDeleted: 2, hunks: [{ oldStart: 5, oldLen: 1, newStart: 5, newLen: 1 }, { oldStart: 10, oldLen: 1, newStart: 10, newLen: 1 }] });
    expect(older.touched.map((t) => t.id).sort()).toEqual(['C', 'C.m']);
    expect(older.leaves).toEqual(['C.m']);
  });
});

describe('aggregate', () => {
  const commit = (sha: string, time: number, files: string[], author = 'Ann', mass = false): CommitRecord => ({
    sha, time, authorName: author, authorEmail: `${author}@x`, subject: sha, files, fileLines: files.map(() => 3), scopes: files, scopeLines: files.map(() => 3), leaves: files, mass,
  });

  it('counts support and confidence, drops mass commits from co-change and keeps them as changes', () => {
    const commits = [
      commit('c1', 100, ['a', 'b']),
      commit('c2', 200, ['a', 'b'], 'Bob'),
      commit('c3', 300, ['a', 'c']),
      commit('c4', 400, ['a', 'b', 'c'], 'Ann', true),
    ];
    const agg = aggregate(commits, { ...DEFAULT_AGGREGATE, minSupport: 2 });
    const rule = (from: string, to: string) => agg.fileCoChanges.find((c) => c.from === from && c.to === to);
    expect(rule('a', 'b')).toEqual({ from: 'a', to: 'b', support: 2, confidence: 2 / 3 });
    expect(rule('b', 'a')).toEqual({ from: 'b', to: 'a', support: 2, confidence: 1 });
    expect(rule('a', 'c')).toBeUndefined(); // support 1 without the mass commit
    const a = agg.files.find((s) => s.key === 'a')!;
    expect(a).toMatchObject({ changeCount: 4, lastChangedAt: 400, lastCommit: 'c4', mainAuthors: ['Ann (3)', 'Bob (1)'] });
  });
});

describe('linesOf', () => {
  it('splits on newlines only, so a carriage return inside a changed line cannot start a fake commit header', async () => {
    async function* chunks() {
      yield Buffer.concat([Buffer.from('+a\r\x1eb\x1fc\n '), Buffer.from([0xc3])]);
      yield Buffer.from([0xa9]);
      yield Buffer.from('\n\x1etail');
    }
    const out: string[] = [];
    for await (const l of linesOf(chunks())) out.push(l);
    expect(out).toEqual(['+a\r\x1eb\x1fc', ' é', '\x1etail']);
  });
});
