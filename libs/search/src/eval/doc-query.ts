/**
 * CodeSearchNet-style queries from doc comments: the first sentence(s) of a declaration's doc, with
 * JSDoc tags, markup, examples and code references cleaned away, so that what is left reads like a
 * person describing the behaviour. The evaluation indexes the code without its doc comments, so the
 * query cannot be found verbatim.
 */

export const DOC_QUERY_RULES = {
  /** Shorter queries are too vague to have one right answer. */
  minWords: 5,
  minChars: 25,
  /** A first sentence shorter than this gets the second one appended. */
  wantWords: 8,
  maxWords: 40,
} as const;

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATIONS = ['e.g.', 'i.e.', 'etc.', 'vs.', 'cf.', 'approx.'];
const PROTECTED_DOT = '\u0000';

/**
 * The query for a doc comment, or null when nothing descriptive is left (a doc that is only tags,
 * such as `@internal` or `@deprecated ...`, or too short a sentence).
 */
export function docCommentToQuery(doc: string): string | null {
  let text = doc.replace(/\r\n?/g, '\n');
  // Block tags (@param, @return, @deprecated, @internal, @see ...) and everything after the first one.
  const tagAt = text.search(/^[ \t]*@\w+/m);
  if (tagAt !== -1) text = text.slice(0, tagAt);
  // Examples and sections: stop at the first code fence, heading or image.
  const sectionAt = text.search(/^[ \t]*(```|#{1,6}\s|!\[)/m);
  if (sectionAt !== -1) text = text.slice(0, sectionAt);
  // The first paragraph.
  const paragraph = text.split(/\n[ \t]*\n/).map((p) => p.trim()).find((p) => p.length > 0);
  if (!paragraph) return null;

  let q = paragraph
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ') // HTML tags (the text inside stays)
    .replace(/\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_m, target: string, label?: string) => label?.trim() || linkName(target))
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // markdown links keep their text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/`([^`]*)`/g, (_m, code: string) => codeReference(code))
    .replace(/\*\*|__/g, '')
    .replace(/(^|\s)[*_]([^*_\s][^*_]*?)[*_](?=\s|[.,;:!?)]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
  q = firstSentences(q);
  const words = q.split(' ').filter(Boolean);
  if (words.length > DOC_QUERY_RULES.maxWords) q = words.slice(0, DOC_QUERY_RULES.maxWords).join(' ').replace(/[,;:]$/, '');
  if (words.length < DOC_QUERY_RULES.minWords || q.length < DOC_QUERY_RULES.minChars) return null;
  return q;
}

/** `Observable` -> Observable; `Subscription#add` or `#closed` -> the member; `rxjs/operators.map` -> map. */
function linkName(target: string): string {
  const member = target.includes('#') ? target.slice(target.lastIndexOf('#') + 1) : target;
  return member.replace(/\(\)$/, '');
}

/** Inline code: an identifier (`observer`, `next()`, `Subscriber.next`) stays as a word; code is dropped. */
function codeReference(code: string): string {
  const t = code.trim();
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/.test(t)) return t.replace(/\(\)$/, '');
  if (/^["'][^"']*["']$/.test(t)) return t.slice(1, -1);
  return ' ';
}

/** The first sentence, or the first two when the first is short. */
function firstSentences(text: string): string {
  let protectedText = text;
  for (const abbr of ABBREVIATIONS) protectedText = protectedText.split(abbr).join(abbr.replace(/\./g, PROTECTED_DOT));
  const sentences = protectedText.split(/(?<=[.!?])\s+(?=[A-Z"'(])/).map((s) => s.split(PROTECTED_DOT).join('.'));
  let out = sentences[0];
  if (out.split(' ').length < DOC_QUERY_RULES.wantWords && sentences.length > 1) out = `${out} ${sentences[1]}`;
  return out.trim();
}
