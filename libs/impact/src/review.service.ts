import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Neo4jService } from '@scopegraph/graph';
import { applyHunks, diffRefs, FileChange, parseUnifiedDiff, resolveRef, showFile } from '@scopegraph/history';
import { ParserService } from '@scopegraph/ingest';
import { ChangedScope, mapChangedScopes, VersionScope } from './change-mapper';
import { ChangeSuggestion } from './change-suggestions';
import { CoChangedScope, ImpactOptions, ImpactResult, ImpactService, ScopeRef } from './impact.service';
import { isTestPath } from './test-paths';

export const REVIEW_LIMITS = { maxDiffChars: 2_000_000, maxFiles: 500, defaultDepth: 2, suggestions: 10 };

export interface ReviewedFile {
  path: string;
  change: 'added' | 'modified' | 'removed';
  linesAdded: number;
  linesDeleted: number;
  /** False for files the parser does not read (their scopes are unknown). */
  parsed: boolean;
  isTest: boolean;
}

export interface ReviewedScope extends ChangedScope {
  /** The graph's id (repository-qualified). */
  graphId: string;
  /** Whether the graph holds it (modified and removed scopes of the indexed version do). */
  inGraph: boolean;
}

export interface ChangeReview {
  repository: string;
  base: string | null;
  head: string | null;
  files: ReviewedFile[];
  changedScopes: ReviewedScope[];
  impact: ImpactResult | null;
  /** Scopes that history says change with the changed ones, which this change leaves alone. */
  coChangeMissing: CoChangedScope[];
  /**
   * What usually changes with the changed scopes and this change leaves alone: static edges, same-file
   * neighbours and co-change fused (impact's changesWith), with provenance.
   */
  changeSuggestions: ChangeSuggestion[];
  /** Tests reached from the changed code, test files importing it, and tests the change edits. */
  tests: { path: string; qualifiedName: string | null; how: string }[];
  warnings: string[];
  /** The unified diff reviewed (given, or git's between the refs): what a written review reads. */
  diff: string;
}

/**
 * A change (a unified diff against the indexed tree, or two git refs) mapped onto scopes by line
 * ranges, with its impact, the co-change partners it leaves untouched and the tests that cover it.
 * Both versions of every changed file are parsed here: added scopes exist in no graph yet.
 */
@Injectable()
export class ReviewService implements OnModuleDestroy {
  private readonly logger = new Logger(ReviewService.name);
  private parser: Promise<ParserService> | null = null;

  constructor(
    private readonly neo4j: Neo4jService,
    private readonly impacts: ImpactService,
  ) {}

  /** The API does not parse otherwise: grammars load on the first review only. */
  private parserReady(): Promise<ParserService> {
    return (this.parser ??= (async () => {
      const p = new ParserService();
      await p.init();
      return p;
    })());
  }

  async onModuleDestroy(): Promise<void> {
    if (this.parser) (await this.parser).dispose();
  }

  async review(req: { repository: string; diff?: string; base?: string; head?: string; depth?: number }, opts: ImpactOptions = {}): Promise<ChangeReview> {
    const [repo] = await this.neo4j.read<{ rootPath: string; history: string | null }>('impact/repository', { repoId: req.repository });
    if (!repo) throw new DomainError(DomainErrorCode.UnknownRepository, `no repository named "${req.repository}"`, 'repository');
    const warnings: string[] = [];
    const root = repo.rootPath;
    let changes: FileChange[];
    let before: (p: string) => Promise<string | null>;
    let after: (p: string, old: string | null, c: FileChange) => Promise<string | null>;
    let base: string | null = null;
    let head: string | null = null;
    let diff: string;
    if (req.diff !== undefined) {
      if (req.base || req.head) throw new DomainError(DomainErrorCode.InvalidInput, 'give either a diff or base and head refs, not both', 'diff');
      if (req.diff.length > REVIEW_LIMITS.maxDiffChars) throw new DomainError(DomainErrorCode.InvalidInput, `the diff is longer than ${REVIEW_LIMITS.maxDiffChars} characters`, 'diff');
      diff = req.diff;
      changes = parseUnifiedDiff(req.diff, true);
      if (changes.length === 0) throw new DomainError(DomainErrorCode.InvalidInput, 'no file changes found: expected a unified diff (diff --git / --- +++ / @@ hunks)', 'diff');
      before = (p) => readInside(root, p);
      after = async (p, old, c) => {
        if (c.deleted) return null;
        try {
          return applyHunks(old ?? '', c);
        } catch (error) {
          throw new DomainError(DomainErrorCode.InvalidInput, `the diff does not apply to the indexed tree: ${(error as Error).message}`, 'diff');
        }
      };
    } else {
      if (!req.base || !req.head) throw new DomainError(DomainErrorCode.InvalidInput, 'give a diff, or both base and head refs', req.base ? 'head' : 'base');
      base = await resolveRef(root, req.base);
      if (!base) throw new DomainError(DomainErrorCode.InvalidInput, `base "${req.base}" names no commit of ${req.repository}`, 'base');
      head = await resolveRef(root, req.head);
      if (!head) throw new DomainError(DomainErrorCode.InvalidInput, `head "${req.head}" names no commit of ${req.repository}`, 'head');
      diff = await diffRefs(root, base, head);
      changes = parseUnifiedDiff(diff);
      before = (p) => showFile(root, base!, p);
      after = (p, _old, c) => (c.deleted ? Promise.resolve(null) : showFile(root, head!, p));
    }
    if (changes.length > REVIEW_LIMITS.maxFiles) throw new DomainError(DomainErrorCode.InvalidInput, `the change touches ${changes.length} files, more than ${REVIEW_LIMITS.maxFiles}`, 'diff');

    const parser = await this.parserReady();
    const files: ReviewedFile[] = [];
    const changed: ReviewedScope[] = [];
    for (const c of changes) {
      const supported = parser.supports(c.path);
      files.push({ path: c.path, change: c.added ? 'added' : c.deleted ? 'removed' : 'modified', linesAdded: c.linesAdded, linesDeleted: c.linesDeleted, parsed: supported, isTest: isTestPath(c.path) });
      if (!supported) continue;
      const old = c.added ? null : await before(c.path);
      if (!c.added && old === null) warnings.push(`${c.path}: the old version could not be read`);
      const now = await after(c.path, old, c);
      const scopesOf = (text: string | null): VersionScope[] => (text === null ? [] : parser.parseFile(c.path, text).scopes);
      for (const s of mapChangedScopes(c.path, c.hunks, scopesOf(old), scopesOf(now))) changed.push({ ...s, graphId: `${req.repository}:${s.id}`, inGraph: false });
    }
    const present = new Set(
      (await this.neo4j.read<{ id: string }>('impact/scopes-present', { ids: changed.map((s) => s.graphId) })).map((r) => r.id),
    );
    for (const s of changed) s.inGraph = present.has(s.graphId);

    const roots = changed.filter((s) => s.inGraph && s.change !== 'added').map((s) => s.graphId);
    let impact: ImpactResult | null = null;
    if (roots.length) impact = await this.impacts.impact({ repository: req.repository, scopeIds: roots.slice(0, 200), depth: req.depth ?? REVIEW_LIMITS.defaultDepth, coChanged: 30, changesWith: REVIEW_LIMITS.suggestions }, opts);
    else if (changed.length) warnings.push('no changed scope is in the graph yet (only added code, or an index older than the base): no impact to compute');

    const changedIds = new Set(changed.map((s) => s.graphId));
    const changedPaths = new Set(changes.map((c) => c.path));
    const coChangeMissing = (impact?.coChanged ?? []).filter((c) => !changedIds.has(c.scope.id) && !changedPaths.has(c.scope.path));
    const changeSuggestions = (impact?.changesWith ?? []).filter((c) => !changedIds.has(c.scope.id));
    const tests: ChangeReview['tests'] = [];
    const seen = new Set<string>();
    const addTest = (p: string, qn: string | null, how: string) => {
      const key = `${p}#${qn}`;
      if (seen.has(key)) return;
      seen.add(key);
      tests.push({ path: p, qualifiedName: qn, how });
    };
    for (const f of files) if (f.isTest) addTest(f.path, null, 'edited by this change');
    for (const t of impact?.tests ?? []) addTest(t.path, t.qualifiedName, 'reaches the changed code');
    for (const i of impact?.importers ?? []) if (i.isTest) addTest(i.path, null, `imports ${i.imports}`);
    if (repo.history !== 'git') warnings.push('no history read for this repository: co-change partners unknown');
    return { repository: req.repository, base, head, files, changedScopes: changed, impact, coChangeMissing, changeSuggestions, tests, warnings, diff };
  }
}

/** A repository file's text, refusing paths that leave the repository. */
async function readInside(root: string, rel: string): Promise<string | null> {
  const full = path.resolve(root, rel);
  if (full !== root && !full.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
    throw new DomainError(DomainErrorCode.InvalidInput, `the diff names a path outside the repository: ${rel}`, 'diff');
  }
  try {
    return await fs.readFile(full, 'utf8');
  } catch {
    return null;
  }
}

export type { ScopeRef };
