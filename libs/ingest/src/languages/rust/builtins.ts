/** Crates of the Rust distribution: paths into them are `builtin`. */
export const STD_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

/** Primitive types (`u8::MAX`, `str::from_utf8`). */
const PRIMITIVES = new Set([
  'bool', 'char', 'str', 'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64',
]);

/** Names the prelude (and the most used std types) put in scope without a `use`. */
const PRELUDE = new Set([
  'Option', 'Some', 'None', 'Result', 'Ok', 'Err', 'Box', 'Vec', 'String', 'ToString', 'ToOwned', 'Clone', 'Copy',
  'Send', 'Sync', 'Sized', 'Unpin', 'Drop', 'Fn', 'FnMut', 'FnOnce', 'drop', 'Default', 'Eq', 'PartialEq', 'Ord',
  'PartialOrd', 'Iterator', 'IntoIterator', 'DoubleEndedIterator', 'ExactSizeIterator', 'Extend', 'FromIterator',
  'AsRef', 'AsMut', 'Into', 'From', 'TryFrom', 'TryInto', 'Debug', 'Hash', 'Display', 'Rc', 'Arc', 'RefCell', 'Cell',
  'HashMap', 'HashSet', 'BTreeMap', 'BTreeSet', 'VecDeque', 'BinaryHeap', 'Cow', 'Mutex', 'RwLock', 'PhantomData',
  'Ordering', 'Formatter', 'Error', 'Path', 'PathBuf', 'Duration', 'Instant', 'NonNull', 'ManuallyDrop', 'Pin',
  'Any', 'TypeId', 'Wrapping', 'Range', 'RangeInclusive', 'Borrow', 'BorrowMut', 'Deref', 'DerefMut', 'Weak',
  'Future', 'Poll', 'Context', 'Waker', 'Write', 'Read', 'BufRead', 'Infallible', 'self', 'Self',
]);

/** `std` macros (`println!`, `vec!`...) and the compiler's built-in ones. */
const MACROS = new Set([
  'println', 'print', 'eprintln', 'eprint', 'format', 'format_args', 'write', 'writeln', 'vec', 'panic', 'assert',
  'assert_eq', 'assert_ne', 'debug_assert', 'debug_assert_eq', 'debug_assert_ne', 'unreachable', 'unimplemented',
  'todo', 'matches', 'dbg', 'concat', 'stringify', 'include', 'include_str', 'include_bytes', 'env', 'option_env',
  'cfg', 'line', 'column', 'file', 'module_path', 'compile_error', 'thread_local', 'try', 'addr_of', 'addr_of_mut',
  'const_format_args', 'offset_of', 'is_x86_feature_detected', 'debug_assert_matches', 'assert_matches',
]);

/**
 * Methods the standard library gives every type through its traits and blanket impls (derives,
 * `ToString` for `Display`, `Into` for `From`, iterator adaptors...): on a repository type that does
 * not declare them, a call is into the standard library.
 */
const STD_METHODS = new Set([
  'clone', 'clone_from', 'to_string', 'to_owned', 'fmt', 'eq', 'ne', 'cmp', 'partial_cmp', 'lt', 'le', 'gt', 'ge',
  'max', 'min', 'clamp', 'hash', 'default', 'into', 'from', 'try_into', 'try_from', 'as_ref', 'as_mut', 'borrow',
  'borrow_mut', 'deref', 'deref_mut', 'drop', 'type_id', 'into_iter', 'next', 'next_back', 'size_hint', 'count',
  'map', 'filter', 'collect', 'iter', 'iter_mut', 'len', 'is_empty', 'extend', 'from_iter', 'sum', 'product', 'rev',
  'enumerate', 'zip', 'chain', 'fold', 'all', 'any', 'find', 'position', 'last', 'nth', 'skip', 'take', 'step_by',
  'index', 'index_mut', 'add', 'sub', 'mul', 'div', 'rem', 'neg', 'not', 'bitand', 'bitor', 'bitxor', 'shl', 'shr',
  'add_assign', 'sub_assign', 'write_str', 'write_fmt', 'write_char', 'from_str', 'parse', 'unwrap', 'expect',
  'into_boxed_slice', 'poll', 'call', 'call_mut', 'call_once',
]);

const FN_TRAITS = new Set(['Fn', 'FnMut', 'FnOnce']);

/** A type name that is the language's or the standard library's (not worth a REFERENCES edge). */
export function isBuiltinType(path: string): boolean {
  const head = path.split('.')[0];
  return PRIMITIVES.has(path) || (PRELUDE.has(path) && path !== 'Self' && path !== 'self') || STD_CRATES.has(head);
}

export function isFnTrait(path: string): boolean {
  return FN_TRAITS.has(path);
}

/** Head of a name that nothing in the repository declares and that belongs to the language or `std`. */
export function isRustBuiltin(head: string): boolean {
  if (head.endsWith('!')) return MACROS.has(head.slice(0, -1)) || STD_CRATES.has(head.split('.')[0]);
  return STD_CRATES.has(head) || PRIMITIVES.has(head) || PRELUDE.has(head);
}

export function isStdMethod(name: string): boolean {
  return STD_METHODS.has(name);
}

/**
 * Methods of `Option`/`Result` and std's blanket impls (`to_string` for every `Display`) that a
 * repository's types practically never declare: called on a receiver of unknown type, they are
 * counted as the standard library's rather than as misses.
 */
const STD_ONLY_METHODS = new Set([
  'unwrap', 'expect', 'unwrap_or', 'unwrap_or_else', 'unwrap_or_default', 'unwrap_err', 'expect_err', 'ok', 'err',
  'is_some', 'is_none', 'is_ok', 'is_err', 'map_err', 'ok_or', 'ok_or_else', 'and_then', 'or_else', 'as_deref',
  'as_deref_mut', 'to_string', 'to_owned', 'into_iter', 'copied', 'cloned', 'collect', 'unwrap_unchecked',
]);

export function isStdOnlyMethod(name: string): boolean {
  return STD_ONLY_METHODS.has(name);
}
