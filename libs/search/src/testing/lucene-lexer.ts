/**
 * Test helper: reads a query the way Lucene's classic query parser lexes it, and reports anything
 * that would be syntax rather than a term (an unescaped special character, && or ||, an operator
 * word). A query that passes is a flat list of terms, OR-ed by the parser's default operator.
 */
const PARSER_WHITESPACE = new Set([' ', '\t', '\n', '\r', '\u3000']);
const STRUCTURAL = new Set(['+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '*', '?', '/', '&', '|']);
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

export interface Lexed {
  /** Terms with escapes resolved. */
  terms: string[];
  /** Descriptions of what would change the query's structure; empty for a safe query. */
  problems: string[];
}

export function lexClassicQuery(query: string): Lexed {
  const terms: string[] = [];
  const problems: string[] = [];
  let raw = '';
  let value = '';
  const flush = () => {
    if (raw === '') return;
    if (OPERATORS.has(raw)) problems.push(`operator word ${raw}`);
    terms.push(value);
    raw = '';
    value = '';
  };
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '\\') {
      if (i === query.length - 1) {
        problems.push('dangling backslash');
        break;
      }
      raw += c + query[i + 1];
      value += query[i + 1];
      i++;
    } else if (PARSER_WHITESPACE.has(c)) {
      flush();
    } else if (STRUCTURAL.has(c)) {
      problems.push(`unescaped ${JSON.stringify(c)} at ${i}`);
      raw += c;
      value += c;
    } else {
      raw += c;
      value += c;
    }
  }
  flush();
  return { terms, problems };
}
