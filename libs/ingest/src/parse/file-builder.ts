import * as crypto from 'node:crypto';
import { nameTokens } from '@scopegraph/code-model';
import type {
  Language, ParsedFile, ParsedScope, RawExport, RawImport, RawReferenceKind, ScopeKind, TypedBinding,
} from './types';

/** A scope under construction; ids are assigned by {@link FileBuilder.build}. */
export interface ScopeDraft {
  name: string;
  qualifiedName: string;
  kind: ScopeKind;
  /** UTF-16 offsets into the file content ([start, end)). */
  startIndex: number;
  endIndex: number;
  startLine: number;
  endLine: number;
  signature: string;
  docComment: string | null;
  exported?: boolean;
  /** See ParsedScope.owner. */
  owner?: string;
  parent: ScopeDraft | null;
  /** Type parameter names declared by this scope (excluded from type references). */
  typeParams?: Set<string>;
  refs: DraftRef[];
  refKeys: Set<string>;
  bindingKeys?: Set<string>;
  id?: string;
}

interface DraftRef {
  kind: RawReferenceKind;
  targetName: string;
  line: number;
  targetLanguage?: Language;
}

export interface NewScope {
  name: string;
  qualifiedName?: string;
  kind: ScopeKind;
  startIndex: number;
  endIndex: number;
  startLine: number;
  endLine: number;
  signature: string;
  docComment?: string | null;
  exported?: boolean;
  /** See ParsedScope.owner. */
  owner?: string;
  parent: ScopeDraft;
}

const MAX_SIGNATURE = 400;

/** Collapse whitespace, trim, cap the length. */
export function normaliseSignature(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > MAX_SIGNATURE ? `${s.slice(0, MAX_SIGNATURE - 1)}…` : s;
}

// One-shot `crypto.hash` (Node >= 20.12) gives the same digest as a createHash chain without building a
// Hash object per call; a parse hashes every scope, so that allocation shows. Older Node falls back.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256(text: string): string {
  return oneShotHash ? oneShotHash('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}

export function countLines(content: string): number {
  if (!content) return 1;
  let n = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) n++;
  if (content.endsWith('\n')) n--;
  return Math.max(1, n);
}

/**
 * Collects scopes, references and imports of one file and turns them into a {@link ParsedFile}:
 * stable ids with overload suffixes, hashes, name tokens, de-duplicated references.
 */
export class FileBuilder {
  readonly file: ScopeDraft;
  readonly scopes: ScopeDraft[] = [];
  readonly imports: RawImport[] = [];
  readonly exports: RawExport[] = [];
  readonly errors: string[] = [];
  private readonly bindings: { scope: ScopeDraft; name: string; typeName: string; member: boolean }[] = [];

  constructor(
    readonly path: string,
    readonly language: Language,
    readonly content: string,
  ) {
    this.file = {
      name: path.slice(path.lastIndexOf('/') + 1),
      qualifiedName: path,
      kind: 'file',
      startIndex: 0,
      endIndex: content.length,
      startLine: 1,
      endLine: countLines(content),
      signature: path,
      docComment: null,
      parent: null,
      refs: [],
      refKeys: new Set(),
    };
    this.scopes.push(this.file);
  }

  /** Qualified name of a child named `name` under `parent` (file/namespace-less parents add nothing). */
  qualify(parent: ScopeDraft, name: string): string {
    return parent.kind === 'file' ? name : `${parent.qualifiedName}.${name}`;
  }

  addScope(s: NewScope): ScopeDraft {
    const draft: ScopeDraft = {
      name: s.name,
      qualifiedName: s.qualifiedName ?? this.qualify(s.parent, s.name),
      kind: s.kind,
      startIndex: s.startIndex,
      endIndex: s.endIndex,
      startLine: s.startLine,
      endLine: Math.max(s.startLine, s.endLine),
      signature: normaliseSignature(s.signature),
      docComment: s.docComment ?? null,
      exported: s.exported,
      ...(s.owner ? { owner: s.owner } : {}),
      parent: s.parent,
      refs: [],
      refKeys: new Set(),
    };
    this.scopes.push(draft);
    return draft;
  }

  /** Record a reference from `scope`; the first occurrence of (kind, target) per scope is kept. */
  ref(scope: ScopeDraft, kind: RawReferenceKind, targetName: string, line: number, targetLanguage?: Language): void {
    if (!targetName) return;
    const key = `${kind}\u0000${targetName}\u0000${targetLanguage ?? ''}`;
    if (scope.refKeys.has(key)) return;
    scope.refKeys.add(key);
    scope.refs.push(targetLanguage ? { kind, targetName, line, targetLanguage } : { kind, targetName, line });
  }

  /** Is `name` a type parameter of `scope` or one of its ancestors? */
  isTypeParam(scope: ScopeDraft, name: string): boolean {
    for (let s: ScopeDraft | null = scope; s; s = s.parent) if (s.typeParams?.has(name)) return true;
    return false;
  }

  binding(scope: ScopeDraft, name: string, typeName: string, member: boolean): void {
    if (!name || !typeName) return;
    const key = `${name}\u0000${member}`;
    const keys = (scope.bindingKeys ??= new Set());
    if (keys.has(key)) return; // first declaration wins
    keys.add(key);
    this.bindings.push({ scope, name, typeName, member });
  }

  build(): ParsedFile {
    this.assignIds();
    const scopes: ParsedScope[] = [];
    const references: ParsedFile['references'] = [];
    for (const d of this.scopes) {
      const source = d.kind === 'file' ? this.content : this.content.slice(d.startIndex, d.endIndex);
      const scope: ParsedScope = {
        id: d.id!,
        name: d.name,
        qualifiedName: d.qualifiedName,
        kind: d.kind,
        language: this.language,
        path: this.path,
        startLine: d.startLine,
        endLine: d.endLine,
        signature: d.signature,
        docComment: d.docComment,
        source,
        contentHash: sha256(`${source}\u0000${d.signature}\u0000${d.docComment ?? ''}`),
        nameTokens: nameTokens(d.qualifiedName),
        parentId: d.parent ? d.parent.id! : null,
      };
      if (d.exported !== undefined) scope.exported = d.exported;
      if (d.owner) scope.owner = d.owner;
      scopes.push(scope);
      for (const r of d.refs) references.push({ fromId: scope.id, ...r });
    }
    const bindings: TypedBinding[] = this.bindings.map((b) => ({
      scopeId: b.scope.id!, name: b.name, typeName: b.typeName, member: b.member,
    }));
    return {
      path: this.path,
      language: this.language,
      contentHash: sha256(this.content),
      scopes,
      references,
      imports: this.imports,
      exports: this.exports,
      bindings,
      errors: this.errors,
    };
  }

  /**
   * `${path}#${qualifiedName}|${kind}`; within a group sharing that base, order by the parent chain's
   * signatures then the own signature (source order only breaks exact ties); first keeps the bare id.
   */
  private assignIds(): void {
    const groups = new Map<string, { d: ScopeDraft; key: string; order: number }[]>();
    const keyOf = new Map<ScopeDraft, string>();
    this.scopes.forEach((d, order) => {
      const parentKey = d.parent ? keyOf.get(d.parent) ?? '' : '';
      const key = `${parentKey}\u0001${d.signature}`;
      keyOf.set(d, key);
      const base = `${this.path}#${d.qualifiedName}|${d.kind}`;
      let g = groups.get(base);
      if (!g) groups.set(base, (g = []));
      g.push({ d, key, order });
    });
    for (const [base, g] of groups) {
      if (g.length === 1) {
        g[0].d.id = base;
        continue;
      }
      g.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.order - b.order));
      g.forEach((e, i) => (e.d.id = i === 0 ? base : `${base}~${i}`));
    }
  }
}
