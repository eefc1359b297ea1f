import { queryWords } from '../query/query-text';

/**
 * What a query looks like before anything is searched: a question in plain words ("wait until a
 * condition becomes true and fail after a timeout") or text that names code or quotes it (an
 * identifier, a path, a quoted string, a bracketed log prefix). A plain-words question rarely shares
 * its words with the code that answers it, so its keyword list is mostly common words matching
 * names ("when", "values", "run"); the vector list carries it.
 */

/** A sentence has at least this many words; shorter text is a name or keywords typed to find one. */
export const MIN_DESCRIPTION_WORDS = 4;

/** Quoted stretches: "double", `backtick`, “curly”, 'single' standing apart from words. */
const QUOTED = /"[^"]+"|`[^`]+`|“[^”]+”|(?:^|\s)'[^']+'(?=$|[\s.,;:!?)])/u;
/** Punctuation a word of a sentence may carry at its ends (a bracketed log prefix such as `[mobx]` keeps its brackets). */
const EDGE_PUNCTUATION = /^[('"“‘]+|[)'"”’.,;:!?]+$/gu;

/**
 * A word written the way code is: camelCase or PascalCase with an inner capital, snake_case, a
 * member access or path (`a.b`, `a/b`, `a::b`, `a#b`, `a->b`), a call or index (`f(`, `[x]`), a sigil
 * (`$x`, `@x`), or an operator (`=`, `<`, `>`, `*`, `{`).
 */
export function isCodeLike(word: string): boolean {
  const w = word.replace(EDGE_PUNCTUATION, '');
  if (w.length === 0) return /[[\]{}()<>=*]/.test(word);
  return /\p{Ll}\p{Lu}/u.test(w) || /[\p{L}\p{N}]_|_[\p{L}\p{N}]/u.test(w) || /[\p{L}\p{N}][./#][\p{L}\p{N}]|::|->|=>/u.test(w) || /[()[\]{}<>=*$@\\|]/.test(w);
}

/** True for a question in plain words: a sentence, no code-like word, nothing quoted. */
export function isPlainWordsQuestion(text: string): boolean {
  const words = queryWords(text);
  if (words.length < MIN_DESCRIPTION_WORDS) return false;
  if (QUOTED.test(text)) return false;
  return !words.some(isCodeLike);
}

/** The fusion weights for a query: `describe` for a plain-words question, else `named`. */
export function fusionWeightsFor<W>(text: string, named: W, describe: W): W {
  return isPlainWordsQuestion(text) ? describe : named;
}
