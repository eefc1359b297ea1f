import { subTokenList } from '@scopegraph/code-model';

/**
 * How user text is read for code search. The full-text index stores identifier sub-tokens in
 * `nameTokens` (`parseFileAnalysis` -> `parse file analysis`, see libs/code-model/src/tokens.ts),
 * so the query is split the same way; the embedder is given the split words as well, as ingestion
 * does for the scopes it embeds (libs/ingest/src/pipeline/embedding-text.ts).
 */

/** Words as typed: split on whitespace; control characters count as whitespace. */
export function queryWords(text: string): string[] {
  return text
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/u)
    .filter((w) => w.length > 0);
}

/**
 * A fully qualified name's package path: two or more lower-case segments before a type name
 * (Java `org.apache.commons.cli.ParseException`, Rust `std::collections::HashMap`, Go
 * `github.com/gorilla/mux.(*Router).ServeHTTP`), or a PHP namespace (`Monolog\Handler\StreamHandler`).
 */
const PACKAGE_PATH = /^(?:(?:[a-z][a-z0-9_]*(?:\.|\/|::)){2,}(?=[A-Z(*])|(?:[A-Za-z_][A-Za-z0-9_]*\\)+(?=[A-Za-z_]))/u;

/** A file path with an extension and optional `:line[:column]`, as compilers and stack traces print them. */
const SOURCE_LOCATION = /^(?:[\w.@-]+\/)+([\w-]+)\.[A-Za-z0-9]{1,5}(?::\d+)*:?$/u;

/**
 * A pasted word without its package path (`org.apache.commons.cli.ParseException:` -> `ParseException:`).
 * The path names where a type lives, not which scope: its segments are in every path and file header of
 * that package (every Java file under org/apache/commons/cli), so as keywords they rank whole files
 * above the scope that holds the pasted message.
 */
export function withoutPackagePath(word: string): string {
  // A source location (`lib/marisa/io/writer.cc:135:`) says where: its file's own name is what is kept.
  const location = SOURCE_LOCATION.exec(word);
  if (location) return location[1];
  const m = PACKAGE_PATH.exec(word);
  return m && m[0].length < word.length ? word.slice(m[0].length) : word;
}

/**
 * Identifier sub-tokens of every word, de-duplicated, in order, leaving out a sub-token that equals
 * its whole (lower-cased) word: `parseFileAnalysis(x)` -> `['parse', 'file', 'analysis', 'x']`.
 */
export function querySubTokens(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of queryWords(text)) {
    const whole = word.toLowerCase();
    for (const t of subTokenList(word)) {
      if (t === whole || seen.has(t)) continue;
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

/**
 * The text embedded for a semantic query: the user's text, plus the split identifiers when splitting
 * changed anything (`parseFileAnalysis` -> `parseFileAnalysis (parse file analysis)`).
 */
export function semanticQueryText(text: string): string {
  const trimmed = text.trim();
  const words = queryWords(trimmed).map((w) => w.toLowerCase());
  const split = subTokenList(trimmed);
  if (split.join(' ') === words.join(' ') || split.length === 0) return trimmed;
  return `${trimmed} (${split.join(' ')})`;
}

/** Lower-cased sub-tokens of a text as a set (keyword scoring of semantic_rerank). */
export function tokenSet(...parts: (string | null | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const p of parts) if (p) for (const t of subTokenList(p)) out.add(t);
  return out;
}
