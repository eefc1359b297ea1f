// Python names reached through run-time name building that no edge records: a short string head
// joined to a value whose values are written as strings in the same file, a module `__getattr__`
// that looks names up in globals(), a class `__getattr__`/`__getattribute__` that maps a literal
// prefix onto attribute names, and display protocols that notebooks call by name. Each rule reads a
// shape of code, never a package's name.
import { blockBody } from './code-text';

/**
 * Heads of names built at run time in one file: `'_' + self.kind`, `f'_{kind}'`, `'_%s' % kind`,
 * `'_{}'.format(kind)`. Unlike the repository-wide string heads, one character counts here: it is
 * only trusted together with the rest of the name written as a string in the same file.
 */
export function builtNameHeads(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(['"])([A-Za-z_]\w*)\1\s*\+\s*[A-Za-z_]/g)) out.add(m[2]);
  for (const m of text.matchAll(/\b(?:[fF][rR]?|[rR][fF])(['"])([A-Za-z_]\w*)\{[^'"{}]+\}\1/g)) out.add(m[2]);
  for (const m of text.matchAll(/(['"])([A-Za-z_]\w*)%[sr]\1\s*%/g)) out.add(m[2]);
  for (const m of text.matchAll(/(['"])([A-Za-z_]\w*)\{\}\1\s*\.format\(/g)) out.add(m[2]);
  return out;
}

/** Identifier-shaped string literals of a file (`'StarFive'`, "Hexagon"). */
export function identifierStrings(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(['"])([A-Za-z_]\w*)\1/g)) out.add(m[2]);
  return out;
}

/**
 * The head + string a name is built from in its own file (`_` + 'StarFive' for `_StarFive`), or null:
 * the file joins the head to a value and writes the rest of the name as a string, so the value can
 * be that string.
 */
export function builtFromFileStrings(name: string, heads: Set<string>, strings: Set<string>): string | null {
  for (const head of heads) {
    if (name.length <= head.length || !name.startsWith(head)) continue;
    const rest = name.slice(head.length);
    if (strings.has(rest)) return `'${head}' + '${rest}'`;
  }
  return null;
}

/**
 * How a name can be built at run time: a head and a string of its own file, or a head in a file that
 * imports it (engineio's server.py calls `getattr(self, '_' + encoding)` on the base class of
 * base_server.py, whose `compression_methods = ['gzip', 'deflate']` are the rest) with the rest
 * written in either file.
 */
export function builtName(name: string, own: { heads: Set<string>; strings: Set<string> }, importers: { heads: Set<string>; strings: Set<string> }[]): string | null {
  const inOwn = builtFromFileStrings(name, own.heads, own.strings);
  if (inOwn) return inOwn;
  for (const i of importers) {
    const built = builtFromFileStrings(name, i.heads, new Set([...own.strings, ...i.strings]));
    if (built) return `${built} in a file importing its file`;
  }
  return null;
}

/** Literal heads joined to a name inside a body: `'_' + name`, f'_{name}', `'_%s' % name`, `.startswith('_sa_')`. */
function bodyHeads(body: string, withStartswith: boolean): Set<string> {
  const out = builtNameHeads(body);
  if (withStartswith) for (const m of body.matchAll(/\.startswith\(\s*(['"])([A-Za-z_]\w*)\1/g)) out.add(m[2]);
  return out;
}

/**
 * Heads under which a module-level `__getattr__(name)` hands out the module's own globals
 * (`return globals()[f'_{name}']`, `vars()['_' + name]`): module names fitting a head are reached as
 * `module.<rest>` (PEP 562), which no edge records.
 */
export function moduleGetattrHeads(text: string): Set<string> {
  const out = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    if (!/^def[ \t]+__getattr__[ \t]*\(/.test(l)) return;
    const body = blockBody(lines, i);
    if (!/\b(globals|vars)\(\s*\)/.test(body)) return;
    for (const h of bodyHeads(body, false)) out.add(h);
  });
  return out;
}

/** The head a module-level name fits under its module's `__getattr__`, or null. */
export function moduleGetattrHead(name: string, heads: Set<string>): string | null {
  for (const h of heads) if (name.length > h.length && name.startsWith(h)) return h;
  return null;
}

/**
 * Literal prefixes that a class's `__getattr__`/`__getattribute__` maps onto attribute names: it
 * strips one (`if name.startswith('_sa_'): return getattr(self, name[4:])`) or adds one
 * (`getattr(self, '_impl_' + name)`). Either way `prefix + name` and `name` reach each other.
 */
export function attributePrefixMaps(text: string): Set<string> {
  const out = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    if (!/^[ \t]+def[ \t]+__getattr(ibute)?__[ \t]*\(/.test(l)) return;
    const body = blockBody(lines, i);
    for (const h of bodyHeads(body, true)) if (h.length >= 2) out.add(h);
  });
  return out;
}

/**
 * The name through which a prefix-mapping `__getattr__` reaches this declaration, among the words
 * used in code, or null: `_sa__add_getter` reaches `_add_getter` when the map strips `_sa_`, and
 * `fetch` reaches `_impl_fetch` when it adds `_impl_`.
 */
export function prefixMappedUse(name: string, prefixes: Set<string>, codeWords: Set<string>): string | null {
  for (const p of prefixes) {
    if (codeWords.has(p + name)) return p + name;
    if (name.length > p.length && name.startsWith(p) && codeWords.has(name.slice(p.length))) return name.slice(p.length);
  }
  return null;
}

/**
 * Methods frameworks call by name on any object they are handed, whatever its class: IPython/Jupyter's
 * rich display protocol (`_repr_html_` and kin, `_ipython_display_`, `_ipython_key_completions_`)
 * and the pretty printer's `_repr_pretty_`. Dunders (`__reduce_ex__`, `__array__`) are entry points already.
 */
export const BY_NAME_PROTOCOLS = /^(_repr_(html|latex|markdown|svg|png|jpeg|json|pretty|mimebundle|javascript|pdf)_|_ipython_display_|_ipython_key_completions_|_ipython_canary_method_should_not_exist_)$/;

/**
 * Non-dunder methods the standard library calls by name on an object it is handed (read off
 * CPython 3.11's sources), with the caller: a class defines them for the library, never for its own code.
 */
export const STDLIB_BY_NAME: ReadonlyMap<string, string> = new Map([
  ['_decref_socketios', "socket.SocketIO.close() calls it on the socket it wraps"],
  // Python 2's socket._fileobject and the wrappers written for it (urllib3, requests) call these on the socket.
  ['_reuse', "socket file objects call it on the socket they wrap"],
  ['_drop', "socket file objects call it on the socket they wrap"],
  ['_release_save', 'threading.Condition calls it on the lock it is given'],
  ['_acquire_restore', 'threading.Condition calls it on the lock it is given'],
  ['_is_owned', 'threading.Condition calls it on the lock it is given'],
  ['_at_fork_reinit', "threading's after-fork hook calls it on locks and conditions"],
  ['_dispatch', 'xmlrpc.server calls it on the instance registered with it'],
  ['_get_method_argstring', 'xmlrpc.server.DocXMLRPCServer calls it on the instance registered with it'],
  ['_get_child_mock', "unittest.mock calls it to make a mock's children"],
  ['_missing_', 'enum calls it on a lookup of a value the Enum lacks'],
  ['_generate_next_value_', 'enum calls it for auto() values'],
  ['_asdict', "namedtuple's protocol: serialisers (simplejson, json encoders' default()) call it by name"],
]);
