/** Go's predeclared types: never a repository scope, so not recorded as type references. */
export const GO_PREDECLARED_TYPES: ReadonlySet<string> = new Set([
  'any', 'bool', 'byte', 'comparable', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16',
  'int32', 'int64', 'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr',
]);

/** Predeclared functions and constants (calls to them are `builtin`). */
const GO_PREDECLARED_FUNCS: ReadonlySet<string> = new Set([
  'append', 'cap', 'clear', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max', 'min', 'new', 'panic',
  'print', 'println', 'real', 'recover', 'true', 'false', 'iota', 'nil',
]);

export function isGoPredeclared(head: string): boolean {
  return GO_PREDECLARED_FUNCS.has(head) || GO_PREDECLARED_TYPES.has(head);
}

/**
 * The standard library's import paths have no dot in their first element (`fmt`, `net/http`,
 * `golang.org/x/...` is not standard); a module path always has one, except the conventional
 * `example`/`test` roots the go command reserves, which a go.mod maps before this is asked.
 */
export function isStdImport(path: string): boolean {
  const first = path.split('/', 1)[0];
  return !first.includes('.');
}

/** The name a package is imported under by default: the path's last element, without a major version or `go-` prefix. */
export function defaultPackageName(spec: string): string {
  const segs = spec.split('/');
  let last = segs[segs.length - 1];
  if (/^v\d+$/.test(last) && segs.length > 1) last = segs[segs.length - 2];
  last = last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-go$/, '');
  return last.replace(/[-.]/g, '_');
}
