import type { Language } from '../parse/types';

/** Head identifiers that name language / standard-library things (used only to label unresolved refs). */
const JS = new Set([
  'Object', 'Array', 'Promise', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'Symbol', 'String', 'Number', 'Boolean',
  'BigInt', 'Date', 'RegExp', 'Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'AggregateError',
  'JSON', 'Math', 'Reflect', 'Proxy', 'Intl', 'console', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout',
  'clearInterval', 'clearImmediate', 'queueMicrotask', 'structuredClone', 'parseInt', 'parseFloat', 'isNaN', 'isFinite',
  'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI', 'require', 'module', 'exports', 'process',
  'Buffer', 'globalThis', 'window', 'document', 'navigator', 'fetch', 'URL', 'URLSearchParams', 'TextEncoder',
  'TextDecoder', 'AbortController', 'AbortSignal', 'Headers', 'Request', 'Response', 'Blob', 'FormData', 'Event',
  'EventTarget', 'Function', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array', 'Uint16Array',
  'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  'Uint8ClampedArray', 'Atomics', 'Iterator', 'AsyncIterator', 'Iterable', 'AsyncIterable', 'IterableIterator',
  'AsyncIterableIterator', 'Generator', 'AsyncGenerator', 'PromiseLike', 'ArrayLike', 'ReadonlyArray', 'ReadonlyMap',
  'ReadonlySet', 'Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit', 'Exclude', 'Extract', 'NonNullable',
  'ReturnType', 'Parameters', 'InstanceType', 'ConstructorParameters', 'ThisType', 'Awaited', 'Uppercase', 'Lowercase',
  'Capitalize', 'Uncapitalize', 'PropertyKey', 'PromiseConstructorLike', 'TemplateStringsArray', 'NodeJS', 'super',
  'arguments', 'eval', 'alert', 'performance', 'crypto', 'localStorage', 'sessionStorage', 'HTMLElement', 'Element',
  'Node', 'jest', 'describe', 'it', 'test', 'expect', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll',
  'string', 'number', 'boolean', 'bigint', 'symbol', 'object', 'any', 'unknown', 'never', 'void', 'undefined', 'null',
  // The web platform (WHATWG streams, encoding, workers, messaging, observers), in browsers and Node alike.
  'ReadableStream', 'WritableStream', 'TransformStream', 'ReadableStreamDefaultController', 'ReadableByteStreamController',
  'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController',
  'TransformStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy', 'TextEncoderStream',
  'TextDecoderStream', 'CompressionStream', 'DecompressionStream', 'WebSocket', 'EventSource', 'XMLHttpRequest',
  'MessageChannel', 'MessagePort', 'MessageEvent', 'BroadcastChannel', 'Worker', 'SharedWorker', 'CustomEvent',
  'ErrorEvent', 'DOMException', 'File', 'FileReader', 'CryptoKey', 'SubtleCrypto', 'atob', 'btoa', 'reportError',
  'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'ResizeObserver', 'IntersectionObserver',
  'MutationObserver', 'PerformanceObserver', 'FinalizationRegistry', 'location', 'history', 'self', 'RequestInit',
  'ResponseInit', 'HeadersInit', 'BodyInit', 'RequestInfo', 'ReadableStreamReadResult', 'UnderlyingSource',
  'UnderlyingSink', 'Transformer', 'QueuingStrategy',
]);

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

const CS = new Set([
  'nameof', 'string', 'object', 'int', 'long', 'short', 'byte', 'bool', 'char', 'decimal', 'double', 'float', 'uint',
  'ulong', 'ushort', 'sbyte', 'dynamic', 'var', 'String', 'Object', 'Int32', 'Int64', 'Boolean', 'Decimal', 'Double',
  'Guid', 'DateTime', 'DateTimeOffset', 'TimeSpan', 'Console', 'Math', 'Convert', 'Task', 'ValueTask', 'Func', 'Action',
  'List', 'IList', 'Dictionary', 'IDictionary', 'IReadOnlyDictionary', 'HashSet', 'ISet', 'IEnumerable', 'IEnumerator',
  'ICollection', 'IReadOnlyList', 'IReadOnlyCollection', 'IQueryable', 'Enumerable', 'Queryable', 'Array', 'Span',
  'ReadOnlySpan', 'Memory', 'Nullable', 'Lazy', 'Tuple', 'ValueTuple', 'KeyValuePair', 'Exception',
  'ArgumentException', 'ArgumentNullException', 'ArgumentOutOfRangeException', 'InvalidOperationException',
  'NotImplementedException', 'NotSupportedException', 'KeyNotFoundException', 'IDisposable', 'IAsyncDisposable',
  'IEquatable', 'IComparable', 'ICloneable', 'EventHandler', 'EventArgs', 'Attribute', 'Type', 'Enum', 'Environment',
  'GC', 'Activator', 'StringBuilder', 'Regex', 'Encoding', 'File', 'Path', 'Directory', 'Stream', 'Thread',
  'CancellationToken', 'CancellationTokenSource', 'Interlocked', 'Monitor', 'Debug', 'Trace', 'JsonSerializer',
  'SqlConnection', 'SqlCommand', 'SqlParameter', 'SqlDataReader', 'SqlDbType', 'CommandType', 'DbConnection',
  'DbCommand', 'IDbConnection', 'IDbCommand', 'DataTable', 'DataSet', 'ILogger', 'IConfiguration',
  'IServiceCollection', 'IServiceProvider', 'GetType', 'ToString', 'Equals', 'GetHashCode', 'MemberwiseClone',
  'ReferenceEquals',
]);

export function isBuiltin(language: Language, head: string): boolean {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return JS.has(head);
    case 'python':
      return PY.has(head);
    case 'csharp':
      return CS.has(head) || head === 'System' || head.startsWith('System.') || head === 'Microsoft';
    default:
      return false;
  }
}
