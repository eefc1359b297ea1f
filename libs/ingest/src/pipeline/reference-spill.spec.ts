import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Language, ParsedFile, ParsedScope, RawReference } from '../parse/types';
import { resolveRepository } from '../resolve/resolver';
import { slim } from './parse-phase';
import { ReferenceSpill } from './reference-spill';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** A file whose functions call each other and a base class of the next file (heritage kept on the parse). */
function file(n: number, language: Language = 'python', scopesPerFile = 12, refsPerScope = 6): ParsedFile {
  const ext = language === 'go' ? 'go' : 'py';
  const p = `pkg/m${n}.${ext}`;
  const fileId = `${p}#${p}|file`;
  const scopes: ParsedScope[] = [{ id: fileId, name: p, qualifiedName: p, kind: 'file', language, path: p, startLine: 1, endLine: 400, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId: null }];
  const references: RawReference[] = [];
  for (let i = 1; i < scopesPerFile; i++) {
    const kind = i <= 2 ? 'class' : 'function';
    const name = i === 1 ? `Base${n}` : i === 2 ? `Child${n}` : `fn_${n}_${i}`;
    const id = `${p}#${name}|${kind}`;
    scopes.push({ id, name, qualifiedName: name, kind, language, path: p, startLine: i * 10, endLine: i * 10 + 9, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId: fileId, exported: true });
    if (i === 2) references.push({ fromId: id, kind: 'EXTENDS', targetName: `Base${n}`, line: i * 10 });
    for (let r = 0; r < refsPerScope; r++) {
      references.push({ fromId: id, kind: r % 3 === 2 ? 'REFERENCES' : 'CALLS', targetName: r % 2 ? `fn_${n}_${(i + r) % scopesPerFile}` : `helper_${r}`, line: i * 10 + r });
    }
  }
  references.push({ fromId: fileId, kind: 'CALLS', targetName: 'dbo.usp_Make', line: 2, targetLanguage: 'sql' });
  return { path: p, language, contentHash: `h${n}`, scopes, references, imports: [], exports: [], bindings: [], errors: [] };
}

const isHeritage = (r: RawReference) => r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS';

describe('ReferenceSpill (the references of a run kept on disk until resolution)', () => {
  it('gives back every file\'s non-heritage references in order, a batch at a time, and keeps heritage on the parses', () => {
    const files = [file(0), file(1), file(2, 'go'), file(3), file(4)];
    const before = files.map((f) => f.references.slice());
    const spill = ReferenceSpill.spill(files, 2);
    try {
      const batches = [...spill.batches()];
      expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
      const read = batches.flat();
      expect(read.map((f) => f.path)).toEqual(files.map((f) => f.path));
      read.forEach((f, i) => expect(f.references).toEqual(before[i].filter((r) => !isHeritage(r))));
      // Spilled files keep their heritage only; Go's resolver reads references early: kept in memory.
      files.forEach((f, i) => expect(f.references).toEqual(f.language === 'go' ? before[i] : before[i].filter(isHeritage)));
      expect(spill.spilled).toBe(before.reduce((n, refs, i) => n + (files[i].language === 'go' ? 0 : refs.filter((r) => !isHeritage(r)).length), 0));
      // And again (the precise resolver reads them once per pass).
      expect([...spill.batches()].flat()).toEqual(read);
    } finally {
      spill.close();
    }
  });

  it('writes into a folder of its own only its user can open, removed by close()', () => {
    const spill = ReferenceSpill.spill([file(0), file(1)]);
    expect(path.dirname(spill.dir)).toBe(os.tmpdir());
    expect(fs.statSync(spill.dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(spill.dir).length).toBe(1);
    spill.close();
    spill.close();
    expect(fs.existsSync(spill.dir)).toBe(false);
    expect(() => [...spill.batches()]).toThrow(/closed/);
  });

  it('removes the folders of processes that are gone (a killed worker leaves its own), not of live ones', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const orphan = fs.mkdtempSync(path.join(os.tmpdir(), `scopegraph-refs-${dead}-`));
    fs.writeFileSync(path.join(orphan, 'batch-0.bin'), 'x');
    const other = ReferenceSpill.spill([file(0)]);
    try {
      expect(fs.existsSync(orphan)).toBe(false);
      const spill = ReferenceSpill.spill([file(1)]);
      expect(fs.existsSync(other.dir)).toBe(true);
      expect(path.basename(spill.dir)).toMatch(new RegExp(`^scopegraph-refs-${process.pid}-`));
      spill.close();
    } finally {
      other.close();
      fs.rmSync(orphan, { recursive: true, force: true });
    }
  });

  it('resolves to exactly what the references on the parses resolve to', () => {
    const files = Array.from({ length: 30 }, (_, n) => file(n));
    const inMemory = resolveRepository(files.map((f) => ({ ...f, references: f.references.slice() })), { collectOutcomes: true });
    const spill = ReferenceSpill.spill(files, 7);
    try {
      const spilled = resolveRepository(files, { spilled: spill, collectOutcomes: true });
      expect(spilled.edges).toEqual(inMemory.edges);
      expect([...spilled.unresolved]).toEqual([...inMemory.unresolved]);
      expect(spilled.outcomes).toEqual(inMemory.outcomes);
      expect(inMemory.edges.some((e) => e.type === 'EXTENDS')).toBe(true);
      expect(inMemory.edges.some((e) => e.type === 'CALLS')).toBe(true);
      // Resolving some files only: the part of the whole that leaves them, as without the spill.
      const only = new Set([files[3].path, files[11].path]);
      expect(resolveRepository(files, { spilled: spill, only }).edges).toEqual(resolveRepository(files.map((f, i) => ({ ...f, references: inMemory.outcomes!.filter((o) => o.path === f.path).map((o) => o.ref).concat(files[i].references) })), { only }).edges);
    } finally {
      spill.close();
    }
  });

  it('keeps a small part of what the references held in memory (they must not stay on the parses until resolution)', () => {
    // As a parse thread returns them (every string its own copy), slimmed as the parse phase keeps them.
    const make = () => Array.from({ length: 600 }, (_, n) => slim(structuredClone(file(n))));
    const withReferences = retained(make);
    const withoutReferences = retained(() => make().map((f) => ({ ...f, references: f.references.filter(isHeritage) })));
    const spills: ReferenceSpill[] = [];
    try {
      const spilled = retained(() => {
        const files = make();
        spills.push(ReferenceSpill.spill(files));
        return { files, spill: spills[spills.length - 1] };
      });
      const references = withReferences - withoutReferences;
      // Measured: the references ~60 % of the slimmed parse; what the spill keeps in memory ~7 % of them.
      expect(references).toBeGreaterThan(withReferences / 3);
      expect(spilled - withoutReferences).toBeLessThan(references / 5);
    } finally {
      spills.forEach((x) => x.close());
    }
  });
});

/** Where measured items are kept: a global, so nothing the optimiser can prove dead. */
const holder = globalThis as { __spillMeasure?: unknown };

/** Heap bytes what `make` returns keeps reachable: the median of three readings (one can be thrown off by the runner's own work). */
function retained(make: () => unknown): number {
  const settled = () => {
    gc();
    gc();
    return v8.getHeapStatistics().used_heap_size;
  };
  const readings: number[] = [];
  for (let round = 0; round < 3; round++) {
    holder.__spillMeasure = undefined;
    const before = settled();
    holder.__spillMeasure = make();
    readings.push(settled() - before);
  }
  holder.__spillMeasure = undefined;
  return readings.sort((a, b) => a - b)[1];
}
