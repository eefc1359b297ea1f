import { createHash, Hash } from 'node:crypto';
import { edgeKey, GraphEdge, GraphEdgeType, graphId, PROVENANCE_CONFIDENCE, provenanceOf } from '@scopegraph/code-model';
import type { StoredEdge } from '../graph/ingest.repository';
import type { ParsedFile } from '../parse/types';
import type { ResolveResult } from '../resolve';
import { fileScopeId } from './scope-sync';

/**
 * The edges the graph should hold leaving the scopes of the files `wanted` accepts, from the parse
 * and the resolution of the whole repository (one edge per source, type and target: the first wins).
 * Their ids are repository-local (graphId without the repository: the parse's own id strings, no
 * new ones per edge); IngestRepository.writeEdgeChanges adds the prefix as it writes.
 */
export function desiredEdges(parsed: ParsedFile[], resolved: ResolveResult, wanted: (path: string) => boolean) {
  const byPath = new Map<string, GraphEdge[]>();
  const { pathOf, kindById, fileIds } = scopeIndex(parsed, wanted);
  const push = (path: string, e: GraphEdge) => {
    let group = byPath.get(path);
    if (!group) byPath.set(path, (group = []));
    group.push(e);
  };
  for (const f of parsed) {
    if (!wanted(f.path)) continue;
    for (const s of f.scopes) {
      if (!s.parentId) continue;
      push(f.path, { from: s.parentId, type: kindById.get(s.parentId) === 'file' ? 'DECLARES' : 'HAS_MEMBER', to: s.id, target: 'scope', line: null });
    }
  }
  for (const e of resolved.edges) {
    const path = pathOf.get(e.fromId);
    if (!path) continue;
    const provenance = e.resolver ? provenanceOf(e.resolver, e.guessed) : undefined;
    push(path, {
      from: e.fromId, type: e.type, to: e.toId, target: 'scope', line: e.line ?? null,
      ...(e.resolver ? { resolver: e.resolver } : {}),
      ...(provenance ? { provenance, confidence: PROVENANCE_CONFIDENCE[provenance] } : {}),
    });
  }
  for (const imp of resolved.fileImports) {
    const from = fileIds.get(imp.fromPath);
    if (!from || !wanted(imp.fromPath)) continue;
    if (imp.toPath && fileIds.has(imp.toPath)) {
      push(imp.fromPath, { from, type: 'IMPORTS', to: fileIds.get(imp.toPath)!, target: 'scope', line: imp.line });
    } else if (imp.external) {
      push(imp.fromPath, { from, type: 'IMPORTS', to: `module:${imp.external}`, target: 'external', name: imp.external, line: imp.line });
    } else {
      push(imp.fromPath, { from, type: 'IMPORTS', to: `unresolved:${imp.specifier}`, target: 'unresolved', name: imp.specifier, line: imp.line, reason: 'missing-file' });
    }
  }
  for (const u of resolved.unresolved) {
    // Built-ins (console.log, print, Task...) are language noise, not code of this repository.
    const path = pathOf.get(u.fromId);
    if (u.reason === 'builtin' || !path) continue;
    push(path, {
      from: u.fromId, type: u.type, to: `unresolved:${u.targetName}`, target: 'unresolved', name: u.targetName, line: u.line,
      reason: u.reason, resolver: u.resolver, ...(u.origin ? { origin: u.origin } : {}),
    });
  }
  // An edge's source scope is in one file, so duplicates are within a file's group: removed one
  // group at a time (a set of every edge's key at once is the largest thing a full index would hold).
  for (const [path, group] of byPath) {
    const seen = new Set<string>();
    const unique = group.filter((e) => {
      const key = edgeKey(e);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (unique.length !== group.length) byPath.set(path, unique);
  }
  return byPath;
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
  desired: ReadonlyMap<string, GraphEdge[]>,
  stored: ReadonlyMap<string, StoredEdge>,
  written: (e: GraphEdge) => boolean = () => false,
): { creates: GraphEdge[]; writes: GraphEdge[]; deletes: { from: string; type: GraphEdgeType; to: string }[] } {
  const desiredKeys = new Set<string>();
  const creates: GraphEdge[] = [];
  const writes: GraphEdge[] = [];
  // Nothing stored (a first index): no keys to compare, every desired edge not yet written is created.
  const compare = stored.size > 0;
  for (const path of paths) {
    for (const e of desired.get(path) ?? []) {
      const key = compare ? edgeKey({ from: graphId(repoId, e.from), type: e.type, to: graphId(repoId, e.to) }) : '';
      if (compare) desiredKeys.add(key);
      const old = compare ? stored.get(key) : undefined;
      if (!old) {
        if (!written(e)) creates.push(e);
      } else if ((old.line ?? null) !== e.line || (old.reason ?? null) !== (e.reason ?? null) || (old.resolver ?? null) !== (e.resolver ?? null)
        || (old.provenance ?? null) !== (e.provenance ?? null) || (old.origin ?? null) !== (e.origin ?? null)) writes.push(e);
    }
  }
  const deletes = [...stored.values()].filter((e) => !desiredKeys.has(edgeKey(e))).map((e) => ({ from: e.from, type: e.type as GraphEdgeType, to: e.to }));
  return { creates, writes, deletes };
}

/** Per scope id (local) of the files `of` accepts its file's path and kind; per path (all) its file scope's id. */
function scopeIndex(parsed: ParsedFile[], of: (path: string) => boolean = () => true) {
  const pathOf = new Map<string, string>();
  const kindById = new Map<string, string>();
  const fileIds = new Map<string, string>();
  for (const f of parsed) {
    fileIds.set(f.path, f.scopes.find((s) => s.kind === 'file')?.id ?? fileScopeId(f.path));
    if (!of(f.path)) continue;
    for (const s of f.scopes) {
      pathOf.set(s.id, f.path);
      kindById.set(s.id, s.kind);
    }
  }
  return { pathOf, kindById, fileIds };
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
