import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParsedFile, ParsedScope, RawReference, ScopeKind } from '../parse/types';
import type { ResolvedEdge, ScipHeritage, ScipOracle, ScipOutcome } from '../resolve/types';

export type { ScipHeritage, ScipOracle, ScipOutcome };
import { ScipDocument, ScipIndex, SCIP_ROLE_DEFINITION, SCIP_ROLE_IMPORT } from './decode';
import { ParsedScipSymbol, parseScipSymbol, symbolName, symbolOrigin } from './symbol';

/** How much of an index could be used, for the index summary. Paths are repo-relative. */
export interface ScipImportStats {
  tool: string;
  /** Repo-relative folder the index's document paths were read under ('' for the root). */
  pathPrefix: string;
  documents: number;
  /** Documents mapped to files of this index run and used. */
  used: number;
  /** Documents whose text differs from the file (embedded text hash, or definitions not where the file has their names): ignored. */
  stale: number;
  /** Documents naming no file of this run (not in the repository, skipped by the walk): ignored. */
  unknown: number;
  /** Their paths (the first LISTED_PATHS of each). */
  stalePaths: string[];
  unknownPaths: string[];
  /** Occurrences whose range lies outside their file (ignored; their documents are used otherwise). */
  outOfRange: number;
  occurrences: number;
  /** Symbols defined in used documents that map to a scope (by file, line range and name). */
  mappedSymbols: number;
}

/** At most this many paths are listed per kind of ignored document (the counts are exact). */
const LISTED_PATHS = 50;
/** A document is stale when more than this share of its checked definitions do not sit on their name. */
const STALE_MISMATCH_SHARE = 0.2;
/** Lines after a reference's own that its name may sit on (a call chain broken over lines). */
const LINE_SLACK = 2;
const CONSTRUCTOR_NAMES = new Set(['<constructor>', '<init>', '__init__', 'constructor', 'new']);
const INTERFACE_LIKE = new Set<ScopeKind>(['interface', 'trait']);
const TYPE_LIKE = new Set<ScopeKind>(['class', 'interface', 'enum', 'struct', 'record', 'trait', 'union', 'type_alias']);
const MEMBER_LIKE = new Set<ScopeKind>(['method', 'property', 'function', 'constructor']);

interface LineOccurrence {
  text: string;
  symbol: string;
  roles: number;
}

interface UsedDocument {
  path: string;
  /** 1-based line -> occurrences on it (references and definitions). */
  byLine: Map<number, LineOccurrence[]>;
}

/**
 * A SCIP index mapped onto one index run's parsed files: documents to files (by path under the
 * index's project root), definitions to scopes (the innermost scope of the definition's file whose
 * line range holds it and whose name is the symbol's), references to the scopes their symbols are
 * defined as. Stale documents, documents of unknown files and occurrences outside their file are
 * ignored and counted.
 */
export class ScipResolution implements ScipOracle {
  readonly stats: ScipImportStats;
  private readonly docs = new Map<string, UsedDocument>();
  /** Symbol (locals qualified by their path) -> scope ids it is defined as. */
  private readonly defs = new Map<string, string[]>();
  /** Symbols defined in used documents (with or without a scope). */
  private readonly definedHere = new Set<string>();
  /** Symbols defined in ignored documents: what the index says of them is not trusted. */
  private readonly untrusted = new Set<string>();
  private readonly relationships: { symbol: string; to: string }[] = [];
  private readonly scopesByPath = new Map<string, ParsedScope[]>();
  private readonly defLine = new Map<string, number>();
  /** References answered by the index, and those it said nothing about (for diagnostics and benchmarks). */
  answered = 0;
  unanswered = 0;

  /**
   * @param readFile the file's current text by repo-relative path (null when absent).
   * @param rootPath the repository's root; with the index's project root it decides where document paths live.
   */
  constructor(index: ScipIndex, files: ParsedFile[], rootPath: string, readFile: (path: string) => string | null = (p) => readText(rootPath, p)) {
    const byPath = new Map(files.map((f) => [f.path, f]));
    for (const f of files) this.scopesByPath.set(f.path, f.scopes);
    const prefix = pathPrefix(index, rootPath, byPath);
    this.stats = { tool: [index.tool.name, index.tool.version].filter(Boolean).join(' '), pathPrefix: prefix, documents: index.documents.length, used: 0, stale: 0, unknown: 0, stalePaths: [], unknownPaths: [], outOfRange: 0, occurrences: 0, mappedSymbols: 0 };
    const ignore = (doc: ScipDocument, list: string[], p: string) => {
      if (list.length < LISTED_PATHS) list.push(p);
      for (const o of doc.occurrences) if (o.roles & SCIP_ROLE_DEFINITION) this.untrusted.add(qualify(o.symbol, p));
    };
    for (const doc of index.documents) {
      const p = path.posix.normalize(prefix ? `${prefix}/${doc.relativePath}` : doc.relativePath);
      const file = byPath.get(p);
      const text = file ? readFile(p) : null;
      if (!file || text === null) {
        this.stats.unknown++;
        ignore(doc, this.stats.unknownPaths, p);
        continue;
      }
      const lines = text.split('\n');
      const used = this.mapDocument(doc, p, file, text, lines);
      if (!used) {
        this.stats.stale++;
        ignore(doc, this.stats.stalePaths, p);
      }
    }
    this.stats.used = this.docs.size;
    this.stats.mappedSymbols = this.defs.size;
  }

  private mapDocument(doc: ScipDocument, p: string, file: ParsedFile, text: string, lines: string[]): boolean {
    if (doc.text && sha256(doc.text) !== sha256(text)) return false;
    if (sha256(text) !== file.contentHash) return false;
    const byLine = new Map<number, LineOccurrence[]>();
    const defs: { key: string; line: number; name: string | null; ns: boolean }[] = [];
    let checked = 0;
    let mismatched = 0;
    for (const o of doc.occurrences) {
      const r = range(o.range);
      if (!r || r.startLine >= lines.length || r.endLine >= lines.length || r.endChar > lines[r.endLine].length + 1 || (r.startLine === r.endLine && r.endChar < r.startChar)) {
        this.stats.outOfRange++;
        continue;
      }
      this.stats.occurrences++;
      const tokenText = r.startLine === r.endLine ? lines[r.startLine].slice(r.startChar, r.endChar) : '';
      const line = r.startLine + 1;
      let list = byLine.get(line);
      if (!list) byLine.set(line, (list = []));
      list.push({ text: tokenText, symbol: o.symbol, roles: o.roles });
      if (!(o.roles & SCIP_ROLE_DEFINITION)) continue;
      const sym = parseScipSymbol(o.symbol);
      if (!sym) continue;
      const name = sym.local ? tokenText : symbolName(sym);
      const last = sym.descriptors[sym.descriptors.length - 1];
      // A definition whose range holds a name must hold the symbol's name: else the file changed since.
      if (!sym.local && name && tokenText && !CONSTRUCTOR_NAMES.has(name) && last?.suffix !== 'namespace' && last?.suffix !== 'meta') {
        checked++;
        if (tokenText !== name) mismatched++;
      }
      defs.push({ key: qualify(o.symbol, p), line, name, ns: !last || last.suffix === 'namespace' || last.suffix === 'meta' });
    }
    if (checked > 0 && mismatched > checked * STALE_MISMATCH_SHARE) return false;
    this.docs.set(p, { path: p, byLine });
    for (const d of defs) {
      this.definedHere.add(d.key);
      const scope = this.scopeAt(file, d.line, d.name, d.ns);
      if (!scope) continue;
      const list = this.defs.get(d.key);
      if (!list) this.defs.set(d.key, [scope.id]);
      else if (!list.includes(scope.id)) list.push(scope.id);
      if (!this.defLine.has(scope.id)) this.defLine.set(scope.id, d.line);
    }
    for (const s of doc.symbols) {
      for (const rel of s.relationships) if (rel.isImplementation) this.relationships.push({ symbol: qualify(s.symbol, p), to: qualify(rel.symbol, p) });
    }
    return true;
  }

  /** The innermost scope holding `line` named `name` (a constructor by kind); a module definition: the file scope. */
  private scopeAt(file: ParsedFile, line: number, name: string | null, ns: boolean): ParsedScope | undefined {
    let best: ParsedScope | undefined;
    for (const s of file.scopes) {
      if (s.kind === 'file' || line < s.startLine || line > s.endLine) continue;
      const named = name !== null && (s.name === name || (CONSTRUCTOR_NAMES.has(name) && s.kind === 'constructor'));
      if (!named) continue;
      if (!best || s.endLine - s.startLine <= best.endLine - best.startLine) best = s;
    }
    if (best) return best;
    return ns ? file.scopes.find((s) => s.kind === 'file') : undefined;
  }

  resolve(ref: RawReference, file: ParsedFile): ScipOutcome | undefined {
    const doc = this.docs.get(file.path);
    const name = referencedName(ref.targetName);
    if (!doc || !name) return undefined;
    const from = this.scopesByPath.get(file.path)?.find((s) => s.id === ref.fromId);
    const lastLine = Math.min(ref.line + LINE_SLACK, from?.endLine ?? ref.line);
    let occs: LineOccurrence[] = [];
    for (let line = ref.line; line <= lastLine && !occs.length; line++) {
      occs = (doc.byLine.get(line) ?? []).filter((o) => o.text === name && !(o.roles & (SCIP_ROLE_DEFINITION | SCIP_ROLE_IMPORT)));
    }
    if (!occs.length) {
      this.unanswered++;
      return undefined;
    }
    const targets = new Set<string>();
    let external: string | undefined;
    let dynamic = false;
    let untrusted = false;
    let silent = false;
    for (const o of occs) {
      const sym = parseScipSymbol(o.symbol);
      if (!sym) continue;
      const key = qualify(o.symbol, file.path);
      // An implicit constructor (no scope of its own): the type it constructs.
      const scopes = this.defs.get(key) ?? (isConstructorSymbol(sym) ? this.defs.get(ownerSymbol(key)) : undefined);
      if (scopes?.length) scopes.forEach((id) => targets.add(id));
      // Defined here but not as a scope: a parameter, local, field or property holding a function.
      else if (this.definedHere.has(key)) dynamic = true;
      // A local the document never defines (scip-python names builtins such as `isinstance` so): the
      // index says nothing of it; the name-based resolver knows the language's built-ins.
      else if (sym.local) silent = true;
      else if (this.untrusted.has(key)) untrusted = true;
      else external ??= symbolOrigin(sym);
    }
    if (targets.size) {
      this.answered++;
      return { targetIds: [...targets] };
    }
    if (untrusted || (silent && !dynamic && !external)) {
      this.unanswered++;
      return undefined;
    }
    this.answered++;
    if (dynamic) return { reason: 'dynamic' };
    return { reason: 'external', ...(external ? { origin: external } : {}) };
  }

  private byId?: Map<string, ParsedScope>;
  private scopeById(): Map<string, ParsedScope> {
    if (!this.byId) {
      this.byId = new Map();
      for (const list of this.scopesByPath.values()) for (const s of list) this.byId.set(s.id, s);
    }
    return this.byId;
  }

  heritage(): ScipHeritage[] {
    const out: ScipHeritage[] = [];
    const scopeOf = this.scopeById();
    const pairs: [ParsedScope, ParsedScope][] = [];
    for (const rel of this.relationships) {
      for (const fromId of this.defs.get(rel.symbol) ?? []) {
        for (const toId of this.defs.get(rel.to) ?? []) {
          const from = scopeOf.get(fromId);
          const to = scopeOf.get(toId);
          if (from && to && from.id !== to.id) pairs.push([from, to]);
        }
      }
    }
    const bases = new Map<string, Set<string>>();
    for (const [from, to] of pairs) {
      if (!TYPE_LIKE.has(from.kind) || !TYPE_LIKE.has(to.kind)) continue;
      let set = bases.get(from.id);
      if (!set) bases.set(from.id, (set = new Set()));
      set.add(to.id);
      out.push({ fromId: from.id, toId: to.id, type: INTERFACE_LIKE.has(to.kind) && !INTERFACE_LIKE.has(from.kind) ? 'IMPLEMENTS' : 'EXTENDS', line: this.defLine.get(from.id) ?? from.startLine });
    }
    // A member overrides one of a base type's (some indexers also list the reverse, for navigation).
    const inherits = (cls: string, base: string): boolean => {
      const seen = new Set<string>();
      const stack = [cls];
      while (stack.length) {
        const c = stack.pop()!;
        if (c === base) return c !== cls;
        if (seen.has(c)) continue;
        seen.add(c);
        stack.push(...(bases.get(c) ?? []));
      }
      return false;
    };
    for (const [from, to] of pairs) {
      if (!MEMBER_LIKE.has(from.kind) || !MEMBER_LIKE.has(to.kind) || !from.parentId || !to.parentId || !inherits(from.parentId, to.parentId)) continue;
      out.push({ fromId: from.id, toId: to.id, type: 'OVERRIDES', line: this.defLine.get(from.id) ?? from.startLine });
    }
    return out;
  }

  /**
   * Every reference occurrence of a used document whose symbol maps to a scope, as a REFERENCES edge
   * from the innermost scope holding it: the index's own view, for callers that do not go through
   * the resolver's raw references (the resolver itself asks `resolve` per reference).
   */
  occurrenceEdges(): ResolvedEdge[] {
    const edges = new Map<string, ResolvedEdge>();
    for (const doc of this.docs.values()) {
      const scopes = this.scopesByPath.get(doc.path) ?? [];
      for (const [line, occs] of doc.byLine) {
        const from = innermost(scopes, line);
        if (!from) continue;
        for (const o of occs) {
          if (o.roles & (SCIP_ROLE_DEFINITION | SCIP_ROLE_IMPORT)) continue;
          for (const toId of this.defs.get(qualify(o.symbol, doc.path)) ?? []) {
            if (toId === from.id) continue;
            const k = `${from.id}\u0000${toId}`;
            if (!edges.has(k)) edges.set(k, { fromId: from.id, toId, type: 'REFERENCES', line, resolver: 'scip' });
          }
        }
      }
    }
    return [...edges.values()];
  }
}

/** Builds the mapping of a SCIP index file onto one run's parsed files (reads the files from disk). */
export function mapScipIndex(index: ScipIndex, files: ParsedFile[], rootPath: string): ScipResolution {
  return new ScipResolution(index, files, rootPath);
}

function isConstructorSymbol(p: ParsedScipSymbol): boolean {
  const last = p.descriptors[p.descriptors.length - 1];
  return last?.suffix === 'method' && CONSTRUCTOR_NAMES.has(last.name);
}

/** `...Foo#<init>().` -> `...Foo#`: the symbol of a method's owner. */
function ownerSymbol(symbol: string): string {
  return symbol.replace(/(`[^`]*`|[\w$+-]+)\([^)]*\)\.$/, '');
}

function innermost(scopes: ParsedScope[], line: number): ParsedScope | undefined {
  let best: ParsedScope | undefined;
  for (const s of scopes) {
    if (line < s.startLine || line > s.endLine) continue;
    if (!best || s.endLine - s.startLine <= best.endLine - best.startLine) best = s;
  }
  return best;
}

/** The identifier a raw reference's target ends with (`this.repo.save` -> `save`); null for `super`/`this`. */
function referencedName(targetName: string): string | null {
  const parts = targetName.split(/\.|::|->/);
  const last = parts[parts.length - 1];
  if (!last || last === 'super' || last === 'this' || last === 'self' || last === 'base') return null;
  return last;
}

/** Local symbols are unique only within their document. */
function qualify(symbol: string, p: string): string {
  return symbol.startsWith('local ') ? `${p}\u0000${symbol}` : symbol;
}

function range(r: number[]): { startLine: number; startChar: number; endLine: number; endChar: number } | null {
  if (r.length === 3) return { startLine: r[0], startChar: r[1], endLine: r[0], endChar: r[2] };
  if (r.length === 4) return { startLine: r[0], startChar: r[1], endLine: r[2], endChar: r[3] };
  return null;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readText(rootPath: string, p: string): string | null {
  try {
    return fs.readFileSync(path.join(rootPath, p), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The repo-relative folder the index's document paths are relative to: the index's project root
 * relative to the repository's when it lies inside it; otherwise (an index made on another machine,
 * in CI) the folder under which most documents name existing files.
 */
export function pathPrefix(index: ScipIndex, rootPath: string, files: ReadonlyMap<string, unknown>): string {
  if (index.projectRoot.startsWith('file://')) {
    try {
      const rel = path.relative(path.resolve(rootPath), fileURLToPath(index.projectRoot)).split(path.sep).join('/');
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
    } catch {
      // not a usable file URI: guess below
    }
  }
  const votes = new Map<string, number>();
  const sample = index.documents.slice(0, 200);
  for (const d of sample) {
    for (const f of files.keys()) {
      if (f === d.relativePath) votes.set('', (votes.get('') ?? 0) + 1);
      else if (f.endsWith(`/${d.relativePath}`)) {
        const pre = f.slice(0, f.length - d.relativePath.length - 1);
        votes.set(pre, (votes.get(pre) ?? 0) + 1);
      }
    }
  }
  let best = '';
  let most = votes.get('') ?? 0;
  for (const [pre, n] of votes) if (n > most) [best, most] = [pre, n];
  return best;
}

/** Several indexes (one per language or project) as one oracle: the first that answers a reference wins. */
export class ScipOracles implements ScipOracle {
  constructor(readonly all: ScipOracle[]) {}

  resolve(ref: RawReference, file: ParsedFile): ScipOutcome | undefined {
    for (const o of this.all) {
      const answer = o.resolve(ref, file);
      if (answer) return answer;
    }
    return undefined;
  }

  heritage(): ScipHeritage[] {
    return this.all.flatMap((o) => o.heritage());
  }
}
