import porter2 from 'wink-porter2-stemmer';

/** Words whose stems are remembered; code reuses a small vocabulary, and a stem costs ~2-8 µs to compute. */
const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/**
 * The English stem of a lower-case word (Porter2: "converted", "converts" -> "convert"), so that a
 * question's words meet the code's words in another form. Identifiers' sub-tokens are stemmed too.
 * The second stage stems every word of a few dozen candidates per query, hence the memo.
 */
export function stem(word: string): string {
  let out = memo.get(word);
  if (out === undefined) {
    out = /^\p{Ll}+$/u.test(word) ? porter2(word) : word;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, out);
  }
  return out;
}
