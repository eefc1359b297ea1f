/** Ruby core and standard-library constants (classes and modules a program never declares). */
const CONSTANTS = new Set([
  'Object', 'BasicObject', 'Module', 'Class', 'Kernel', 'Comparable', 'Enumerable', 'Enumerator', 'String', 'Symbol',
  'Integer', 'Float', 'Numeric', 'Rational', 'Complex', 'Array', 'Hash', 'Range', 'Regexp', 'MatchData', 'Proc', 'Method',
  'UnboundMethod', 'NilClass', 'TrueClass', 'FalseClass', 'Struct', 'Time', 'IO', 'File', 'Dir', 'FileTest', 'Process',
  'Signal', 'Thread', 'Mutex', 'Queue', 'ConditionVariable', 'Fiber', 'ObjectSpace', 'GC', 'Marshal', 'Math', 'Random',
  'Encoding', 'Errno', 'Exception', 'StandardError', 'RuntimeError', 'ArgumentError', 'TypeError', 'NameError',
  'NoMethodError', 'KeyError', 'IndexError', 'StopIteration', 'RangeError', 'IOError', 'EOFError', 'SystemExit',
  'NotImplementedError', 'ScriptError', 'LoadError', 'SyntaxError', 'ZeroDivisionError', 'FrozenError', 'FloatDomainError',
  'SecurityError', 'SystemCallError', 'Interrupt', 'SignalException', 'ThreadError', 'FiberError', 'RegexpError',
  'EncodingError', 'LocalJumpError', 'NoMatchingPatternError', 'UncaughtThrowError', 'Warning', 'ENV', 'ARGV', 'ARGF',
  'STDIN', 'STDOUT', 'STDERR', 'DATA', 'RUBY_VERSION', 'RUBY_PLATFORM', 'RUBY_ENGINE', 'RbConfig', 'Data', 'Ractor',
  'TracePoint', 'Binding', 'ObjectSpace', 'Set', 'SortedSet', 'JSON', 'YAML', 'Psych', 'ERB', 'URI', 'Net', 'OpenSSL',
  'Digest', 'Base64', 'SecureRandom', 'StringIO', 'StringScanner', 'Pathname', 'FileUtils', 'Tempfile', 'Tmpdir',
  'OpenStruct', 'Forwardable', 'SingleForwardable', 'Singleton', 'Observable', 'Logger', 'Benchmark', 'Timeout',
  'Shellwords', 'OptionParser', 'Date', 'DateTime', 'BigDecimal', 'CGI', 'Zlib', 'Socket', 'TCPSocket', 'TCPServer',
  'UNIXSocket', 'Open3', 'PP', 'Prime', 'Matrix', 'Ripper', 'Coverage', 'ObjectSpace', 'WeakRef', 'Monitor',
  'MonitorMixin', 'DRb', 'IPAddr', 'Resolv', 'CSV', 'Readline', 'Etc', 'IO::Console', 'Gem', 'Bundler', 'Racc',
]);

/** Kernel / Module methods called without a receiver, and names every object answers. */
const KERNEL = new Set([
  'puts', 'print', 'p', 'pp', 'printf', 'sprintf', 'format', 'putc', 'gets', 'warn', 'raise', 'fail', 'require',
  'require_relative', 'load', 'autoload', 'lambda', 'proc', 'loop', 'catch', 'throw', 'exit', 'exit!', 'abort', 'at_exit',
  'sleep', 'rand', 'srand', 'system', 'exec', 'spawn', 'fork', 'trap', 'caller', 'caller_locations', 'binding',
  'block_given?', 'iterator?', 'freeze', 'frozen?', 'dup', 'clone', 'tap', 'then', 'yield_self', 'itself', 'open',
  'select', 'Integer', 'Float', 'String', 'Array', 'Hash', 'Rational', 'Complex', 'attr_accessor', 'attr_reader',
  'attr_writer', 'attr', 'include', 'extend', 'prepend', 'private', 'protected', 'public', 'module_function',
  'private_constant', 'public_constant', 'private_class_method', 'public_class_method', 'alias_method', 'undef_method',
  'remove_method', 'define_method', 'attr_internal', 'new', 'allocate', 'superclass', 'class', 'singleton_class',
  'is_a?', 'kind_of?', 'instance_of?', 'respond_to?', 'nil?', 'equal?', 'eql?', 'hash', 'object_id', 'inspect', 'to_s',
  'to_str', 'to_a', 'to_ary', 'to_h', 'to_hash', 'to_i', 'to_int', 'to_f', 'to_sym', 'to_proc', 'display', 'instance_variables',
  'instance_variable_defined?', 'methods', 'public_methods', 'private_methods', 'singleton_methods', 'method_defined?',
  'instance_methods', 'public_method_defined?', 'private_method_defined?', 'const_defined?', 'constants', 'name',
  'ancestors', 'included_modules', 'include?', 'extended', 'included', 'inherited', 'prepended', 'method_added',
  'autoload?', '__method__', '__dir__', '__callee__', 'gem', 'using', 'refine', 'then', 'frozen?', 'taint', 'untaint',
  'binding', 'local_variables', 'global_variables', 'set_trace_func', 'trace_var', 'test', 'srand', 'readline',
  'readlines', 'chomp', 'chop', 'gsub', 'sub', 'ObjectSpace', 'singleton_method_added', 'extend_object', 'append_features',
  'describe', 'it', 'context', 'let', 'subject', 'expect', 'before', 'after', 'specify', 'shared_examples', 'is_expected',
]);

/** Methods of core classes (String, Array, Hash, Enumerable, Integer, IO...) commonly called on values. */
const CORE_METHODS = new Set([
  'each', 'each_with_index', 'each_with_object', 'each_pair', 'each_key', 'each_value', 'each_line', 'each_char',
  'each_byte', 'each_slice', 'each_cons', 'map', 'map!', 'flat_map', 'collect', 'collect!', 'select!', 'reject', 'reject!',
  'filter', 'filter_map', 'find', 'detect', 'find_index', 'find_all', 'grep', 'grep_v', 'inject', 'reduce', 'sum', 'count',
  'min', 'max', 'min_by', 'max_by', 'minmax', 'sort', 'sort!', 'sort_by', 'sort_by!', 'group_by', 'partition', 'chunk',
  'chunk_while', 'slice_when', 'zip', 'take', 'take_while', 'drop', 'drop_while', 'first', 'last', 'any?', 'all?',
  'none?', 'one?', 'empty?', 'size', 'length', 'push', 'pop', 'shift', 'unshift', 'append', 'prepend', 'insert',
  'concat', 'compact', 'compact!', 'flatten', 'flatten!', 'uniq', 'uniq!', 'reverse', 'reverse!', 'rotate', 'join',
  'split', 'strip', 'strip!', 'lstrip', 'rstrip', 'chomp', 'chomp!', 'chop', 'chars', 'bytes', 'lines', 'upcase',
  'downcase', 'capitalize', 'swapcase', 'upcase!', 'downcase!', 'capitalize!', 'start_with?', 'end_with?', 'match',
  'match?', 'scan', 'gsub', 'gsub!', 'sub', 'sub!', 'tr', 'tr_s', 'delete', 'delete!', 'delete_if', 'delete_at',
  'delete_prefix', 'delete_suffix', 'squeeze', 'center', 'ljust', 'rjust', 'index', 'rindex', 'slice', 'slice!',
  'replace', 'freeze', 'unpack', 'unpack1', 'pack', 'encode', 'encoding', 'force_encoding', 'valid_encoding?', 'b',
  'ord', 'chr', 'hex', 'oct', 'succ', 'next', 'pred', 'times', 'upto', 'downto', 'step', 'abs', 'round', 'floor', 'ceil',
  'truncate', 'divmod', 'modulo', 'zero?', 'positive?', 'negative?', 'even?', 'odd?', 'between?', 'clamp', 'keys',
  'values', 'values_at', 'key?', 'has_key?', 'value?', 'has_value?', 'member?', 'fetch', 'fetch_values', 'dig', 'store',
  'merge', 'merge!', 'update', 'transform_values', 'transform_keys', 'transform_values!', 'transform_keys!', 'to_h',
  'invert', 'key', 'default', 'default=', 'clear', 'sample', 'shuffle', 'cycle', 'tally', 'sum', 'product', 'combination',
  'permutation', 'transpose', 'assoc', 'fill', 'at', 'last', 'bsearch', 'call', 'curry', 'arity', 'parameters', 'yield',
  'read', 'write', 'close', 'closed?', 'open', 'puts', 'print', 'printf', 'gets', 'flush', 'sync', 'sync=', 'readlines',
  'each_entry', 'exist?', 'exists?', 'file?', 'directory?', 'basename', 'dirname', 'extname', 'expand_path', 'join',
  'mkdir', 'mkdir_p', 'rm', 'rm_rf', 'cp', 'mv', 'binread', 'binwrite', 'stat', 'mtime', 'now', 'strftime', 'to_time',
  'to_date', 'iso8601', 'parse', 'generate', 'dump', 'load', 'pretty_generate', 'escape', 'unescape', 'lazy', 'force',
  'with_index', 'with_object', 'sum', 'entries', 'to_set', 'add', 'add?', 'subset?', 'superset?', 'intersect?',
  'intersection', 'union', 'difference', 'ljust', 'format', 'send', 'public_send', '__send__', 'instance_variable_get',
  'instance_variable_set', 'instance_eval', 'instance_exec', 'class_eval', 'class_exec', 'module_eval', 'module_exec',
  'const_get', 'const_set', 'method', 'public_method', 'instance_method', 'define_singleton_method', 'each_char',
  'source_location', 'owner', 'receiver', 'bind', 'unbind', 'message', 'backtrace', 'full_message', 'cause', 'exception',
  'set_backtrace', 'join', 'value', 'alive?', 'kill', 'synchronize', 'lock', 'unlock', 'pid', 'success?', 'exitstatus',
  'wait', 'to_json', 'as_json', 'to_yaml', 'bytesize', 'byteslice', 'getbyte', 'setbyte', 'codepoints', 'squish',
  'empty', 'dup', 'pos', 'pos=', 'eos?', 'skip', 'skip_until', 'scan_until', 'check', 'matched', 'matched?', 'pre_match',
  'post_match', 'captures', 'named_captures', 'names', 'begin', 'end', 'offset', 'string', 'rest', 'peek', 'getch',
  'unscan', 'terminate', 'reset', 'inspect', 'then', 'min', 'ceil', 'to_r', 'to_c', 'real', 'imaginary', 'nonzero?',
  'nan?', 'infinite?', 'finite?', 'integer?', 'fdiv', 'div', 'pow', 'gcd', 'lcm', 'digits', 'bit_length', 'size',
  'sum', 'push', 'compare_by_identity', 'default_proc', 'any?', 'frozen?', 'cover?', 'exclude_end?', 'step', '===',
]);

/** Object's methods that classes do not redefine in practice: on any receiver they are Ruby's. */
export const RUBY_OBJECT_METHODS = new Set([
  'is_a?', 'kind_of?', 'instance_of?', 'respond_to?', 'nil?', 'frozen?', 'equal?', 'object_id', 'class', 'freeze', 'dup',
  'clone', 'tap', 'then', 'itself', 'instance_variable_defined?', 'instance_variables', 'singleton_class', 'extend',
  'is_a?', 'display', 'method', 'methods', 'public_methods', 'instance_variable_get', 'instance_variable_set',
]);

/** Names whose call decides its target at run time: `send(:x)`, `define_method`, `method_missing`... */
export const RUBY_DYNAMIC = new Set([
  'send', 'public_send', '__send__', 'method_missing', 'respond_to_missing?', 'define_method', 'define_singleton_method',
  'instance_variable_get', 'instance_variable_set', 'instance_eval', 'instance_exec', 'class_eval', 'class_exec',
  'module_eval', 'module_exec', 'const_get', 'method', 'public_method', 'instance_method', 'call', 'yield', '[]',
]);

/** A constant or a receiver-less name of Ruby or its standard library. */
export function isRubyBuiltin(head: string): boolean {
  return CONSTANTS.has(head) || KERNEL.has(head);
}

/** A method name core classes answer (called on a value whose class is not known). */
export function isRubyCoreMethod(name: string): boolean {
  return CORE_METHODS.has(name) || KERNEL.has(name);
}

/** Standard-library features `require` loads (never files of the repository). */
export const RUBY_STDLIB = new Set([
  'json', 'set', 'yaml', 'psych', 'erb', 'uri', 'net/http', 'net/https', 'openssl', 'digest', 'digest/md5', 'digest/sha1',
  'digest/sha2', 'base64', 'securerandom', 'stringio', 'strscan', 'pathname', 'fileutils', 'tempfile', 'tmpdir', 'ostruct',
  'forwardable', 'singleton', 'observer', 'logger', 'benchmark', 'timeout', 'shellwords', 'optparse', 'date', 'time',
  'bigdecimal', 'cgi', 'zlib', 'socket', 'open3', 'pp', 'prime', 'matrix', 'ripper', 'coverage', 'weakref', 'monitor',
  'thread', 'drb', 'ipaddr', 'resolv', 'csv', 'readline', 'etc', 'io/console', 'rbconfig', 'English', 'find', 'open-uri',
  'delegate', 'abbrev', 'enumerator', 'rational', 'complex', 'continuation', 'fiber', 'objspace', 'racc', 'racc/parser',
  'rubygems', 'bundler', 'bundler/setup', 'io/wait', 'io/nonblock', 'expect', 'pty', 'syslog', 'win32ole', 'mkmf', 'un',
]);
