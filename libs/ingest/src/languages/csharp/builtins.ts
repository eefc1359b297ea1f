/** Head identifiers that name language / standard-library things (used only to label unresolved refs). */
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

/** A C# keyword type or a .NET/BCL name (`string`, `Task`, `System.*`, `Microsoft`...). */
export function isCSharpBuiltin(head: string): boolean {
  return CS.has(head) || head === 'System' || head.startsWith('System.') || head === 'Microsoft';
}
