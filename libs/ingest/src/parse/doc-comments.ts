/** Comment-marker stripping for doc comments. Pure string functions. */

/** Trim trailing blanks of every line and drop leading/trailing empty lines. */
function tidy(lines: string[]): string | null {
  // trimEnd strips the same characters as /\s+$/ (WhiteSpace and LineTerminator) without a regex
  // pass that re-scans every inner run of blanks.
  const out = lines.map((l) => l.trimEnd());
  while (out.length && out[0] === '') out.shift();
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.length ? out.join('\n') : null;
}

/** Remove the common leading indentation of all non-blank lines. */
function dedent(lines: string[]): string[] {
  let min = Infinity;
  for (const l of lines) {
    if (!l.trim()) continue;
    const ind = l.length - l.trimStart().length;
    if (ind < min) min = ind;
  }
  if (!isFinite(min) || min === 0) return lines;
  return lines.map((l) => l.slice(Math.min(min, l.length - l.trimStart().length)));
}

/** `/** ... *\/` or `/* ... *\/` -> body with the leading ` * ` of each line removed. */
export function cleanBlockComment(text: string): string | null {
  let body = text;
  if (body.startsWith('/**')) body = body.slice(3);
  else if (body.startsWith('/*')) body = body.slice(2);
  if (body.endsWith('*/')) body = body.slice(0, -2);
  const lines = body.split(/\r?\n/).map((l) => l.replace(/^\s*\*(?!\/) ?/, ''));
  return tidy([lines[0].trim(), ...dedent(lines.slice(1))]);
}

/** Consecutive line comments (`//`, `///`, `#`, `--`) -> text without the markers. */
export function cleanLineComments(comments: string[], marker: '//' | '///' | '#' | '--'): string | null {
  const lines = comments.map((c) => {
    let t = c.trimStart();
    if (marker === '//' || marker === '///') t = t.replace(/^\/{2,}/, '');
    else if (marker === '#') t = t.replace(/^#+/, '');
    else t = t.replace(/^-{2,}/, '');
    return t.startsWith(' ') ? t.slice(1) : t;
  });
  return tidy(dedent(lines));
}

/**
 * C# `///` XML documentation -> readable text: `<summary>`/`<remarks>` tags dropped,
 * `<param name="x">d</param>` -> `@param x d`, `<returns>` -> `@returns`, `<see cref="T"/>` -> `T`.
 */
export function cleanXmlDoc(comments: string[]): string | null {
  const text = cleanLineComments(comments, '///');
  if (text === null) return null;
  const out = text
    .replace(/<param\s+name\s*=\s*"([^"]*)"\s*>/g, '@param $1 ')
    .replace(/<typeparam\s+name\s*=\s*"([^"]*)"\s*>/g, '@typeparam $1 ')
    .replace(/<returns>/g, '@returns ')
    .replace(/<exception\s+cref\s*=\s*"([^"]*)"\s*>/g, '@throws $1 ')
    .replace(/<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)\s*=\s*"([^"]*)"\s*\/>/g, '$1')
    .replace(/<\/?(?:summary|remarks|returns|param|typeparam|exception|para|c|code|example|value|inheritdoc)[^>]*>/g, '')
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim());
  return tidy(out);
}

/** Python string literal (docstring) -> cleaned text (like `inspect.cleandoc`). */
export function cleanPythonDocstring(literal: string): string | null {
  let s = literal;
  const prefix = /^[rRbBuUfF]*/.exec(s)![0];
  s = s.slice(prefix.length);
  for (const q of ['"""', "'''", '"', "'"]) {
    if (s.startsWith(q) && s.endsWith(q) && s.length >= 2 * q.length) {
      s = s.slice(q.length, s.length - q.length);
      break;
    }
  }
  const lines = s.split(/\r?\n/);
  const first = lines[0].trim();
  const rest = dedent(lines.slice(1));
  return tidy([first, ...rest]);
}
