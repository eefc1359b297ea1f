import { Injectable } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { cypherInt, Neo4jService, PlanWarmup } from '@scopegraph/graph';
import type { ScopeRef } from './scope-ref';
import { CHANGE_SUGGESTIONS, ChangeSuggestion, PartnerRow, rankChangeSuggestions } from './change-suggestions';
import { isTestPath } from './test-paths';

export const IMPACT_LIMITS = { maxDepth: 6, defaultDepth: 3, maxNodes: 2_000, defaultNodes: 500, maxTargets: 200, maxCoChanged: 50, defaultCoChanged: 10, maxChangesWith: 50, defaultChangesWith: 0 };

export type { ScopeRef } from './scope-ref';

/** One edge of a path, as the graph holds it: `from` depends on `to`. */
export interface PathEdge {
  from: string;
  edge: string;
  to: string;
  line: number | null;
  /** fast: matched by name; precise: the compiler's answer; null for edges no resolver made. */
  resolver: string | null;
  /** Set when `to` is a base member that `via` overrides: the call reaches `via` through dynamic dispatch. */
  via: string | null;
}

export type ImpactRelation = 'caller' | 'referrer' | 'overrider' | 'subclass' | 'implementer' | 'dispatch-caller';

export interface ImpactedScope {
  scope: ScopeRef;
  depth: number;
  relation: ImpactRelation;
  isTest: boolean;
  /** From the impacted scope to a changed one, edge by edge. */
  path: PathEdge[];
}

export interface ImpactCoverage {
  /** Distinct edges the answer followed, and how many of them were matched by name only (resolver fast). */
  edges: number;
  nameOnlyEdges: number;
  preciseEdges: number;
  /** Unpinned references anywhere whose name ends in a name of the answer: possible callers not shown. */
  unresolvedSameName: number;
  /** Unpinned references out of the reached code (dynamic calls, unknown receivers). */
  unresolvedInReached: number;
  testsFound: boolean;
  /** The node cap stopped the walk before the depth did. */
  truncated: boolean;
  /** The coverage in one sentence. */
  summary: string;
}

export interface CoChangedScope {
  scope: ScopeRef;
  confidence: number;
  support: number;
  /** The changed scopes (or files) it changes with. */
  with: string[];
  level: string;
}

export interface Importer {
  path: string;
  imports: string;
  line: number | null;
  isTest: boolean;
}

export interface ImpactResult {
  repository: string;
  targets: ScopeRef[];
  depth: number;
  levels: { depth: number; scopes: ImpactedScope[] }[];
  importers: Importer[];
  tests: ScopeRef[];
  coverage: ImpactCoverage;
  /** History partners no static edge of the answer links (history alone; see changesWith). */
  coChanged: CoChangedScope[];
  /**
   * What else usually changes with the asked scopes: static edges, same-file neighbours and history's
   * co-change fused (change-suggestions.ts), each with the lists that ranked it. Opt-in: empty unless
   * the request asks for some (changesWithStatus says which).
   */
  changesWith: ChangeSuggestion[];
  /** computed: changesWith was read (it may still be empty); not-asked: changesWith was 0, nothing was read. */
  changesWithStatus: ChangesWithStatus;
  history: 'git' | 'none' | 'not-read';
  elapsedMs: number;
}

export type ChangesWithStatus = 'computed' | 'not-asked';

export interface ImpactRequest {
  repository: string;
  scopeIds?: string[];
  qualifiedNames?: string[];
  depth?: number;
  maxNodes?: number;
  coChanged?: number;
  /**
   * Suggestions in changesWith at most. Default 0: none and no read for them (the read costs a hub
   * about as much as the walk itself); callers that show "what else usually changes" ask for them.
   */
  changesWith?: number;
}

export interface ImpactOptions {
  /**
   * Co-change rules from elsewhere than the graph's CO_CHANGED edges (the co-change bench learns them
   * from commits older than its test commits only): rows with source 'co-change'.
   */
  coChangeRules?: (ids: string[]) => Promise<PartnerRow[]>;
}

/** The first edge (by target id) that reached a dependent: the first step of its path. */
interface FirstEdge {
  target: string;
  edge: string;
  line: number | null;
  resolver: string | null;
  via: string | null;
}

/** A dependent new to the answer, with its unpinned, non-external references out (dynamic calls, unknown receivers). */
interface HitRow extends ScopeRef {
  first: FirstEdge;
  unresolvedOut: number | null;
}

interface RepositoryRow {
  history: string | null;
  indexedAt: string | null;
  edges: number | null;
}

interface WalkRow {
  repository: RepositoryRow | null;
  targets: (ScopeRef & { asked: boolean })[];
  importers: { imported: string; id: string; path: string; line: number | null }[];
  /** New dependents per depth 1-6, by id (empty past the depth asked or where the walk stopped). */
  hits: HitRow[][];
  truncated: boolean;
  /** Distinct edges followed, and of them matched by name only (resolver fast) or by a compiler (precise). */
  edgeCount: number;
  nameOnly: number;
  precise: number;
  /** [dependent, asked scope] for every direct, non-dispatch edge into an asked scope ($callers only). */
  callers: [string, string][];
}

/**
 * The walk with parameters of its real calls' types (Neo4j caches a plan per parameter types), for
 * warmQueryPlans at the API's start: its first plan took 1.2-3.9 s on a loaded machine.
 */
export const IMPACT_PLAN_WARMUPS: PlanWarmup[] = [
  { name: 'impact/walk', params: { repoId: '', ids: [''], names: [''], depth: cypherInt(1), maxNodes: cypherInt(1), rowLimit: cypherInt(1), callers: false } },
];

const ROWS_PER_NODE = 8;
const ROW_SLACK = 500;
const UNRESOLVED_CACHE_REPOS = 16;

const RELATION: Record<string, ImpactRelation> = { CALLS: 'caller', REFERENCES: 'referrer', OVERRIDES: 'overrider', EXTENDS: 'subclass', IMPLEMENTS: 'implementer' };

/**
 * What depends on a set of scopes, walked backwards over the graph's edges level by level (one query
 * per level, so the depth and node cap bound the work), with the coverage of that answer stated.
 */
@Injectable()
export class ImpactService {
  /** Per repository: unpinned-reference counts by last name segment, valid for one index run. */
  private readonly unresolvedCache = new Map<string, { key: string; byName: Promise<Map<string, number>> }>();

  constructor(private readonly neo4j: Neo4jService) {}

  /**
   * The repository's unpinned references counted by the last segment of their name, read once per
   * index run: matching each answer's names against every Unresolved node with ENDS WITH took
   * seconds on a 50k-scope repository, and one map look-up per name takes nothing.
   */
  private unresolvedNames(repoId: string, repo: RepositoryRow): Promise<Map<string, number>> {
    const key = `${repo.indexedAt ?? ''}|${repo.edges ?? ''}`;
    const cached = this.unresolvedCache.get(repoId);
    if (cached && cached.key === key) return cached.byName;
    const byName = this.neo4j.read<{ name: string; uses: number }>('impact/unresolved-names', { repoId }).then((rows) => {
      const map = new Map<string, number>();
      for (const r of rows) {
        const last = r.name.slice(r.name.lastIndexOf('.') + 1);
        map.set(last, (map.get(last) ?? 0) + Number(r.uses));
      }
      return map;
    });
    byName.catch(() => this.unresolvedCache.delete(repoId));
    if (this.unresolvedCache.size >= UNRESOLVED_CACHE_REPOS) this.unresolvedCache.delete(this.unresolvedCache.keys().next().value!);
    this.unresolvedCache.set(repoId, { key, byName });
    return byName;
  }

  async impact(req: ImpactRequest, opts: ImpactOptions = {}): Promise<ImpactResult> {
    const started = performance.now();
    const depth = checkInt(req.depth ?? IMPACT_LIMITS.defaultDepth, 1, IMPACT_LIMITS.maxDepth, 'depth');
    const maxNodes = checkInt(req.maxNodes ?? IMPACT_LIMITS.defaultNodes, 1, IMPACT_LIMITS.maxNodes, 'maxNodes');
    const coLimit = checkInt(req.coChanged ?? IMPACT_LIMITS.defaultCoChanged, 0, IMPACT_LIMITS.maxCoChanged, 'coChanged');
    const withLimit = checkInt(req.changesWith ?? IMPACT_LIMITS.defaultChangesWith, 0, IMPACT_LIMITS.maxChangesWith, 'changesWith');
    const ids = req.scopeIds ?? [];
    const names = req.qualifiedNames ?? [];
    if (ids.length + names.length === 0) throw new DomainError(DomainErrorCode.InvalidInput, 'give at least one scope id or qualified name', 'scopeIds');
    if (ids.length + names.length > IMPACT_LIMITS.maxTargets) throw new DomainError(DomainErrorCode.InvalidInput, `at most ${IMPACT_LIMITS.maxTargets} scopes`, 'scopeIds');
    // One round trip for the repository, the targets, the whole walk and the importers: on a loaded
    // server each round trip cost tens of milliseconds, and the node cap is applied per level inside
    // the query, so a hub's dependents past the cap are never read.
    const [walk] = await this.neo4j.read<WalkRow>('impact/walk', {
      repoId: req.repository,
      ids,
      names,
      depth: cypherInt(depth),
      maxNodes: cypherInt(maxNodes),
      rowLimit: cypherInt(maxNodes * ROWS_PER_NODE + ROW_SLACK),
      callers: withLimit > 0,
    });
    const repo = walk?.repository;
    if (!repo) throw new DomainError(DomainErrorCode.UnknownRepository, `no repository named "${req.repository}"`, 'repository');
    const targetRows = walk.targets;
    if (!targetRows.some((t) => t.asked)) throw new DomainError(DomainErrorCode.InvalidInput, `no scope of "${req.repository}" has the given ids or qualified names`, ids.length ? 'scopeIds' : 'qualifiedNames');
    const targets = targetRows.map(({ asked: _a, ...t }) => t);
    const seen = new Map<string, ImpactedScope | null>(targets.map((t) => [t.id, null]));
    const levels: ImpactResult['levels'] = [];
    const truncated = walk.truncated;
    // Unresolved names: read once per index run of the repository, then from memory.
    const unresolvedNames = this.unresolvedNames(req.repository, repo);
    unresolvedNames.catch(() => undefined);
    const targetPaths = [...new Set(targets.map((t) => t.path))];
    const fileIds = targetPaths.map((p) => `${req.repository}:${p}#${p}|file`);
    // Candidates for changesWith need only the asked scopes (not the members they stand for: the
    // ranking was measured on the asked ones): one more round trip, only when asked for.
    const askedIds = targetRows.filter((t) => t.asked).map((t) => t.id);
    const partnerRows: Promise<PartnerRow[]> =
      withLimit === 0
        ? Promise.resolve([])
        : Promise.all([
            this.neo4j.read<PartnerRow>('impact/change-partners', {
              ids: askedIds,
              perSource: cypherInt(CHANGE_SUGGESTIONS.perSource),
              coChange: !opts.coChangeRules && repo.history === 'git',
            }),
            opts.coChangeRules ? opts.coChangeRules(askedIds) : Promise.resolve([]),
          ]).then(([a, b]) => [...a, ...b]);
    partnerRows.catch(() => undefined);
    const unresolvedOut = new Map<string, number>();
    for (let d = 1; d <= depth; d++) {
      const level: ImpactedScope[] = [];
      for (const h of walk.hits[d - 1] ?? []) {
        const r = h.first;
        const edge: PathEdge = { from: h.id, edge: r.edge, to: r.via ?? r.target, line: r.line ?? null, resolver: r.resolver ?? null, via: r.via ? r.target : null };
        const parent = seen.get(r.target);
        const hit: ImpactedScope = {
          scope: { id: h.id, name: h.name, qualifiedName: h.qualifiedName, kind: h.kind, path: h.path, startLine: h.startLine, endLine: h.endLine },
          depth: d,
          relation: r.via ? 'dispatch-caller' : RELATION[r.edge],
          isTest: isTestPath(h.path),
          path: [edge, ...(parent ? parent.path : [])],
        };
        seen.set(h.id, hit);
        unresolvedOut.set(h.id, Number(h.unresolvedOut ?? 0));
        level.push(hit);
      }
      if (level.length) levels.push({ depth: d, scopes: level });
    }
    const callerLinks = new Map<string, Set<string>>();
    for (const [id, target] of walk.callers) callerLinks.set(id, (callerLinks.get(id) ?? new Set<string>()).add(target));
    const reached = [...seen.values()].filter((h): h is ImpactedScope => h !== null);

    const answerNames = [...new Set([...targets, ...reached.map((h) => h.scope)].map((s) => s.name).filter((n) => n && n.length > 0))];
    // Independent reads: history's partners and the unresolved names, at once.
    const [coRows, byName, partners] = await Promise.all([
      // Without history there are no CO_CHANGED edges to read: one round trip fewer.
      coLimit > 0 && repo.history === 'git'
        ? this.neo4j.read<ScopeRef & { confidence: number; support: number; with: string[]; level: string }>('impact/co-changed', {
            ids: [...targets.map((t) => t.id), ...fileIds],
            exclude: [...seen.keys(), ...fileIds, ...reached.map((h) => `${req.repository}:${h.scope.path}#${h.scope.path}|file`)],
            limit: cypherInt(coLimit),
          })
        : Promise.resolve([]),
      unresolvedNames,
      partnerRows,
    ]);
    // An unpinned reference `x.y.name` or `name` could be a use of any scope named `name`.
    const sameName = answerNames.reduce((n, name) => n + (byName.get(name) ?? 0), 0);
    const inReached = reached.reduce((n, h) => n + (unresolvedOut.get(h.scope.id) ?? 0), 0);
    const importers = walk.importers
      .filter((r) => !targetPaths.includes(r.path))
      .map((r) => ({ path: r.path, imports: r.imported, line: r.line ?? null, isTest: isTestPath(r.path) }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const coChanged: CoChangedScope[] = coRows.map(({ confidence, support, with: w, level, ...s }) => ({ scope: s, confidence, support, with: w, level }));
    const callers: PartnerRow[] = [];
    for (const [id, targetsLinked] of callerLinks) {
      const hit = seen.get(id);
      if (hit) callers.push({ ...hit.scope, source: 'static', links: targetsLinked.size, query: null, distance: null, support: null, confidence: null });
    }
    const changesWith = rankChangeSuggestions(askedIds, mergeStatic([...partners, ...callers]), reached, withLimit);
    const tests = reached.filter((h) => h.isTest).map((h) => h.scope);
    const testsFound = tests.length > 0 || importers.some((i) => i.isTest);

    const coverage: ImpactCoverage = {
      edges: Number(walk.edgeCount),
      nameOnlyEdges: Number(walk.nameOnly),
      preciseEdges: Number(walk.precise),
      unresolvedSameName: sameName,
      unresolvedInReached: inReached,
      testsFound,
      truncated,
      summary: '',
    };
    coverage.summary = summarise(coverage, reached.length, depth);
    return {
      repository: req.repository,
      targets,
      depth,
      levels,
      importers,
      tests,
      coverage,
      coChanged,
      changesWith,
      changesWithStatus: withLimit > 0 ? 'computed' : 'not-asked',
      history: repo.history === 'git' ? 'git' : repo.history === 'none' ? 'none' : 'not-read',
      elapsedMs: Math.round(performance.now() - started),
    };
  }
}

/** A scope both called by and calling the asked ones is one static neighbour: its links add up. */
function mergeStatic(rows: PartnerRow[]): PartnerRow[] {
  const byId = new Map<string, PartnerRow>();
  const out: PartnerRow[] = [];
  for (const r of rows) {
    if (r.source !== 'static') out.push(r);
    else {
      const prev = byId.get(r.id);
      if (prev) prev.links = Number(prev.links ?? 0) + Number(r.links ?? 0);
      else byId.set(r.id, { ...r });
    }
  }
  return [...out, ...byId.values()];
}

function summarise(c: ImpactCoverage, reached: number, depth: number): string {
  const parts = [`${reached} dependent scope${reached === 1 ? '' : 's'} within depth ${depth}${c.truncated ? ' (cut at the node cap: there are more)' : ''}`];
  parts.push(`${c.nameOnlyEdges} of ${c.edges} edges matched by name only${c.nameOnlyEdges ? ' (could be wrong targets)' : ''}`);
  parts.push(`${c.unresolvedSameName} unresolved reference${c.unresolvedSameName === 1 ? '' : 's'} with a matching name could also lead here`);
  parts.push(`${c.unresolvedInReached} unresolved or dynamic reference${c.unresolvedInReached === 1 ? '' : 's'} in the reached code`);
  parts.push(c.testsFound ? 'tests found' : 'no tests found');
  return parts.join('; ');
}

export function checkInt(value: number, min: number, max: number, field: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new DomainError(DomainErrorCode.InvalidInput, `${field} must be an integer from ${min} to ${max}`, field);
  return value;
}
