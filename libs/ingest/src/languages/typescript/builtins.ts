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
  'string', 'number', 'boolean', 'bigint', 'symbol', 'object', 'any', 'unknown', 'never', 'void', 'undefined', 'null',  // The web platform (WHATWG streams, encoding, workers, messaging, observers), in browsers and Node alike.
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

/** A JS/TS global, standard-library or test-runner name (`Promise`, `console`, `describe`...). */
export function isJsBuiltin(head: string): boolean {
  return JS.has(head);
}
