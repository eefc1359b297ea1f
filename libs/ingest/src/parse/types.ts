import type { FileBindings } from './packed-bindings';
/**
 * Shapes produced by the parse step (one {@link ParsedFile} per source file) and consumed by the
 * resolver (`../resolve`) and by the graph writer.
 *
 * Everything here is plain data (JSON-serialisable), produced without I/O.
 */

import type { Language, ScopeKind } from '@scopegraph/code-model';

export type { Language, ScopeKind };
export { SCOPE_KINDS, SQL_KINDS, TYPE_KINDS } from '@scopegraph/code-model';

/**
 * A named region of code: a file, a type, a function, a SQL object...
 *
 * `id` is stable across edits that do not touch the scope's name, kind or file:
 * `${path}#${qualifiedName}|${kind}`, plus `~N` (N >= 1) when several scopes of the same file share
 * that base id (overloads, getter/setter pairs, a procedure created twice). Such a group is ordered by
 * the parent's id then the signature text (then source order only for identical signatures); the
 * first keeps the bare id, the others get `~1`, `~2`... Line numbers never enter an id.
 * The file scope's id is `${path}#${path}|file`.
 */
export interface ParsedScope {
  id: string;
  /** Simple name: `create`, `InvoiceService`, `Invoice` (SQL, without schema). */
  name: string;
  /**
   * Dotted path from the file: `InvoiceService.create`, nested function `outer.inner`,
   * C# includes the namespace (`MyApp.Services.InvoiceService.Create`), SQL `dbo.Invoice`
   * (brackets stripped, default schema `dbo`), the file scope uses the path.
   */
  qualifiedName: string;
  kind: ScopeKind;
  language: Language;
  /** Repo-relative path, forward slashes. */
  path: string;
  /** 1-based, inclusive. Includes decorators / attributes / `export` when present. */
  startLine: number;
  endLine: number;
  /** Declaration header, whitespace collapsed, no body: `async create(input: CreateInvoice): Promise<Invoice>`. */
  signature: string;
  /** Doc comment with comment markers stripped (JSDoc, `///` XML doc, Python docstring or `#` block, SQL `--`). */
  docComment: string | null;
  /** The scope's own text (for the file scope: the whole file). */
  source: string;
  /** sha256 (hex) of source + signature + doc. */
  contentHash: string;
  /** Lower-case identifier sub-tokens of the qualified name, de-duplicated, space separated. */
  nameTokens: string;
  /** Containing scope; the file scope for top-level declarations; null for the file scope. */
  parentId: string | null;
  /**
   * Visible outside its module: TS/JS `export` (incl. `export { x }` lists and CommonJS `exports.x =`),
   * C# `public`, Python top-level names not starting with `_`. Undefined where it does not apply (SQL).
   */
  exported?: boolean;
  /**
   * The type this member belongs to, as written, when it is declared outside that type's body: Go's
   * receiver (`func (s *Server) Serve()` -> `Server`), Rust's `impl Type` / `impl Trait for Type`
   * (`Type`), C++'s out-of-line `ns::A::f` (`ns::A`). The family resolver attaches such members to
   * their type (SymbolTable.addMember), wherever the type is declared. Resolvers may rely on this and
   * the fields above only: a partial re-index reads scopes without source, signature or doc.
   */
  owner?: string;
}

export type RawReferenceKind = 'CALLS' | 'EXTENDS' | 'IMPLEMENTS' | 'REFERENCES';

/** An unresolved reference, as written in one file. One per (scope, kind, target) — first line kept. */
export interface RawReference {
  fromId: string;
  kind: RawReferenceKind;
  /** As written, generics stripped: `foo`, `this.bar`, `utils.parse`, `Base`, `super`, `dbo.usp_CreateInvoice`. */
  targetName: string;
  /** 1-based line of the first occurrence inside the scope. */
  line: number;
  /**
   * Set when the target lives in another language than the file's: `'sql'` for SQL object names found in
   * C# string literals (`"dbo.usp_CreateInvoice"`, `"SELECT * FROM dbo.Invoice"`).
   */
  targetLanguage?: Language;
}

/**
 * One import-like statement.
 * - TS/JS: `import d, { a as b } from './x'` -> names [{imported:'default',local:'d'},{imported:'a',local:'b'}];
 *   `import * as ns from 'x'` -> isNamespace, names [{imported:'*',local:'ns'}]; `import './x'` -> names [];
 *   `const { a } = require('./x')`, `import('./x')` also count. Re-exports (`export { a } from './x'`,
 *   `export * from './x'`) have `reexport: true` (names [{imported:'*',local:'*'}] for `export *`).
 * - Python: `from .m import f` -> specifier '.m'; `import a.b` -> isNamespace, local 'a.b';
 *   `import a.b as c` -> local 'c'; `from m import *` -> names [{imported:'*',local:'*'}].
 * - C#: `using A.B;` -> specifier 'A.B', isNamespace, names [{imported:'*',local:'*'}];
 *   `using X = A.B.C;` -> names [{imported:'*',local:'X'}]; `using static A.B.C;` -> `isStatic`.
 */
export interface RawImport {
  fromPath: string;
  specifier: string;
  names: { imported: string; local: string }[];
  isNamespace?: boolean;
  line: number;
  /** `export ... from` (TS/JS): the names become exports of `fromPath`. */
  reexport?: boolean;
  /** C# `using static`. */
  isStatic?: boolean;
  /** C++ `using a::B;`: qualified name of the namespace it is written in (which receives B). */
  namespace?: string;
}

/** TS/JS `export { local as exported }` / `export default local` without a `from` clause. */
export interface RawExport {
  local: string;
  exported: string;
  line: number;
}

export type { TypedBinding } from './packed-bindings';

export interface ParsedFile {
  path: string;
  language: Language;
  /** sha256 (hex) of the whole content. */
  contentHash: string;
  /** File scope first, then declarations in source order. */
  scopes: ParsedScope[];
  references: RawReference[];
  imports: RawImport[];
  /** TS/JS export lists (`export { a as b }`, `export default a`). */
  exports: RawExport[];
  /** As parsed, an array; kept for resolution (slim, the symbol index's views), packed. */
  bindings: FileBindings;
  /** Syntax errors (the tree is error-tolerant: scopes are still extracted) or extraction failures. */
  errors: string[];
}
