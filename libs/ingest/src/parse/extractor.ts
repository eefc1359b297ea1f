import type { Language as Grammar, Node as SyntaxNode, Tree } from 'web-tree-sitter';
import type { FileBuilder } from './file-builder';
import type { Language } from './types';

export type { SyntaxNode, Tree };

/**
 * One per language family. `extract` fills the builder (scopes, references, imports) from the
 * tree-sitter tree, or from the raw content when `usesTreeSitter` is false (SQL).
 * Extractors must not throw on odd input; the service still catches and reports if one does.
 */
export interface LanguageExtractor {
  readonly languages: readonly Language[];
  readonly usesTreeSitter: boolean;
  extract(builder: FileBuilder, tree: Tree | null): void;
  /**
   * Optional: the text tree-sitter parses instead of the file's, of the same length and line breaks
   * (positions and the builder's content stay the file's): C# blanks the other branches of `#if`.
   */
  parseText?(content: string): string;
}

/**
 * Field ids by name, resolved once per grammar. `childForFieldName` looks the name up in the grammar's
 * field list (a linear `indexOf`) on every call; the walkers call it tens of thousands of times per
 * repository, so they resolve their field names once and use {@link fieldChild} instead.
 * A name the grammar lacks (JavaScript has no `type_parameters` field...) maps to -1.
 */
export function fieldTable<K extends string>(names: readonly K[]): (language: Grammar) => Readonly<Record<K, number>> {
  const cache = new WeakMap<Grammar, Readonly<Record<K, number>>>();
  return (language) => {
    let t = cache.get(language);
    if (!t) {
      const ids = {} as Record<K, number>;
      for (const n of names) ids[n] = language.fields.indexOf(n);
      cache.set(language, (t = ids));
    }
    return t;
  };
}

/** `node.childForFieldName(name)` for a field id from {@link fieldTable} (null when the grammar lacks the field). */
export function fieldChild(node: SyntaxNode, id: number): SyntaxNode | null {
  return id === -1 ? null : node.childForFieldId(id);
}

/**
 * `node.text`, sliced from the file content directly (tree-sitter offsets are UTF-16 code units
 * here): the wrapper's getter reaches the same text through the tree's text callback, a call into
 * the WebAssembly module each time.
 */
export function nodeText(content: string, node: SyntaxNode): string {
  return content.slice(node.startIndex, node.endIndex);
}

/** 1-based first line of a node. */
export function startLine(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node (a node ending at column 0 ends on the previous line). */
export function endLine(node: SyntaxNode): number {
  const p = node.endPosition;
  return p.column === 0 && p.row > node.startPosition.row ? p.row : p.row + 1;
}

/**
 * Comment siblings directly before `node` (closest last), skipping `skipTypes` (decorators...).
 * `contiguous` requires no blank line between consecutive comments and the node.
 */
export function precedingComments(node: SyntaxNode, contiguous: boolean, skipTypes?: ReadonlySet<string>): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  let nextRow = node.startPosition.row;
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    const type = s.type; // one wasm call per read: read once
    if (skipTypes?.has(type)) {
      nextRow = s.startPosition.row;
      continue;
    }
    if (type !== 'comment') break;
    if (contiguous && s.endPosition.row < nextRow - 1) break;
    out.unshift(s);
    nextRow = s.startPosition.row;
  }
  return out;
}

/** Collect the first `max` syntax error positions of a tree. */
export function syntaxErrors(root: SyntaxNode, max = 5): string[] {
  if (!root.hasError) return [];
  const out: string[] = [];
  const visit = (n: SyntaxNode): void => {
    if (out.length >= max) return;
    if (n.isError || n.isMissing) {
      const p = n.startPosition;
      out.push(`${n.isMissing ? `missing ${n.type}` : 'syntax error'} at line ${p.row + 1}, column ${p.column + 1}`);
      return;
    }
    if (!n.hasError) return;
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}
