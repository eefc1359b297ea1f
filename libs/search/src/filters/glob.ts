/**
 * Path globs, matched in TypeScript against the repository's file paths (never sent to Neo4j as a
 * pattern): the matching paths travel as a `$paths` list parameter. Matching is linear-time per path
 * segment (no backtracking regex), so no glob can make a query slow.
 *
 * Syntax, on repo-relative paths with `/` separators, case-sensitive:
 *   `**`      as a whole segment: any number of directories (zero included)
 *   `*`       any characters within one segment;  `?` one character within a segment
 *   `[abc]`   `[a-z]`  `[!a-z]` / `[^a-z]` one character of (not of) a set; `]` first is literal
 *   `{a,b}`   alternatives (may nest, may contain `/`)
 *   `\x`      the character x itself
 * A glob without `/` matches a file name in any directory (`*.ts` = `**` + `/*.ts`), like .gitignore.
 */

export class GlobSyntaxError extends Error {
  constructor(
    message: string,
    readonly glob: string,
    readonly position: number,
  ) {
    super(`invalid glob ${JSON.stringify(glob)}: ${message} at position ${position + 1}`);
    this.name = 'GlobSyntaxError';
  }
}

export const MAX_GLOB_LENGTH = 300;
/** Brace expansion is exponential in the worst case (`{a,b}{c,d}...`): refuse beyond this. */
export const MAX_GLOB_ALTERNATIVES = 64;

type Token = { t: 'lit'; c: string } | { t: 'any' } | { t: 'star' } | { t: 'class'; negate: boolean; items: (string | [string, string])[] };
type Segment = { globstar: true } | { globstar: false; tokens: Token[] };

export interface GlobMatcher {
  readonly source: string;
  /** The alternatives after brace expansion, as normalised globs. */
  readonly alternatives: string[];
  matches(path: string): boolean;
}

/** Parses a glob, throwing {@link GlobSyntaxError} with the position of the first problem. */
export function compileGlob(glob: string): GlobMatcher {
  if (glob.length === 0) throw new GlobSyntaxError('empty glob', glob, 0);
  if (glob.length > MAX_GLOB_LENGTH) throw new GlobSyntaxError(`longer than ${MAX_GLOB_LENGTH} characters`, glob, MAX_GLOB_LENGTH);
  checkStructure(glob);
  const alternatives = expandBraces(glob).map(normalise);
  const compiled = alternatives.map((alt) => parseSegments(alt, glob));
  return {
    source: glob,
    alternatives,
    matches: (path: string) => {
      const parts = path.split('/');
      return compiled.some((segments) => matchSegments(segments, parts));
    },
  };
}

/** One left-to-right pass for the errors a user can make: dangling `\`, unclosed `[` or `{`, stray `}`. */
function checkStructure(glob: string): void {
  const braces: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (i === glob.length - 1) throw new GlobSyntaxError('dangling escape "\\"', glob, i);
      i++;
    } else if (c === '[') {
      i = classEnd(glob, i);
    } else if (c === '{') {
      braces.push(i);
    } else if (c === '}') {
      if (braces.length === 0) throw new GlobSyntaxError('"}" without "{"', glob, i);
      braces.pop();
    }
  }
  if (braces.length > 0) throw new GlobSyntaxError('unclosed "{"', glob, braces[braces.length - 1]);
}

/** Index of the `]` closing the class that opens at `start`; validates its content. */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  let first = true;
  for (; i < glob.length; i++) {
    const c = glob[i];
    if (c === ']' && !first) return i;
    if (c === '/') throw new GlobSyntaxError('"/" inside a character class', glob, i);
    if (c === '\\') {
      if (i === glob.length - 1) throw new GlobSyntaxError('dangling escape "\\"', glob, i);
      i++;
    }
    first = false;
  }
  throw new GlobSyntaxError('unclosed "["', glob, start);
}

/** `a{b,c{d,e}}f` -> `abf`, `acdf`, `acef`. Escapes and classes are copied through untouched. */
function expandBraces(glob: string): string[] {
  const open = findTopLevel(glob, 0, (c) => c === '{');
  if (open < 0) return [glob];
  const parts: string[] = [];
  let depth = 0;
  let from = open + 1;
  let close = -1;
  for (let i = open + 1; i < glob.length && close < 0; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(glob, i);
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === '}') {
      parts.push(glob.slice(from, i));
      close = i;
    } else if (c === ',' && depth === 0) {
      parts.push(glob.slice(from, i));
      from = i + 1;
    }
  }
  const head = glob.slice(0, open);
  const tails = expandBraces(glob.slice(close + 1));
  const out: string[] = [];
  for (const part of parts) {
    for (const mid of expandBraces(part)) {
      for (const tail of tails) {
        out.push(head + mid + tail);
        if (out.length > MAX_GLOB_ALTERNATIVES) throw new GlobSyntaxError(`more than ${MAX_GLOB_ALTERNATIVES} alternatives`, glob, open);
      }
    }
  }
  return out;
}

function findTopLevel(glob: string, from: number, want: (c: string) => boolean): number {
  for (let i = from; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(glob, i);
    else if (want(c)) return i;
  }
  return -1;
}

/** Drops a leading `./` or `/`, and anchors a slash-less glob under any directory. */
function normalise(glob: string): string {
  let g = glob;
  while (g.startsWith('./')) g = g.slice(2);
  while (g.startsWith('/')) g = g.slice(1);
  return hasUnescapedSlash(g) ? g : `**/${g}`;
}

function hasUnescapedSlash(glob: string): boolean {
  return findTopLevel(glob, 0, (c) => c === '/') >= 0;
}

function parseSegments(glob: string, original: string): Segment[] {
  const raw: string[] = [];
  let current = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      current += c + glob[i + 1];
      i++;
    } else if (c === '[') {
      const end = classEnd(glob, i);
      current += glob.slice(i, end + 1);
      i = end;
    } else if (c === '/') {
      raw.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  raw.push(current);
  const segments: Segment[] = [];
  for (const seg of raw) {
    if (seg === '**') {
      // Consecutive globstars are one.
      if (!(segments.length > 0 && segments[segments.length - 1].globstar)) segments.push({ globstar: true });
    } else {
      segments.push({ globstar: false, tokens: parseTokens(seg, original) });
    }
  }
  return segments;
}

function parseTokens(seg: string, original: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '\\') {
      tokens.push({ t: 'lit', c: seg[++i] });
    } else if (c === '*') {
      // `**` inside a segment is a plain star; runs of stars are one.
      if (tokens.length === 0 || tokens[tokens.length - 1].t !== 'star') tokens.push({ t: 'star' });
    } else if (c === '?') {
      tokens.push({ t: 'any' });
    } else if (c === '[') {
      const end = classEnd(seg, i);
      tokens.push(parseClass(seg.slice(i + 1, end), original));
      i = end;
    } else {
      tokens.push({ t: 'lit', c });
    }
  }
  return tokens;
}

function parseClass(body: string, original: string): Token {
  let i = 0;
  let negate = false;
  if (body[0] === '!' || body[0] === '^') {
    negate = true;
    i = 1;
  }
  const chars: string[] = [];
  for (; i < body.length; i++) chars.push(body[i] === '\\' ? body[++i] : body[i]);
  const items: (string | [string, string])[] = [];
  for (let j = 0; j < chars.length; j++) {
    if (j + 2 < chars.length && chars[j + 1] === '-') {
      const [lo, hi] = [chars[j], chars[j + 2]];
      if (lo > hi) throw new GlobSyntaxError(`range "${lo}-${hi}" is reversed`, original, Math.max(0, original.indexOf(`${lo}-${hi}`)));
      items.push([lo, hi]);
      j += 2;
    } else {
      items.push(chars[j]);
    }
  }
  return { t: 'class', negate, items };
}

function tokenMatches(token: Token, ch: string): boolean {
  switch (token.t) {
    case 'lit':
      return token.c === ch;
    case 'any':
      return true;
    case 'class': {
      const hit = token.items.some((item) => (typeof item === 'string' ? item === ch : ch >= item[0] && ch <= item[1]));
      return hit !== token.negate;
    }
    case 'star':
      return false;
  }
}

/** Wildcard match of one segment: greedy star with backtracking to the last star only, O(n·m). */
function matchSegment(tokens: Token[], text: string): boolean {
  let t = 0;
  let p = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < tokens.length && tokens[p].t !== 'star' && tokenMatches(tokens[p], text[t])) {
      t++;
      p++;
    } else if (p < tokens.length && tokens[p].t === 'star') {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < tokens.length && tokens[p].t === 'star') p++;
  return p === tokens.length;
}

/** Segment-level match with `**`, memoised on (pattern index, path index): O(segments²). */
function matchSegments(segments: Segment[], parts: string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (parts.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === segments.length) result = j === parts.length;
    else {
      const seg = segments[i];
      if (seg.globstar) result = go(i + 1, j) || (j < parts.length && go(i, j + 1));
      else result = j < parts.length && matchSegment(seg.tokens, parts[j]) && go(i + 1, j + 1);
    }
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
