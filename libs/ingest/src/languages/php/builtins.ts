/** Classes and interfaces of PHP itself and its bundled extensions (SPL, date, PDO, DOM, intl...). */
const CLASSES = new Set([
  'stdClass', 'Exception', 'ErrorException', 'Error', 'TypeError', 'ValueError', 'ArithmeticError', 'DivisionByZeroError',
  'ArgumentCountError', 'AssertionError', 'CompileError', 'ParseError', 'UnhandledMatchError', 'Throwable', 'Traversable',
  'Iterator', 'IteratorAggregate', 'ArrayAccess', 'Countable', 'Serializable', 'Stringable', 'JsonSerializable', 'Closure',
  'Generator', 'WeakMap', 'WeakReference', 'Fiber', 'UnitEnum', 'BackedEnum', 'Attribute', 'ReturnTypeWillChange',
  'AllowDynamicProperties', 'SensitiveParameter', 'Override', 'LogicException', 'BadFunctionCallException',
  'BadMethodCallException', 'DomainException', 'InvalidArgumentException', 'LengthException', 'OutOfRangeException',
  'RuntimeException', 'OutOfBoundsException', 'OverflowException', 'RangeException', 'UnderflowException',
  'UnexpectedValueException', 'JsonException', 'ArrayObject', 'ArrayIterator', 'RecursiveArrayIterator', 'SplStack',
  'SplQueue', 'SplObjectStorage', 'SplFixedArray', 'SplPriorityQueue', 'SplHeap', 'SplMinHeap', 'SplMaxHeap',
  'SplDoublyLinkedList', 'SplFileInfo', 'SplFileObject', 'SplTempFileObject', 'SplSubject', 'SplObserver', 'IteratorIterator',
  'FilterIterator', 'CallbackFilterIterator', 'RecursiveIteratorIterator', 'RecursiveDirectoryIterator', 'DirectoryIterator',
  'FilesystemIterator', 'GlobIterator', 'LimitIterator', 'AppendIterator', 'MultipleIterator', 'NoRewindIterator',
  'InfiniteIterator', 'RegexIterator', 'EmptyIterator', 'CachingIterator', 'RecursiveIterator', 'OuterIterator',
  'SeekableIterator', 'DateTime', 'DateTimeImmutable', 'DateTimeInterface', 'DateTimeZone', 'DateInterval', 'DatePeriod',
  'PDO', 'PDOStatement', 'PDOException', 'DOMDocument', 'DOMElement', 'DOMNode', 'DOMXPath', 'DOMNodeList', 'DOMText',
  'DOMAttr', 'SimpleXMLElement', 'XMLReader', 'XMLWriter', 'ReflectionClass', 'ReflectionObject', 'ReflectionMethod',
  'ReflectionProperty', 'ReflectionFunction', 'ReflectionNamedType', 'ReflectionException', 'ReflectionParameter',
  'ReflectionEnum', 'ReflectionType', 'IntlDateFormatter', 'NumberFormatter', 'Collator', 'Normalizer', 'Transliterator',
  'Locale', 'MessageFormatter', 'mysqli', 'SQLite3', 'CURLFile', 'finfo', 'SoapClient', 'ZipArchive', 'Phar', 'Random',
  '__PHP_Incomplete_Class', 'php_user_filter', 'SessionHandlerInterface', 'Directory',
]);

/** Function names of PHP and its bundled extensions. */
const FUNCTIONS = new Set(`abs addslashes array_is_list arsort asort assert basename bin2hex bindec boolval call_user_func ceil chdir checkdate checkdnsrr chmod chr chunk_split class_exists clearstatcache closedir compact constant copy cos count crc32 crypt current decbin dechex decoct define defined die dirname each echo empty end enum_exists escapeshellarg escapeshellcmd exec exit exp explode extract fclose fdiv feof fflush fgetcsv fgets file_exists filemtime filesize floatval flock floor fmod fnmatch fopen fprintf fputcsv fread fseek fsockopen fstat ftell ftruncate func_get_args function_exists fwrite get_called_class get_class get_debug_type get_object_vars get_parent_class getcwd getenv gethostbyname gethostname gettype glob gmdate hex2bin hexdec hrtime html_entity htmlspecialchars implode in_array intdiv interface_exists intval ip2long is_a is_callable is_dir is_file is_subclass_of isset iterator_count iterator_to_array join key krsort ksort lcfirst levenshtein link list localeconv log long2ip lstat ltrim mail max md5 metaphone method_exists microtime min mkdir mktime money_format next nl2br nl_langinfo number_format octdec opendir ord parse_str parse_url passthru pathinfo pclose phpversion pi popen pow preg_last_error_msg preg_quote prev print print_r printf property_exists putenv quotemeta range rawurldecode rawurlencode readdir readlink realpath register_shutdown_function rename reset rewind rmdir round rsort rtrim scandir setcookie setlocale settype sha1 shell_exec shuffle similar_text sin sizeof sleep sort soundex spl_autoload_register spl_object_hash spl_object_id sprintf sqrt sscanf stat str_contains str_ends_with str_starts_with str_word_count strcasecmp strcmp strcspn strip_tags stripos stripslashes stristr strlen strnatcasecmp strnatcmp strncasecmp strncmp strpbrk strpos strrchr strrev strrpos strspn strstr strtolower strtotime strtoupper strtr strval substr substr_count symlink sys_get_temp_dir system tan tempnam tmpfile token_get_all touch trait_exists trim uasort ucfirst ucwords uksort umask uniqid unlink unset urldecode urlencode usleep usort var_dump var_export version_compare vfprintf vsprintf wordwrap`.split(/\s+/));
/** Function-name prefixes of the bundled extensions (`array_map`, `mb_strlen`, `preg_match`, `gzopen`, `imagepng`...). */
const FUNCTION_PREFIXES = /^(?:array_|array_key_|base64_|class_|ctype_|curl_|date_|debug_|dom_|error_|exif_|file_|filter_|func_|gc_|get_|gmp_|grapheme_|hash_|highlight_|http_|idn_|inet_|ini_|is_|iterator_|json_|lcg_|libxml_|mb_|memory_|method_|money_|mt_|mysqli_|ob_|openssl_|password_|pcntl_|pg_|php_|posix_|preg_|proc_|property_|random_|restore_|session_|set_|simplexml_|socket_|sodium_|spl_|sqlite_|str_|stream_|substr_|trigger_|utf8_|var_|xml_)|^(?:array|bc|fs|gz|header|iconv|image|intl|rand|serialize|srand|time|unserialize|url)[a-z0-9_]*$/;

/** PHP function names that call whatever their argument names: `call_user_func([$o, 'm'])`... */
export const PHP_DYNAMIC_FUNCTIONS = new Set([
  'call_user_func', 'call_user_func_array', 'forward_static_call', 'forward_static_call_array',
]);

export function isPhpBuiltinClass(name: string): boolean {
  return CLASSES.has(name);
}

export function isPhpBuiltinFunction(name: string): boolean {
  const n = name.toLowerCase();
  return FUNCTIONS.has(n) || FUNCTION_PREFIXES.test(n);
}

/** A class or function name (last segment of a global name) of PHP itself. */
export function isPhpBuiltin(head: string): boolean {
  const name = head.replace(/^\\/, '');
  return CLASSES.has(name) || isPhpBuiltinFunction(name);
}
