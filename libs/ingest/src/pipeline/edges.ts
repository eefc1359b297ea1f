import { createHash, Hash } from 'node:crypto';
import { edgeKey, GraphEdge, GraphEdgeType, graphId, PROVENANCE_CONFIDENCE, provenanceOf } from '@scopegraph/code-model';
import type { StoredEdge } from '../graph/ingest.repository';
import type { ParsedFile, ParsedScope } from '../parse/types';
import type { ResolveResult } from '../resolve';
import { fileScopeId } from './scope-sync';

/**
 * The edges the graph should hold leaving the scopes of the files `wanted` accepts, from the parse
 * and the resolution of the whole repository (one edge per source, type and target: the first wins),
 * made one file at a time when asked for (`of(path)`): a full index asks for every file's, and all
 * of them at once would be the largest thing it holds (3.3 million edge objects at a million
 * scopes). What is kept between calls is an index of the resolver's output by file (typed arrays of
 * positions), and `count(path)` says how many edges a file's group has at most without making them.
 * Ids are repository-local (graphId without the repository: the parse's own id strings, no new ones
 * per edge); IngestRepository adds the prefix as it writes.
 */
export function desiredEdgeGroups(parsed: ParsedFile[], resolved: ResolveResult, wanted: (path: string) => boolean): DesiredEdges {
  const fileIndex = new Map<string, number>();
  const fileIds: string[] = [];
  parsed.forEach((f, i) => {
    fileIndex.set(f.path, i);
    fileIds.push(f.scopes.find((s) => s.kind === 'file')?.id ?? fileScopeId(f.path));
  });
  // The file (its index in `parsed`) of every scope of the wanted files.
  const fileOfScope = new Map<string, number>();
  parsed.forEach((f, i) => {
    if (wanted(f.path)) for (const s of f.scopes) fileOfScope.set(s.id, i);
  });
  const edges = byFile(parsed.length, resolved.edges, (k) => fileOfScope.get(resolved.edges[k].fromId));
  const imports = byFile(parsed.length, resolved.fileImports, (k) => (wanted(resolved.fileImports[k].fromPath) ? fileIndex.get(resolved.fileImports[k].fromPath) : undefined));
  // Built-ins (console.log, print, Task...) are language noise, not code of this repository.
  const misses = resolved.unresolved;
  const unresolved = byFile(parsed.length, misses, (k) => (misses.reasonAt(k) === 'builtin' ? undefined : fileOfScope.get(misses.fromIdAt(k))));
  fileOfScope.clear();
  const containment = (f: ParsedFile) => f.scopes.reduce((n, s) => n + (s.parentId ? 1 : 0), 0);
  return {
    count(path) {
      const i = fileIndex.get(path);
      if (i === undefined || !wanted(path)) return 0;
      return containment(parsed[i]) + edges.size(i) + imports.size(i) + unresolved.size(i);
    },
    of(path) {
      const i = fileIndex.get(path);
      if (i === undefined || !wanted(path)) return [];
      const f = parsed[i];
      const group: GraphEdge[] = [];
      // A scope's parent is in its own file.
      const kindById = new Map(f.scopes.map((s) => [s.id, s.kind]));
      for (const s of f.scopes) {
        if (!s.parentId) continue;
        group.push({ from: s.parentId, type: kindById.get(s.parentId) === 'file' ? 'DECLARES' : 'HAS_MEMBER', to: s.id, target: 'scope', line: null });
      }
      for (const e of edges.of(i)) {
        const provenance = e.resolver ? provenanceOf(e.resolver, e.guessed) : undefined;
        group.push({
          from: e.fromId, type: e.type, to: e.toId, target: 'scope', line: e.line ?? null,
          ...(e.resolver ? { resolver: e.resolver } : {}),
          ...(provenance ? { provenance, confidence: PROVENANCE_CONFIDENCE[provenance] } : {}),
        });
      }
      const from = fileIds[i];
      for (const imp of imports.of(i)) {
        const to = imp.toPath === undefined ? undefined : fileIndex.get(imp.toPath);
        if (to !== undefined) {
          group.push({ from, type: 'IMPORTS', to: fileIds[to], target: 'scope', line: imp.line });
        } else if (imp.external) {
          group.push({ from, type: 'IMPORTS', to: `module:${imp.external}`, target: 'external', name: imp.external, line: imp.line });
        } else {
          group.push({ from, type: 'IMPORTS', to: `unresolved:${imp.specifier}`, target: 'unresolved', name: imp.specifier, line: imp.line, reason: 'missing-file' });
        }
      }
      for (const u of unresolved.of(i)) {
        group.push({
          from: u.fromId, type: u.type, to: `unresolved:${u.targetName}`, target: 'unresolved', name: u.targetName, line: u.line,
          reason: u.reason, resolver: u.resolver, ...(u.origin ? { origin: u.origin } : {}),
        });
      }
      // An edge's source scope is in one file, so duplicates are within a file's group.
      const seen = new Set<string>();
      return group.filter((e) => {
        const key = edgeKey(e);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },
  };
}

/**
 * Cuts parses down, in place, to what desiredEdgeGroups and edgeHashes read of them (a scope's id,
 * parent and kind) once resolution and the symbol index are done with them: the full scope objects,
 * bindings, imports, exports and references are released for the edge write, which otherwise holds
 * every file's whole resolution view (~0.4 KiB a scope) until the last edge is written.
 */
export function keepForEdges(parsed: ParsedFile[]): void {
  for (const f of parsed) {
    // A stand-in typed as a scope: only these three fields are read from here on (this file).
    f.scopes = f.scopes.map((s) => ({ id: s.id, parentId: s.parentId, kind: s.kind }) as ParsedScope);
    f.references = [];
    f.imports = [];
    f.exports = [];
    f.bindings = [];
  }
}

/** Per file (of desiredEdgeGroups): its desired edges, made when asked for, and an upper bound of their number. */
export interface DesiredEdges {
  count(path: string): number;
  of(path: string): GraphEdge[];
}

/**
 * The items of a list grouped by file without copying them: positions sorted by file (stable, a
 * counting sort) in one typed array, and where each file's run starts in another.
 */
function byFile<T>(files: number, items: { readonly length: number; at(k: number): T | undefined }, fileOf: (k: number) => number | undefined) {
  const fileOfItem = new Int32Array(items.length);
  const start = new Int32Array(files + 1);
  for (let k = 0; k < items.length; k++) {
    const f = fileOf(k) ?? -1;
    fileOfItem[k] = f;
    if (f >= 0) start[f + 1]++;
  }
  for (let f = 0; f < files; f++) start[f + 1] += start[f];
  const order = new Int32Array(start[files]);
  const next = start.slice(0, files);
  fileOfItem.forEach((f, k) => {
    if (f >= 0) order[next[f]++] = k;
  });
  return {
    size: (f: number) => start[f + 1] - start[f],
    *of(f: number): Generator<T> {
      for (let k = start[f]; k < start[f + 1]; k++) yield items.at(order[k])!;
    },
  };
}

/** All of desiredEdgeGroups' groups at once, by path (small runs, tests). */
export function desiredEdges(parsed: ParsedFile[], resolved: ResolveResult, wanted: (path: string) => boolean): Map<string, GraphEdge[]> {
  const groups = desiredEdgeGroups(parsed, resolved, wanted);
  const byPath = new Map<string, GraphEdge[]>();
  for (const f of parsed) {
    const group = groups.of(f.path);
    if (group.length) byPath.set(f.path, group);
  }
  return byPath;
}

/**
 * The edge diff of files given a group at a time (see diffEdges): what to create and what to update
 * per group as it comes, and, once every group was given, the stored edges no longer desired.
 */
export class EdgeDiff {
  private readonly desiredKeys = new Set<string>();
  // Nothing stored (a first index): no keys to compare, every desired edge not yet written is created.
  private readonly compare: boolean;
  readonly counts = { creates: 0, writes: 0 };

  constructor(
    private readonly repoId: string,
    private readonly stored: ReadonlyMap<string, StoredEdge>,
    private readonly written: (e: GraphEdge) => boolean = () => false,
  ) {
    this.compare = stored.size > 0;
  }

  add(group: readonly GraphEdge[], creates: GraphEdge[] = [], writes: GraphEdge[] = []): { creates: GraphEdge[]; writes: GraphEdge[] } {
    const { repoId, stored, compare } = this;
    for (const e of group) {
      const key = compare ? edgeKey({ from: graphId(repoId, e.from), type: e.type, to: graphId(repoId, e.to) }) : '';
      if (compare) this.desiredKeys.add(key);
      const old = compare ? stored.get(key) : undefined;
      if (!old) {
        if (!this.written(e)) {
          creates.push(e);
          this.counts.creates++;
        }
      } else if ((old.line ?? null) !== e.line || (old.reason ?? null) !== (e.reason ?? null) || (old.resolver ?? null) !== (e.resolver ?? null)
        || (old.provenance ?? null) !== (e.provenance ?? null) || (old.origin ?? null) !== (e.origin ?? null)) {
        writes.push(e);
        this.counts.writes++;
      }
    }
    return { creates, writes };
  }

  /** After the last group: stored edges that no group desired. */
  deletes(): { from: string; type: GraphEdgeType; to: string }[] {
    return [...this.stored.values()].filter((e) => !this.desiredKeys.has(edgeKey(e))).map((e) => ({ from: e.from, type: e.type as GraphEdgeType, to: e.to }));
  }
}

/**
 * What to write for the files `paths`: edges the graph lacks (creates), edges it holds with another
 * line, reason or resolver (writes), and stored edges no longer desired (deletes). `desired` (from
 * desiredEdges) and the creates and writes carry repository-local ids; `stored` holds every stored
 * edge leaving those files' scopes, by edgeKey of graph ids, and the deletes are those. `written`
 * says which of the edges the graph lacks were written this run already as they are desired
 * (containment written with the scopes).
 */
export function diffEdges(
  repoId: string,
  paths: readonly string[],
  desired: ReadonlyMap<string, GraphEdge[]> | DesiredEdges,
  stored: ReadonlyMap<string, StoredEdge>,
  written: (e: GraphEdge) => boolean = () => false,
): { creates: GraphEdge[]; writes: GraphEdge[]; deletes: { from: string; type: GraphEdgeType; to: string }[] } {
  const diff = new EdgeDiff(repoId, stored, written);
  const out = { creates: [] as GraphEdge[], writes: [] as GraphEdge[] };
  const groupOf = (path: string) => ('of' in desired ? desired.of(path) : desired.get(path) ?? []);
  for (const path of paths) diff.add(groupOf(path), out.creates, out.writes);
  return { ...out, deletes: diff.deletes() };
}

/** Per scope id (local) of the files `of` accepts its file's path; per path (all) its file scope's id. */
function scopeIndex(parsed: ParsedFile[], of: (path: string) => boolean = () => true) {
  const pathOf = new Map<string, string>();
  const fileIds = new Map<string, string>();
  for (const f of parsed) {
    fileIds.set(f.path, f.scopes.find((s) => s.kind === 'file')?.id ?? fileScopeId(f.path));
    if (!of(f.path)) continue;
    for (const s of f.scopes) pathOf.set(s.id, f.path);
  }
  return { pathOf, fileIds };
}

/**
 * Per file, one hash of everything its outgoing edges are made from (its scopes' containment, and
 * the resolution of its references and imports), kept on the file scope: an equal hash means the
 * graph already holds exactly the edges this run would write, so a re-index neither reads nor
 * diffs them. Computed from the resolver's output directly (no edge objects for unchanged files),
 * in the order it comes, which depends only on the parse and the resolution. Ids carry no
 * repository prefix, like scope content hashes. Also counts per file its references left
 * unresolved and skipped as built-ins. With `only`, for those files alone (the resolution covered
 * no others).
 */
export function edgeHashes(
  parsed: ParsedFile[],
  resolved: ResolveResult,
  only?: ReadonlySet<string>,
): { hashes: Map<string, string>; counts: Map<string, { unresolved: number; builtin: number }> } {
  const { pathOf, fileIds } = scopeIndex(parsed, (path) => !only || only.has(path));
  const hashers = new Map<string, Hash>();
  const counts = new Map<string, { unresolved: number; builtin: number }>();
  const add = (path: string, item: string) => hashers.get(path)!.update(item);
  for (const f of parsed) {
    if (only && !only.has(f.path)) continue;
    hashers.set(f.path, createHash('sha256'));
    counts.set(f.path, { unresolved: 0, builtin: 0 });
    for (const s of f.scopes) if (s.parentId) add(f.path, `c\u0000${s.parentId}\u0000${s.id}\n`);
  }
  for (const e of resolved.edges) add(pathOf.get(e.fromId)!, `e\u0000${e.fromId}\u0000${e.type}\u0000${e.toId}\u0000${e.line ?? ''}\u0000${e.resolver ?? ''}\u0000${e.guessed ? 'g' : ''}\n`);
  for (const i of resolved.fileImports) {
    if (!fileIds.has(i.fromPath)) continue;
    const to = i.toPath && fileIds.has(i.toPath) ? `p${i.toPath}` : i.external ? `x${i.external}` : `u${i.specifier}`;
    add(i.fromPath, `i\u0000${to}\u0000${i.line}\n`);
  }
  for (const u of resolved.unresolved) {
    const path = pathOf.get(u.fromId)!;
    if (u.reason === 'builtin') {
      counts.get(path)!.builtin++;
      continue;
    }
    counts.get(path)!.unresolved++;
    add(path, `u\u0000${u.fromId}\u0000${u.type}\u0000${u.targetName}\u0000${u.line}\u0000${u.reason}\u0000${u.resolver ?? ''}\u0000${u.origin ?? ''}\n`);
  }
  return { hashes: new Map([...hashers].map(([path, h]) => [path, h.digest('hex')])), counts };
}
