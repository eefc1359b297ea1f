import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { GraphEdge } from '@scopegraph/code-model';
import type { ParsedFile, ParsedScope, TypedBinding } from '../parse/types';
import type { ResolveResult } from '../resolve';
import { MissList } from '../resolve/miss-list';
import { ResolveOutput } from '../resolve/resolver-context';
import { SymbolTable } from '../resolve/symbol-table';
import { desiredEdgeGroups, desiredEdges, diffEdges, EdgeDiff, edgeHashes, keepForEdges } from './edges';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** A file of `scopes` methods under a class (ids as the parser makes them). */
function file(n: number, scopes = 10): ParsedFile {
  const path = `pkg/sub${n % 20}/module_${n}.py`;
  const fileId = `${path}#${path}|file`;
  const classId = `${path}#Handler${n}|class`;
  const list: ParsedScope[] = [
    { id: fileId, name: path, qualifiedName: path, kind: 'file', language: 'python', path, startLine: 1, endLine: 999, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId: null },
    { id: classId, name: `Handler${n}`, qualifiedName: `Handler${n}`, kind: 'class', language: 'python', path, startLine: 2, endLine: 998, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId: fileId },
  ];
  for (let i = 0; i < scopes; i++) {
    list.push({
      id: `${path}#Handler${n}.method_number_${i}|method`, name: `method_number_${i}`, qualifiedName: `Handler${n}.method_number_${i}`, kind: 'method', language: 'python', path,
      startLine: 3 + i * 10, endLine: 12 + i * 10, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId: classId,
    });
  }
  return { path, language: 'python', contentHash: '', scopes: list, references: [], imports: [], exports: [], bindings: [], errors: [] };
}

/** Every method calls `calls` methods of the next file, and one unresolved name and one built-in. */
function resolution(files: ParsedFile[], calls = 3): ResolveResult {
  const out: ResolveResult = { edges: [], unresolved: new MissList(), fileImports: [] };
  files.forEach((f, k) => {
    const next = files[(k + 1) % files.length];
    out.fileImports.push({ fromPath: f.path, toPath: next.path, specifier: `.module_${k + 1}`, line: 1 }, { fromPath: f.path, external: 'requests', specifier: 'requests', line: 2 });
    for (const s of f.scopes.filter((x) => x.kind === 'method')) {
      for (let c = 0; c < calls; c++) out.edges.push({ fromId: s.id, toId: next.scopes[2 + c].id, type: 'CALLS', line: s.startLine + c, resolver: 'fast' });
      out.unresolved.push({ fromId: s.id, type: 'CALLS', targetName: 'self.client.get', line: s.startLine, reason: 'unknown-receiver', resolver: 'fast' });
      out.unresolved.push({ fromId: s.id, type: 'CALLS', targetName: 'print', line: s.startLine, reason: 'builtin', resolver: 'fast' });
    }
  });
  return out;
}

/** Where measured items are kept: a global, so nothing the optimiser can prove dead. */
const holder = globalThis as { __edgesMeasure?: unknown };

function settledHeap(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size;
}

/** Heap bytes `make()` leaves reachable (median of three readings). */
function retained(make: () => unknown): number {
  const readings: number[] = [];
  for (let round = 0; round < 3; round++) {
    holder.__edgesMeasure = undefined;
    const before = settledHeap();
    holder.__edgesMeasure = make();
    readings.push(settledHeap() - before);
  }
  holder.__edgesMeasure = undefined;
  return readings.sort((a, b) => a - b)[1];
}

describe('desiredEdgeGroups (a file\'s desired edges, made when asked for)', () => {
  const files = [file(0, 3), file(1, 3), file(2, 3)];
  const resolved = resolution(files);
  // A second reference to the same target on another line: one edge, the first one's line.
  resolved.edges.push({ ...resolved.edges[0], line: 99 });

  it('gives per file containment, resolved edges, imports and non-built-in misses, duplicates removed', () => {
    const groups = desiredEdgeGroups(files, resolved, () => true);
    const f = files[0];
    const group = groups.of(f.path);
    const brief = (e: GraphEdge) => `${e.type} ${e.from} -> ${e.to} @${e.line}`;
    const methods = f.scopes.filter((s) => s.kind === 'method');
    expect(group.map(brief)).toEqual([
      `DECLARES ${f.scopes[0].id} -> ${f.scopes[1].id} @null`,
      ...methods.map((m) => `HAS_MEMBER ${f.scopes[1].id} -> ${m.id} @null`),
      ...methods.flatMap((m) => [0, 1, 2].map((c) => `CALLS ${m.id} -> ${files[1].scopes[2 + c].id} @${m.startLine + c}`)),
      `IMPORTS ${f.scopes[0].id} -> ${files[1].scopes[0].id} @1`,
      `IMPORTS ${f.scopes[0].id} -> module:requests @2`,
      ...methods.map((m) => `CALLS ${m.id} -> unresolved:self.client.get @${m.startLine}`),
    ]);
    expect(group.find((e) => e.type === 'CALLS' && e.target === 'scope')).toMatchObject({ resolver: 'fast', provenance: expect.any(String), confidence: expect.any(Number) });
    expect(groups.count(f.path)).toBeGreaterThanOrEqual(group.length);
  });

  it('gives nothing for files not wanted', () => {
    const groups = desiredEdgeGroups(files, resolved, (p) => p === files[1].path);
    expect(groups.of(files[0].path)).toEqual([]);
    expect(groups.count(files[0].path)).toBe(0);
    expect(groups.of(files[1].path).length).toBeGreaterThan(0);
  });

  it('diffs a group at a time as the whole diff does', () => {
    const groups = desiredEdgeGroups(files, resolved, () => true);
    const paths = files.map((f) => f.path);
    const whole = diffEdges('r', paths, groups, new Map());
    const diff = new EdgeDiff('r', new Map());
    const streamed = paths.flatMap((p) => diff.add(groups.of(p)).creates);
    expect(streamed).toEqual(whole.creates);
    expect(diff.counts.creates).toBe(whole.creates.length);
    expect(diff.deletes()).toEqual([]);
  });

  it('holds an index of the resolution, not the edges: a small fixed size per edge until a group is asked for', () => {
    const many = Array.from({ length: 200 }, (_, n) => file(n, 10));
    const r = resolution(many);
    const edges = many.reduce((n, f) => n + f.scopes.length - 1, 0) + r.edges.length + r.fileImports.length + r.unresolved.length / 2;
    const groupsBytes = retained(() => desiredEdgeGroups(many, r, () => true)) / edges;
    // Every group made at once (what a full index held before): measured side by side.
    const allBytes = retained(() => {
      const groups = desiredEdgeGroups(many, r, () => true);
      return many.map((f) => groups.of(f.path));
    }) / edges;
    // Measured ~19 bytes an edge against ~112 with every group made.
    expect(groupsBytes).toBeLessThan(allBytes / 3);
    expect(groupsBytes).toBeLessThan(32);
  });
});

describe('keepForEdges (parses cut to what the edge write reads)', () => {
  /** A file as resolution holds it: typed bindings, imports and a heritage reference beside the scopes. */
  function resolvable(n: number): ParsedFile {
    const f = file(n, 10);
    for (const s of f.scopes.slice(2)) {
      (f.bindings as TypedBinding[]).push({ scopeId: s.id, name: `client_${s.name}`, typeName: `Client${n}`, member: true }, { scopeId: s.id, name: `repo_${s.name}`, typeName: `Repo${n}`, member: false });
    }
    f.imports.push({ fromPath: f.path, specifier: `.module_${n + 1}`, names: [{ imported: `Handler${n + 1}`, local: `Handler${n + 1}` }], line: 1 });
    f.references.push({ fromId: f.scopes[1].id, kind: 'EXTENDS', targetName: `Base${n}`, line: 2 });
    return f;
  }

  it('leaves the desired edges and the edge hashes as they were', () => {
    const files = Array.from({ length: 5 }, (_, n) => resolvable(n));
    const r = resolution(files);
    const before = { edges: desiredEdges(files, r, () => true), hashes: edgeHashes(files, r) };
    keepForEdges(files);
    expect(files[0].scopes[2]).toEqual({ id: expect.any(String), parentId: files[0].scopes[1].id, kind: 'method' });
    expect({ edges: desiredEdges(files, r, () => true), hashes: edgeHashes(files, r) }).toEqual(before);
  });

  it('releases most of what the parses held', () => {
    // 1,000 files (about 8 MB parsed): large beside what other specs of the same jest worker may
    // still allocate between two readings (a CI run at 200 files read 0.51 where a quiet one reads 0.31).
    const full = retained(() => Array.from({ length: 1000 }, (_, n) => resolvable(n)));
    const kept = retained(() => {
      const files = Array.from({ length: 1000 }, (_, n) => resolvable(n));
      keepForEdges(files);
      return files;
    });
    // Measured side by side (ids are kept: the resolver's edges share those strings).
    expect(kept).toBeLessThan(full / 2);
  });
});

describe('ResolveOutput (the resolver\'s edges while it runs)', () => {
  it('keeps one edge per source, target and type, with the lowest line and in first-added order', () => {
    const out = new ResolveOutput(new SymbolTable([], 'dbo'), false);
    out.addEdge('a', 'b', 'CALLS', 5, 'fast');
    out.addEdge('a', 'c', 'CALLS', 3, 'fast');
    out.addEdge('a', 'b', 'CALLS', 2, 'precise');
    out.addEdge('a', 'b', 'REFERENCES', 7, 'fast');
    expect(out.result().edges).toEqual([
      { fromId: 'a', toId: 'b', type: 'CALLS', line: 2, resolver: 'precise' },
      { fromId: 'a', toId: 'c', type: 'CALLS', line: 3, resolver: 'fast' },
      { fromId: 'a', toId: 'b', type: 'REFERENCES', line: 7, resolver: 'fast' },
    ]);
  });

  it('makes no string per edge: a fraction of what a key per edge took', () => {
    const many = Array.from({ length: 200 }, (_, n) => file(n, 10));
    const r = resolution(many);
    const bytes = retained(() => {
      const out = new ResolveOutput(new SymbolTable([], 'dbo'), false);
      for (const e of r.edges) out.addEdge(e.fromId, e.toId, e.type, e.line, e.resolver);
      return out;
    }) / r.edges.length;
    // The former store, side by side: a Map from a key string per edge (source, target, type) to the edge.
    const keyed = retained(() => {
      const map = new Map<string, object>();
      for (const e of r.edges) {
        const edge: { fromId: string; toId: string; type: string; line?: number; resolver?: string } = { fromId: e.fromId, toId: e.toId, type: e.type };
        edge.line = e.line;
        edge.resolver = e.resolver;
        map.set(`${e.fromId}\u0000${e.toId}\u0000${e.type}`, edge);
      }
      return map;
    }) / r.edges.length;
    // Measured ~290 bytes an edge keyed, ~86 now.
    expect(bytes).toBeLessThan(keyed / 2);
  });
});
