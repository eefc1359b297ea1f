import { Injectable } from '@nestjs/common';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Neo4jService } from '@scopegraph/graph';
import type { ScopeRef } from './impact.service';
import { isTestPath } from './test-paths';

export const DEAD_CODE_LIMITS = { defaultMinConfidence: 0.7, maxResults: 2_000, defaultResults: 200 };
const KINDS = ['function', 'method', 'class'];

export interface DeadCodeCandidate {
  scope: ScopeRef & { language: string };
  /** 0-1: how sure the graph is that nothing uses it. */
  confidence: number;
  /** Why it could still be live (each lowered the confidence). */
  reasons: string[];
}

export interface DeadCodeResult {
  repository: string;
  candidates: DeadCodeCandidate[];
  /** Unreferenced declarations left out as entry points, by why. */
  excluded: Record<string, number>;
  considered: number;
  minConfidence: number;
}

interface CandidateRow extends ScopeRef {
  language: string;
  exported: boolean;
  head: string | null;
  parentKind: string | null;
  parentExported: boolean;
  externalBase: boolean;
  repoBase: boolean;
}

/** A package's API entry files: what outside code imports (programs' entry files export nothing). */
const ENTRY_FILE = /(^|\/)(index|mod|lib|__init__)\.[a-z]+$/;
/** Methods a runtime or framework calls by name (protocols, lifecycles, test fixtures). */
const CALLED_BY_NAME = new Set([
  'toString', 'toJSON', 'valueOf', 'then', 'constructor', 'render', 'setUp', 'tearDown', 'setUpClass', 'tearDownClass',
  'onModuleInit', 'onModuleDestroy', 'onApplicationBootstrap', 'beforeApplicationShutdown', 'onApplicationShutdown',
  'ngOnInit', 'ngOnDestroy', 'ngOnChanges', 'componentDidMount', 'componentWillUnmount', 'componentDidUpdate', 'shouldComponentUpdate',
  'getDerivedStateFromProps', 'connectedCallback', 'disconnectedCallback', 'attributeChangedCallback', 'main', 'run', 'handle', 'execute',
]);
const IDENT = /[A-Za-z_$][\w$]*/g;
const QUOTED = /['"`]([A-Za-z_$][\w$]*)['"`]/g;
/** The identifier a string starts with: `"visit_" + name`, f"parse_{kind}", `on${event}`. */
const STRING_HEAD = /['"`]([A-Za-z_$][\w$]*)/g;
const MIN_PREFIX = 3;

/**
 * Dead-code candidates: unreferenced declarations minus entry points, each with a confidence lowered
 * by every reason it could still be live. Conservative by design: a name that occurs anywhere else,
 * even in a comment, costs confidence (false "dead" verdicts are what users of such tools distrust).
 */
@Injectable()
export class DeadCodeService {
  constructor(private readonly neo4j: Neo4jService) {}

  async deadCode(req: { repository: string; minConfidence?: number; limit?: number; language?: string; pathPrefix?: string }): Promise<DeadCodeResult> {
    const minConfidence = req.minConfidence ?? DEAD_CODE_LIMITS.defaultMinConfidence;
    if (!(minConfidence >= 0 && minConfidence <= 1)) throw new DomainError(DomainErrorCode.InvalidInput, 'minConfidence must be from 0 to 1', 'minConfidence');
    const limit = req.limit ?? DEAD_CODE_LIMITS.defaultResults;
    if (!Number.isInteger(limit) || limit < 1 || limit > DEAD_CODE_LIMITS.maxResults) throw new DomainError(DomainErrorCode.InvalidInput, `limit must be an integer from 1 to ${DEAD_CODE_LIMITS.maxResults}`, 'limit');
    const [repo] = await this.neo4j.read<{ rootPath: string }>('impact/repository', { repoId: req.repository });
    if (!repo) throw new DomainError(DomainErrorCode.UnknownRepository, `no repository named "${req.repository}"`, 'repository');

    const [rows, files, unresolved] = await Promise.all([
      this.neo4j.read<CandidateRow>('impact/dead-candidates', { repoId: req.repository, kinds: KINDS, language: req.language ?? null, pathPrefix: req.pathPrefix ?? null }),
      this.neo4j.read<{ path: string; source: string | null; importedBy: string[] }>('impact/dead-context', { repoId: req.repository }),
      this.neo4j.read<{ name: string; uses: number }>('impact/unresolved-names', { repoId: req.repository }),
    ]);
    const words = new Map<string, number>();
    const quoted = new Map<string, number>();
    const heads = new Set<string>();
    // The graph keeps only the head of a file's text: the words are counted in the files themselves.
    const texts = await mapLimit(files, FILE_READS, async (f) => (await readText(repo.rootPath, f.path)) ?? f.source ?? '');
    for (const text of texts) {
      for (const m of text.matchAll(IDENT)) words.set(m[0], (words.get(m[0]) ?? 0) + 1);
      for (const m of text.matchAll(QUOTED)) quoted.set(m[1], (quoted.get(m[1]) ?? 0) + 1);
      for (const m of text.matchAll(STRING_HEAD)) if (m[1].length >= MIN_PREFIX) heads.add(m[1]);
    }
    const unresolvedByName = new Map<string, number>();
    for (const u of unresolved) {
      const last = u.name.slice(u.name.lastIndexOf('.') + 1);
      unresolvedByName.set(last, (unresolvedByName.get(last) ?? 0) + u.uses);
    }
    // Public API: entry files, and files an entry file imports (re-exports, `from .x import y` in __init__).
    const publicFiles = new Set<string>();
    for (const f of files) {
      if (ENTRY_FILE.test(f.path)) publicFiles.add(f.path);
      else if (f.importedBy.some((g) => ENTRY_FILE.test(g))) publicFiles.add(f.path);
    }
    const definitions = new Map<string, number>();
    for (const r of rows) definitions.set(r.name, (definitions.get(r.name) ?? 0) + 1);

    const excluded: Record<string, number> = {};
    const exclude = (why: string) => (excluded[why] = (excluded[why] ?? 0) + 1);
    const candidates: DeadCodeCandidate[] = [];
    for (const r of rows) {
      const why = entryPoint(r, publicFiles);
      if (why) {
        exclude(why);
        continue;
      }
      let confidence = 0.95;
      const reasons: string[] = [];
      const q = quoted.get(r.name) ?? 0;
      if (q > 0) {
        confidence -= 0.5;
        reasons.push(`its name is written as a string ${q} time${q === 1 ? '' : 's'} (lookup by name, reflection, a registry)`);
      }
      const prefix = namePrefix(r.name, heads);
      if (prefix) {
        confidence -= 0.5;
        reasons.push(`a string starts with "${prefix}": the name may be built at run time (getattr(self, "${prefix}" + ...), dispatch tables)`);
      }
      const u = unresolvedByName.get(r.name) ?? 0;
      if (u > 0) {
        confidence -= 0.4;
        reasons.push(`${u} unresolved reference${u === 1 ? '' : 's'} named ${r.name} could be calls to it`);
      }
      // Every declaration's own name is one occurrence; more are uses no resolver pinned (or mentions).
      const extra = (words.get(r.name) ?? 0) - (definitions.get(r.name) ?? 1);
      if (extra > 0) {
        confidence -= extra > 3 ? 0.4 : 0.3;
        reasons.push(`the name ${r.name} occurs ${extra} more time${extra === 1 ? '' : 's'} in the code (an unpinned use, or a mention)`);
      }
      if (r.exported || (r.kind === 'method' && r.parentExported)) {
        // Below the default threshold on its own: unused public code is reported only when asked for.
        confidence -= 0.3;
        reasons.push('exported: code outside the repository could use it');
      }
      if (r.kind === 'method' && r.repoBase) {
        confidence -= 0.1;
        reasons.push('its class extends another: a base could call it by name');
      }
      confidence = Math.max(0, Math.round(confidence * 100) / 100);
      if (confidence >= minConfidence) {
        candidates.push({
          scope: { id: r.id, name: r.name, qualifiedName: r.qualifiedName, kind: r.kind, path: r.path, startLine: r.startLine, endLine: r.endLine, language: r.language },
          confidence,
          reasons,
        });
      }
    }
    candidates.sort((a, b) => b.confidence - a.confidence || (a.scope.id < b.scope.id ? -1 : 1));
    return { repository: req.repository, candidates: candidates.slice(0, limit), excluded, considered: rows.length, minConfidence };
  }
}

/** Why an unreferenced declaration is an entry point (so not a candidate), or null. */
export function entryPoint(r: Pick<CandidateRow, 'name' | 'kind' | 'path' | 'exported' | 'head' | 'parentKind' | 'parentExported' | 'externalBase' | 'language'>, publicFiles: Set<string>): string | null {
  if (isTestPath(r.path) || /^test/i.test(r.name)) return 'test';
  if (/^__\w+__$/.test(r.name)) return 'dunder method';
  if (r.name === 'main' || r.name === '<anonymous>' || r.name === '') return 'main';
  if (CALLED_BY_NAME.has(r.name)) return 'called by name by a runtime or framework';
  if (r.head && /^\s*(export\s+)?(default\s+)?(abstract\s+)?@[\w.]+/m.test(firstLines(r.head))) return 'registered by a decorator';
  if (r.kind === 'method' && r.externalBase) return 'overrides a method of an outside class';
  if (r.parentKind === 'interface') return 'interface member';
  const exported = r.exported || (r.kind === 'method' && r.parentExported);
  if (exported && publicFiles.has(r.path)) return 'public API of the package';
  return null;
}

const FILE_READS = 16;

async function readText(root: string, rel: string): Promise<string | null> {
  const full = path.resolve(root, rel);
  if (!full.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return null;
  try {
    return await fs.readFile(full, 'utf8');
  } catch {
    return null;
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  }));
  return out;
}

/** A string head the name extends at a word boundary (`visit_` of `visit_For`, `on` of `onClick`). */
function namePrefix(name: string, heads: Set<string>): string | null {
  for (let end = name.length - 1; end >= MIN_PREFIX; end--) {
    const head = name.slice(0, end);
    const boundary = head.endsWith('_') || /[A-Z]/.test(name[end]);
    if (boundary && heads.has(head)) return head;
  }
  return null;
}

function firstLines(head: string): string {
  return head.split('\n').slice(0, 3).join('\n');
}
