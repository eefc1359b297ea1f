// What of a file's text is code, for counting where a name is used: comments and plain string
// contents blanked (kept as spaces, so lines and columns stay), template and f-string
// substitutions kept (they are code). Hand-written: a tokenizer per language would be far heavier
// than this one pass, and a name only needs to be told apart from comments and prose.

/** The width of a line's leading whitespace: Python's blocks are told apart by it. */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The body of the Python block opened at `lines[at]` (0-based; a `def` or `class` line): the lines
 * after it up to the first non-blank one indented no deeper, bracket closers and comments excepted.
 */
export function blockBody(lines: string[], at: number): string {
  const indent = indentOf(lines[at]);
  const body: string[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim() && indentOf(l) <= indent && !/^\s*[)\]#]/.test(l)) break;
    body.push(l);
  }
  return body.join('\n');
}

type Family = 'c' | 'python' | 'ruby' | 'other';

function family(path: string): Family {
  if (/\.(py|pyi)$/.test(path)) return 'python';
  if (/\.(rb|sh|bash)$/.test(path)) return 'ruby';
  if (/\.([cm]?[jt]sx?|java|kt|cs|go|rs|c|h|cc|cpp|hpp|cxx|php|swift|scala)$/.test(path)) return 'c';
  return 'other';
}

/** `keepStrings`: blank comments only (code held in strings, eval'd command strings, stays readable). */
export function codeOnly(path: string, text: string, keepStrings = false): string {
  const fam = family(path);
  if (fam === 'other') return text;
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const blankString = keepStrings ? () => undefined : blank;
  const n = text.length;
  let i = 0;
  // Template/f-string nesting: each entry is the brace depth at which the substitution closes.
  const templates: { quote: string; depth: number; triple: boolean }[] = [];
  let depth = 0;
  while (i < n) {
    const c = text[i];
    const top = templates[templates.length - 1];
    if (top && c === '}' && depth === top.depth) {
      // End of a substitution: back inside the template string.
      templates.pop();
      i = skipString(text, i + 1, top.quote, top.triple, true, out, blankString, templates, depth);
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (fam === 'c' && c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? n : end);
      i = end < 0 ? n : end;
      continue;
    }
    if (fam === 'c' && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      blank(i, end < 0 ? n : end + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (fam === 'c' && c === '/' && regexCanStart(text, i)) {
      // A regex literal: its quotes and backticks are not strings.
      const end = regexEnd(text, i + 1);
      if (end > 0) {
        blank(i + 1, end - 1);
        i = end;
        continue;
      }
    }
    if ((fam === 'python' || fam === 'ruby') && c === '#') {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? n : end);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '"' || c === "'" || (c === '`' && fam === 'c')) {
      const triple = fam === 'python' && text.startsWith(c.repeat(3), i);
      const prefix = fam === 'python' ? /[fF][rRbB]?$|[rRbB][fF]$/.test(text.slice(Math.max(0, i - 2), i)) : false;
      const interpolating = c === '`' || prefix;
      const start = i + (triple ? 3 : 1);
      i = skipString(text, start, c, triple, interpolating, out, blankString, templates, depth);
      continue;
    }
    i++;
  }
  return out.join('');
}

/** A `/` where an expression starts (after an operator, a bracket or a keyword) opens a regex, not a division. */
function regexCanStart(text: string, i: number): boolean {
  let p = i - 1;
  while (p >= 0 && (text[p] === ' ' || text[p] === '\t')) p--;
  if (p < 0 || text[p] === '\n') return true;
  if ('(,=:[!&|?{};+-*%<>~^'.includes(text[p])) return true;
  return /\b(return|typeof|case|do|else|in|of|void|yield|await)$/.test(text.slice(Math.max(0, p - 6), p + 1));
}

/** The index after a regex literal's closing `/` (and flags), or -1 if the line ends first. */
function regexEnd(text: string, j: number): number {
  let inClass = false;
  for (; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\n') return -1;
    if (ch === '\\') j++;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '/' && !inClass) {
      j++;
      while (j < text.length && /[a-z]/.test(text[j])) j++;
      return j;
    }
  }
  return -1;
}

/** Blanks a string's content from `start`; returns the index after it, or after `${`/`{` that opens code. */
function skipString(
  text: string,
  start: number,
  quote: string,
  triple: boolean,
  interpolating: boolean,
  _out: string[],
  blank: (a: number, b: number) => void,
  templates: { quote: string; depth: number; triple: boolean }[],
  depth: number,
): number {
  const n = text.length;
  let j = start;
  while (j < n) {
    const ch = text[j];
    if (ch === '\\') {
      j += 2;
      continue;
    }
    if (!triple && ch === '\n' && quote !== '`') break;
    if (interpolating && ((quote === '`' && ch === '$' && text[j + 1] === '{') || (quote !== '`' && ch === '{' && text[j + 1] !== '{'))) {
      blank(start, j);
      templates.push({ quote, depth, triple });
      return j + (quote === '`' ? 2 : 1);
    }
    if (interpolating && quote !== '`' && ch === '{' && text[j + 1] === '{') {
      j += 2;
      continue;
    }
    if (triple ? text.startsWith(quote.repeat(3), j) : ch === quote) {
      blank(start, j);
      return j + (triple ? 3 : 1);
    }
    j++;
  }
  blank(start, j);
  return j;
}

export interface NameUse {
  path: string;
  line: number;
  /** Written after a dot (`x.name`, `self.name`): an attribute of something, not the bare name. */
  member: boolean;
}

// `#name`: JavaScript's private members are one token with their hash. Letters beyond ASCII belong
// to identifiers too (`ɵcodegen`, `größe`): cut at them, a name is never seen whole.
const WORD = /#?[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** Every occurrence in code of the given names, with its line and whether it follows a dot. */
export function nameUses(path: string, code: string, names: Set<string>, into: Map<string, NameUse[]>): void {
  let line = 1;
  let lastIndex = 0;
  for (const m of code.matchAll(WORD)) {
    if (!names.has(m[0])) continue;
    const at = m.index;
    for (let k = lastIndex; k < at; k++) if (code.charCodeAt(k) === 10) line++;
    lastIndex = at;
    let p = at - 1;
    while (p >= 0 && (code[p] === ' ' || code[p] === '\t')) p--;
    const member = p >= 0 && (code[p] === '.' || (code[p] === ':' && code[p - 1] === ':') || (code[p] === '>' && code[p - 1] === '-'));
    const list = into.get(m[0]) ?? [];
    list.push({ path, line, member });
    into.set(m[0], list);
  }
}
