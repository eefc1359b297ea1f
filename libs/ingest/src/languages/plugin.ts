import type { LanguageExtractor } from '../parse/extractor';
import type { Language } from '../parse/types';
import type { FamilyResolver, ResolverContext } from '../resolve/resolver-context';

/**
 * Everything scopegraph knows about one language (or one family of languages that resolve names the
 * same way, like TypeScript/TSX/JavaScript), registered in one table (./index.ts). Adding a language
 * is a folder beside this file holding its extractor, its name resolution (module system included)
 * and its fixtures, plus one line in that table: docs/languages.md walks through it.
 */
export interface LanguagePlugin {
  /** Languages this plugin parses, each with the file extensions (lower case, no dot) that select it. */
  readonly languages: readonly { id: Language; extensions: readonly string[]; grammar?: GrammarSource; filenames?: readonly string[] }[];
  /** Resolution family: files of one family see each other's declarations by the family's rules. */
  readonly family: string;
  /** A fresh extractor (one per ParserService; extractors may keep per-grammar caches). */
  extractor(): LanguageExtractor;
  /** The family's name resolution, over the shared symbol table and lookups; none: names are resolved as SQL. */
  resolver?(ctx: ResolverContext): FamilyResolver;
  /**
   * Project files that decide how this family's imports resolve (`go.mod`, `composer.json`,
   * `Cargo.toml`...): every file of these names in a directory that holds one of the family's files
   * or in any ancestor of one, up to the repository root, is read and handed to the resolver in
   * `ResolveOptions.manifests`; a change to one re-resolves the repository.
   */
  readonly manifests?: readonly string[];
  /** Names of the language and its standard library that are never in the repository (`fmt`, `String`...). */
  isBuiltin?(language: Language, head: string): boolean;
  /**
   * The language's own compiler's syntax errors for a file tree-sitter found errors in (asked only
   * then). A file the compiler accepts indexes with no error: the grammar's limits are not the
   * user's mistakes. The extracted scopes still come from tree-sitter's error-tolerant tree.
   */
  syntaxErrors?(path: string, content: string, language: Language): string[];
}

/**
 * Where a tree-sitter grammar comes from: a `.wasm` file of `@vscode/tree-sitter-wasm` by name, or any
 * module path `require.resolve` finds (an npm grammar package's `.wasm`).
 */
export type GrammarSource = { vscode: string } | { module: string };
