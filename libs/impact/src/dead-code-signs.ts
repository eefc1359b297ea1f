// Signs of life that no edge records, read from a declaration's own text and its surroundings: class
// expressions used where they are written, members reached through keys built from templates, test
// hooks of a test suite the package does not ship, Node module-loader hooks. Each is a convention,
// not a list of names: every rule says which shape of code it reads.
import * as path from 'node:path';
import { isTestPath } from './test-paths';
import { blockBody, indentOf } from './code-text';

/**
 * `new (class X {...})()`, `register(A, new (class X {...})())`, `foo(class X {...})`: a named class
 * expression is a value used where it is written; its name is only visible inside itself. An
 * `exports.X = class X` or `module.exports = class X` assignment is not one: whoever reads the export
 * is the use, and the export's own name is counted elsewhere.
 */
export function isClassExpression(line: string, name: string): boolean {
  const at = line.search(new RegExp(`\\bclass\\s+${escapeRegExp(name)}(?![\\w$])`, 'u'));
  if (at < 0) return false;
  const before = line.slice(0, at).replace(/\s+$/, '');
  if (!before || /^(export\s+)?(default\s+)?(abstract\s+)?$/.test(before.trim())) return false;
  if (/(\bexports\s*(\.\s*[\w$]+\s*)?|\bexports\s*\[[^\]]*\]\s*)=$/u.test(before)) return false;
  return /(\bnew\s*\(|[(,=:?[]|\breturn|=>)$/u.test(before);
}

/** Words of an identifier: camelCase humps, snake_case parts and digit runs split apart. */
function words(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+|\s+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const TEST_WORDS = new Set(['test', 'tests', 'testing', 'spec', 'specs']);
/** A comment that says the declaration serves tests: "Used by tests", "only for testing", "test-only". */
const TEST_COMMENT = /\b(used|only|called|needed|exposed|exists?|kept|here|helper|hook)\b[^.\n]{0,40}\b(by|for|in|from|during)\s+(the\s+|our\s+|unit\s+|some\s+)*(tests?|testing|specs?)\b|\bfor\s+testing\b|\btesting\s+only\b|\btests?[- ]only\b|\bvisible\s*for\s*testing\b/i;

/**
 * Why a declaration is a hook for a test suite, or null: its name has a word "test"/"testing" in it
 * (`_testGetCollections`, `_rebindLog4js4testing`), or the comment right above it says tests use it.
 * The caller only asks when the indexed package ships no tests: where tests are indexed, their calls
 * are edges and an unused test hook is as dead as anything else.
 */
export function testHook(name: string, commentAbove: string): string | null {
  if (words(name).some((w) => TEST_WORDS.has(w))) return `its name says it serves tests (${name})`;
  const m = TEST_COMMENT.exec(commentAbove);
  if (m) return `the comment above it says so ("${m[0].trim()}")`;
  return null;
}

/**
 * The comment block right above line `startLine` (1-based) and any comment on that line: `//`, `/* *\/`,
 * JSDoc, `#` lines, up to 20 lines, stopping at the first line of code.
 */
export function commentAbove(lines: string[], startLine: number): string {
  const out: string[] = [];
  const own = lines[startLine - 1] ?? '';
  const trailing = own.match(/(\/\/|#)(.*)$/);
  if (trailing) out.push(trailing[2]);
  for (let i = startLine - 2, seen = 0; i >= 0 && seen < 20; i--, seen++) {
    const t = lines[i].trim();
    if (t === '') {
      if (out.length > (trailing ? 1 : 0)) break;
      continue;
    }
    if (/^(\/\/|\/\*|\*|#)/.test(t) || t.endsWith('*/')) out.push(t);
    else if (/^@[\w.]+/.test(t)) continue;
    else break;
  }
  return out.reverse().join('\n');
}

/**
 * Key-shaped strings built at run time from a fixed head and tail: `` `_${name}Summary` `` and
 * `'_' + name + 'Summary'`, as used in `this[key]()`. Only strings that are nothing but identifier
 * characters around one substitution count (prose like `` `Error: ${e}` `` is not a key).
 */
export function keyAffixes(text: string, into: Set<string>, python = false): void {
  for (const m of text.matchAll(/`([\p{L}\p{N}_$]*)\$\{[^`{}]*\}([\p{L}\p{N}_$]*)`/gu)) addAffix(m[1], m[2], into);
  for (const m of text.matchAll(/(['"])([\p{L}\p{N}_$]*)\1\s*\+\s*[\p{L}\p{N}_$.]+\s*\+\s*(['"])([\p{L}\p{N}_$]+)\3/gu)) addAffix(m[2], m[4], into);
  if (!python) return;
  // Python's ways of writing the same key, handed to getattr/hasattr/__dict__ or a registry lookup:
  // '_%s_formatter' % kind, '_{}_formatter'.format(kind), f"_{kind}_formatter", and a tail alone
  // appended to a variable (kind + '_handler').
  for (const m of text.matchAll(/(['"])(\w*)%[sr]([\w]*)\1\s*%/g)) addAffix(m[2], m[3], into);
  for (const m of text.matchAll(/(['"])(\w*)\{\w*\}(\w*)\1\s*\.format\(/g)) addAffix(m[2], m[3], into);
  for (const m of text.matchAll(/\b(?:[fF][rR]?|[rR][fF])(['"])(\w*)\{[^'"{}]+\}(\w*)\1/g)) addAffix(m[2], m[3], into);
  for (const m of text.matchAll(/(?<![\w'"])[A-Za-z_][\w.]*\s*\+\s*(['"])([A-Za-z_]\w+)\1(?!\s*\+)/g)) addAffix('', m[2], into);
}

function addAffix(head: string, tail: string, into: Set<string>): void {
  // A tail alone must be long enough to be a convention (`Handler`, `Summary`), not a plural `s`.
  if (!tail || head.length + tail.length < 3) return;
  into.add(`${head}\u0000${tail}`);
}

/** The head/tail pair a name fits (`_` + `Summary` for `_buildSummary`), or null. */
export function affixMatch(name: string, affixes: Set<string>): string | null {
  for (const a of affixes) {
    const [head, tail] = a.split('\u0000');
    if (name.length <= head.length + tail.length || !name.startsWith(head) || !name.endsWith(tail)) continue;
    // The tail starts a word of the name (`Summary` of `_buildSummary`, `_handler` of `on_handler`).
    const cut = name.length - tail.length;
    if (/^[A-Z_$]/.test(tail) || name[cut - 1] === '_') return `${head}\${...}${tail}`;
  }
  return null;
}

/** Functions Node's module loader calls by name in a file given to `module.register()`. */
const LOADER_HOOKS = new Set(['initialize', 'resolve', 'load', 'globalPreload', 'getFormat', 'getSource', 'transformSource']);

/** Files handed to `register("./hooks.js", import.meta.url)` (Node's module customization hooks), relative to the root. */
export function registeredHookFiles(file: string, text: string, into: Set<string>): void {
  for (const m of text.matchAll(/\bregister\(\s*['"`](\.{1,2}\/[^'"`]+)['"`]/g)) into.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])));
}

export function isLoaderHook(name: string, file: string, hookFiles: Set<string>): boolean {
  return LOADER_HOOKS.has(name) && hookFiles.has(file);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Test suites named by their folder at the top of the repository beyond tests/ (fabric's
 * integration/, Maven's it/, functional/, e2e/, acceptance/): a runner collects their classes and
 * functions by name, nothing calls them. Only top-level folders count: `pkg/integration/` is more
 * often code that integrates with something.
 */
const SUITE_DIR = /^(integration|it|functional|e2e|acceptance)\//;

export function isTestSuitePath(p: string): boolean {
  return isTestPath(p) || SUITE_DIR.test(p);
}

/**
 * A Python function whose body is nothing but a docstring with `>>>` examples (urwid's
 * `_test_process_input`, "Doctest for process_input"): it exists to hold a doctest, which doctest
 * collection runs without calling the function. `lines` are the declaration's own lines.
 */
export function isDoctestHolder(lines: string[]): boolean {
  const text = lines.join('\n');
  const header = text.match(/^[\s\S]*?\bdef\s+\w+\s*\([\s\S]*?\)\s*(->[^:]*)?:[ \t]*(#.*)?\n/);
  if (!header) return false;
  const body = text.slice(header[0].length).trim();
  const doc = body.match(/^[rRuU]?("""|''')([\s\S]*?)\1\s*(pass)?$/);
  return !!doc && /^\s*>>>/m.test(doc[2]);
}

/**
 * A function nested in one that ends with `return locals()`: the enclosing function hands it out by
 * name (`method = property(**method())`, the accessors fget/fset/fdel), so nothing names it at a call.
 * `start`/`end` are the nested function's 1-based first and last lines in the file's `lines`.
 */
export function isReturnedThroughLocals(lines: string[], start: number, end: number): boolean {
  const own = indentOf(lines[start - 1] ?? '');
  if (own === 0) return false;
  for (let i = end; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (indentOf(line) < own) return false;
    if (indentOf(line) === own && /^\s*return[ \t]+locals\(\)[ \t]*(#.*)?$/.test(line)) return true;
  }
  return false;
}

/** Reads of an object's attribute names: a loop over them finds methods nobody names. */
const ATTR_SCAN = /\bdir\(|\bvars\(|\.__dict__\b|\bgetmembers\(/;
const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(([^)]*)\)/gm;

/**
 * Head/tail pairs of Python functions that pick attribute names out of `dir(x)`, `vars(x)` or
 * `x.__dict__` by `startswith(head)` and `endswith(tail)` (octoprint's
 * `_get_subwizard_attrs("_get_", "_wizard_name")`): every method fitting the pair is found that way.
 * Literal arguments of startswith/endswith count directly; where they are the function's parameters,
 * the literal strings its call sites pass in those places do. A tail goes into `affixes` (as
 * keyAffixes' pairs), a head alone into `heads` (as a string head built at run time).
 */
export function attributeScanAffixes(files: { path: string; text: string }[], affixes: Set<string>, heads: Set<string>): void {
  const add = (head: string, tail: string) => {
    if (tail) addAffix(head, tail, affixes);
    else if (head.length >= 2) heads.add(head);
  };
  const scanners: { name: string; head: number | string; tail: number | string }[] = [];
  for (const f of files) {
    const lines = f.text.split('\n');
    for (const m of f.text.matchAll(PY_DEF)) {
      const params = m[3].split(',').map((p) => p.trim().replace(/^\*+/, '').split(/[:=\s]/)[0]).filter((p) => p && p !== 'self' && p !== 'cls');
      const first = f.text.slice(0, m.index).split('\n').length;
      // `first` is the def's 1-based line: its 0-based index is first - 1.
      const text = blockBody(lines, first - 1);
      if (!ATTR_SCAN.test(text)) continue;
      const side = (fn: string): number | string | null => {
        const c = text.match(new RegExp(`\\.${fn}\\(\\s*(?:(['"])(\\w*)\\1|([A-Za-z_]\\w*))\\s*\\)`));
        if (!c) return '';
        if (c[3] === undefined) return c[2];
        const at = params.indexOf(c[3]);
        return at >= 0 ? at : null;
      };
      const head = side('startswith');
      const tail = side('endswith');
      if (head === null || tail === null || (head === '' && tail === '')) continue;
      if (typeof head === 'string' && typeof tail === 'string') add(head, tail);
      else scanners.push({ name: m[2], head, tail });
    }
  }
  if (!scanners.length) return;
  for (const f of files) {
    for (const s of scanners) {
      for (const c of f.text.matchAll(new RegExp(`\\b${escapeRegExp(s.name)}\\(([^()]*)\\)`, 'g'))) {
        const args = c[1].split(',').map((a) => a.trim());
        const literal = (p: number | string): string | null => {
          if (typeof p === 'string') return p;
          const lit = (args[p] ?? '').match(/^(['"])(\w*)\1$/);
          return lit ? lit[2] : null;
        };
        const head = literal(s.head);
        const tail = literal(s.tail);
        if (head !== null && tail !== null) add(head, tail);
      }
    }
  }
}
