/** Head identifiers that name language / standard-library things (used only to label unresolved refs). */
const PY = new Set([
  'print', 'len', 'range', 'isinstance', 'issubclass', 'super', 'str', 'int', 'float', 'complex', 'dict', 'list', 'set',
  'frozenset', 'tuple', 'bool', 'bytes', 'bytearray', 'memoryview', 'open', 'enumerate', 'zip', 'map', 'filter',
  'sorted', 'reversed', 'min', 'max', 'sum', 'any', 'all', 'abs', 'round', 'pow', 'divmod', 'getattr', 'setattr',
  'hasattr', 'delattr', 'type', 'object', 'repr', 'id', 'hash', 'iter', 'next', 'format', 'vars', 'dir', 'callable',
  'input', 'chr', 'ord', 'hex', 'oct', 'bin', 'globals', 'locals', 'exec', 'eval', 'compile', 'property',
  'staticmethod', 'classmethod', 'slice', 'breakpoint', 'help', '__import__', 'NotImplemented', 'Ellipsis',
  'BaseException', 'Exception', 'ValueError', 'TypeError', 'KeyError', 'IndexError', 'AttributeError',
  'RuntimeError', 'NotImplementedError', 'StopIteration', 'StopAsyncIteration', 'OSError', 'IOError',
  'FileNotFoundError', 'PermissionError', 'ImportError', 'ModuleNotFoundError', 'ZeroDivisionError', 'AssertionError',
  'LookupError', 'ArithmeticError', 'TimeoutError', 'ConnectionError', 'UnicodeDecodeError', 'UnicodeEncodeError',
  'Warning', 'DeprecationWarning', 'UserWarning', 'KeyboardInterrupt', 'SystemExit', 'GeneratorExit',
  'List', 'Dict', 'Set', 'FrozenSet', 'Tuple', 'Optional', 'Union', 'Any', 'Callable', 'Iterable', 'Iterator',
  'Generator', 'AsyncIterator', 'AsyncGenerator', 'Awaitable', 'Coroutine', 'Sequence', 'MutableSequence', 'Mapping',
  'MutableMapping', 'Type', 'TypeVar', 'Generic', 'Protocol', 'ClassVar', 'Final', 'Literal', 'Annotated', 'NoReturn',
  'Self', 'TypedDict', 'NamedTuple', 'cast', 'overload', 'None', 'self', 'cls',
]);

/** A Python builtin or `typing` name (`len`, `Optional`, `self`...). */
export function isPythonBuiltin(head: string): boolean {
  return PY.has(head);
}
