import porter2 from 'wink-porter2-stemmer';

/**
 * The English stem of a lower-case word (Porter2: "converted", "converts" -> "convert"), so that a
 * question's words meet the code's words in another form. Identifiers' sub-tokens are stemmed too.
 */
export function stem(word: string): string {
  return /^\p{Ll}+$/u.test(word) ? porter2(word) : word;
}
