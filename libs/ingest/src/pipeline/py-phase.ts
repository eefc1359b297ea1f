import { edgeKey, graphId } from '@scopegraph/code-model';
import type { FileCommit, IngestRepository, StoredEdge } from '../graph/ingest.repository';
import type { ParsedFile } from '../parse/types';
import type { ReferenceResolver, ResolveRun } from '../resolve/reference-resolver';
import type { ScipResolution } from '../scip';
import { desiredEdges, diffEdges, edgeHashes } from './edges';
import type { ReferenceSpill } from './reference-spill';
import { fileScopeId } from './scope-sync';

/** Where pyright's own phase is (IngestProgress.checker). */
export type PyPhaseStage = 'answering' | 'writing' | 'done' | 'failed';

/** What the graph phase leaves for pyright's phase: the parses with their references, and what it wrote. */
export interface PyPhaseInput {
  repoId: string;
  rootPath: string;
  /** Every file of the run, references included (the graph phase's own copies have theirs cleared). */
  parsed: ParsedFile[];
  /** Their references other than heritage (on disk): pyright's phase closes it when it ends. */
  spilled?: ReferenceSpill;
  only?: ReadonlySet<string>;
  scip?: ScipResolution;
  /** The graph phase's answers other than pyright's (TypeScript's checker): not asked again. */
  seed: NonNullable<ResolveRun['pyDeferred']>['answers'];
  /** Per file the graph phase resolved: the edge hash and reference counts it recorded. */
  written: { hashes: ReadonlyMap<string, string>; counts: ReadonlyMap<string, { unresolved: number; builtin: number }> };
}

export interface PyPhaseResult {
  run: Omit<ResolveRun, 'result' | 'pyDeferred'>;
  /** Files whose edges pyright's answers changed, and the edge changes written for them. */
  files: number;
  added: number;
  updated: number;
  removed: number;
  /** Change of the run's unresolved and built-in reference counts. */
  unresolvedDelta: number;
  builtinDelta: number;
  /** Wall time of the whole phase (pyright's answers and the write), ms. */
  ms: number;
}

/**
 * Pyright's answers as a second edge write (INGEST_PY_PRECISE_PHASE=deferred): the graph holds the
 * fast resolver's edges already; the references are resolved again with pyright asked, and only the
 * files whose edges come out different (by edge hash) are diffed against the graph and rewritten,
 * with their edge hash and counts, as the graph phase would have written them had pyright answered
 * there. Idempotent: run again over the same graph it finds nothing to change. Runs under the index
 * run's repository lock (the run waits for it before it finishes). A pyright that fails or times out
 * leaves the answers it gave (usually none) and the fast resolver's edges for the rest, and says so in
 * `run.pyPrecise.failed` / `skipped`.
 */
export async function upgradePythonEdges(
  repo: IngestRepository,
  resolver: ReferenceResolver,
  input: PyPhaseInput,
  onStage: (stage: PyPhaseStage) => Promise<void> | void = () => undefined,
): Promise<PyPhaseResult> {
  try {
    return await upgrade(repo, resolver, input, onStage);
  } finally {
    input.spilled?.close();
  }
}

async function upgrade(repo: IngestRepository, resolver: ReferenceResolver, input: PyPhaseInput, onStage: (stage: PyPhaseStage) => Promise<void> | void): Promise<PyPhaseResult> {
  const { repoId, parsed, only } = input;
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  await onStage('answering');
  const resolved = await resolver.resolve(repoId, input.rootPath, parsed, only, { ...(input.scip ? { scip: input.scip } : {}), ...(input.spilled ? { spilled: input.spilled } : {}) }, { seed: input.seed });
  const { result, pyDeferred: _none, ...run } = resolved;
  const state = edgeHashes(parsed, result, only);
  const changed = [...state.hashes].filter(([p, h]) => input.written.hashes.get(p) !== h).map(([p]) => p);
  const out: PyPhaseResult = { run, files: changed.length, added: 0, updated: 0, removed: 0, unresolvedDelta: 0, builtinDelta: 0, ms: 0 };
  if (!changed.length) {
    out.ms = ms();
    await onStage(run.pyPrecise?.failed || run.pyPrecise?.skipped ? 'failed' : 'done');
    return out;
  }
  await onStage('writing');
  const changedSet = new Set(changed);
  const desired = desiredEdges(parsed, result, (p) => changedSet.has(p));
  const stored = new Map<string, StoredEdge>();
  for (const e of await repo.storedEdgesOf(repoId, changed)) stored.set(edgeKey(e), e);
  const diff = diffEdges(repoId, changed, desired, stored);
  const commits = changed.map((p): FileCommit => {
    const now = state.counts.get(p)!;
    const before = input.written.counts.get(p);
    out.unresolvedDelta += now.unresolved - (before?.unresolved ?? 0);
    out.builtinDelta += now.builtin - (before?.builtin ?? 0);
    // Null hashes and scope count keep what the graph phase recorded.
    return { id: graphId(repoId, fileScopeId(p)), fileHash: null, interfaceHash: null, scopeCount: null, edgeHash: state.hashes.get(p)!, unresolvedRefs: now.unresolved, builtinRefs: now.builtin };
  });
  await repo.writeEdgeChanges(repoId, {
    deletes: diff.deletes,
    creates: diff.creates,
    merges: diff.writes,
    cleanOrphans: diff.deletes.length > 0,
    dirtyFileIds: commits.map((c) => c.id),
    commits,
  });
  Object.assign(out, { added: diff.creates.length, updated: diff.writes.length, removed: diff.deletes.length, ms: ms() });
  await onStage(run.pyPrecise?.failed || run.pyPrecise?.skipped ? 'failed' : 'done');
  return out;
}
