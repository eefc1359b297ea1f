import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { ParsedFile, ParsedScope } from '../parse/types';
import { slim } from './parse-phase';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** A Python-like file as a parse thread returns it: every string its own copy (structured clone). */
function parsedFile(n: number, scopesPerFile = 20, refsPerScope = 8): ParsedFile {
  const path = `pkg/sub${n % 50}/module_${n}.py`;
  const scopes: ParsedScope[] = [];
  const references: ParsedFile['references'] = [];
  for (let i = 0; i < scopesPerFile; i++) {
    const qualifiedName = i === 0 ? path : `Handler${n}.method_number_${i}`;
    const id = `${path}#${qualifiedName}|${i === 0 ? 'file' : 'method'}`;
    scopes.push({
      id, name: i === 0 ? path : `method_number_${i}`, qualifiedName, kind: i === 0 ? 'file' : 'method', language: 'python', path, startLine: i * 10 + 1, endLine: i * 10 + 9,
      signature: `def method_number_${i}(self, request, timeout=None, retries=3)`, docComment: `Handles the request number ${i}. `.repeat(8), source: 'x'.repeat(400),
      contentHash: 'ab'.repeat(32), nameTokens: `handler ${n} method number ${i}`, parentId: i === 0 ? null : `${path}#${path}|file`,
    });
    if (i > 0) for (let r = 0; r < refsPerScope; r++) references.push({ fromId: id, kind: 'CALLS', targetName: `self.helper_${r}`, line: i * 10 + 2 + r });
  }
  return structuredClone({ path, language: 'python', contentHash: 'cd'.repeat(32), scopes, references, imports: [], exports: [], bindings: [], errors: [] });
}

/** Where measured items are kept: a global, so nothing the optimiser can prove dead. */
const holder = globalThis as { __slimMeasure?: unknown };

/** A full collection whose sweeping is finished (the second one completes the first's lazy sweep). */
function settledHeap(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size;
}

/**
 * Heap bytes `make` leaves reachable, per item: the median of three measurements, as one reading can
 * be thrown off by work of the test runner's own that a collection finishes in between.
 */
function retainedPerItem<T>(items: number, make: (i: number) => T): number {
  const readings: number[] = [];
  for (let round = 0; round < 3; round++) {
    holder.__slimMeasure = undefined;
    const before = settledHeap();
    const kept: T[] = [];
    holder.__slimMeasure = kept;
    for (let i = 0; i < items; i++) kept.push(make(i));
    readings.push((settledHeap() - before) / items);
    expect(kept.length).toBe(items);
  }
  holder.__slimMeasure = undefined;
  return readings.sort((a, b) => a - b)[1];
}

describe('slim (what an index run keeps of every parsed file until its edges are written)', () => {
  it('keeps what resolution reads and drops texts, signatures, docs and hashes', () => {
    const file = parsedFile(1);
    const s = slim(file);
    expect(s.scopes.map((x) => [x.id, x.name, x.qualifiedName, x.kind, x.language, x.path, x.startLine, x.endLine, x.parentId])).toEqual(
      file.scopes.map((x) => [x.id, x.name, x.qualifiedName, x.kind, x.language, x.path, x.startLine, x.endLine, x.parentId]),
    );
    expect(s.references).toEqual(file.references);
    for (const x of s.scopes) expect([x.source, x.signature, x.docComment, x.contentHash, x.nameTokens]).toEqual(['', '', null, '', '']);
  });

  it('retains a small, bounded size per scope (strings shared, not one copy per object)', () => {
    const files = 400;
    const scopes = 20;
    // The former slim kept everything but the text; measured side by side on the same machine.
    const textOnly = retainedPerItem(files, (i) => {
      const f = parsedFile(i, scopes);
      return { ...f, scopes: f.scopes.map((x) => ({ ...x, source: '' })) };
    }) / scopes;
    const slimmed = retainedPerItem(files, (i) => slim(parsedFile(i, scopes))) / scopes;
    // 20 scopes and 152 references a file: measured ~2.4 KiB a scope with the texts gone, ~0.85 KiB slimmed.
    expect(slimmed).toBeLessThan(textOnly / 2);
    expect(slimmed).toBeLessThan(1_200);
  });
});
