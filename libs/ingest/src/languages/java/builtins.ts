/**
 * Names a Java file sees without importing them: `java.lang` (implicitly imported), primitive types,
 * and the heads of fully qualified standard-library names (`java.util.List.of`). Anything imported
 * from `java.*`/`javax.*` is labelled builtin by the resolver from the import itself.
 */
const JAVA_LANG = new Set([
  'Object', 'String', 'StringBuilder', 'StringBuffer', 'CharSequence', 'System', 'Math', 'StrictMath', 'Runtime',
  'Thread', 'ThreadGroup', 'ThreadLocal', 'InheritableThreadLocal', 'Runnable', 'Iterable', 'Comparable', 'AutoCloseable', 'Cloneable',
  'Appendable', 'Readable', 'Class', 'ClassLoader', 'ClassValue', 'Enum', 'Record', 'Void', 'Boolean', 'Byte', 'Short',
  'Character', 'Integer', 'Long', 'Float', 'Double', 'Number', 'Process', 'ProcessBuilder', 'ProcessHandle',
  'StackTraceElement', 'StackWalker', 'Module', 'ModuleLayer', 'Package', 'SecurityManager', 'Compiler',
  'Throwable', 'Exception', 'Error', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException',
  'NullPointerException', 'UnsupportedOperationException', 'IndexOutOfBoundsException',
  'ArrayIndexOutOfBoundsException', 'StringIndexOutOfBoundsException', 'ClassCastException',
  'CloneNotSupportedException', 'InterruptedException', 'NumberFormatException', 'ArithmeticException',
  'ArrayStoreException', 'NegativeArraySizeException', 'SecurityException', 'ReflectiveOperationException',
  'ClassNotFoundException', 'NoSuchMethodException', 'NoSuchFieldException', 'IllegalAccessException',
  'InstantiationException', 'IllegalMonitorStateException', 'EnumConstantNotPresentException',
  'TypeNotPresentException', 'AssertionError', 'OutOfMemoryError', 'StackOverflowError', 'LinkageError',
  'NoClassDefFoundError', 'ExceptionInInitializerError', 'VirtualMachineError', 'InternalError',
  'UnsupportedClassVersionError', 'IncompatibleClassChangeError', 'AbstractMethodError', 'NoSuchFieldError',
  'NoSuchMethodError', 'IllegalCallerException', 'LayerInstantiationException', 'MatchException',
  'Override', 'Deprecated', 'SuppressWarnings', 'FunctionalInterface', 'SafeVarargs',
]);

const PRIMITIVES = new Set(['int', 'long', 'short', 'byte', 'char', 'boolean', 'float', 'double', 'void', 'var']);

/** Methods every object has (java.lang.Object) and every enum or record gets from the language. */
export const IMPLICIT_METHODS = new Set([
  'toString', 'equals', 'hashCode', 'getClass', 'clone', 'finalize', 'notify', 'notifyAll', 'wait',
  'values', 'valueOf', 'ordinal', 'name', 'compareTo', 'getDeclaringClass', 'describeConstable',
]);

/** java.util.function and other standard functional interfaces: a call through one runs a lambda. */
export const FUNCTIONAL_INTERFACES = new Set([
  'Runnable', 'Callable', 'Comparator', 'Supplier', 'Consumer', 'BiConsumer', 'Function', 'BiFunction', 'Predicate',
  'BiPredicate', 'UnaryOperator', 'BinaryOperator', 'IntFunction', 'IntPredicate', 'IntUnaryOperator',
  'IntBinaryOperator', 'IntConsumer', 'IntSupplier', 'ToIntFunction', 'ToLongFunction', 'ToDoubleFunction',
  'ToIntBiFunction', 'LongFunction', 'LongPredicate', 'LongUnaryOperator', 'LongBinaryOperator', 'LongSupplier',
  'LongConsumer', 'DoubleFunction', 'DoublePredicate', 'DoubleUnaryOperator', 'DoubleBinaryOperator',
  'DoubleSupplier', 'DoubleConsumer', 'BooleanSupplier', 'ObjIntConsumer', 'ObjLongConsumer', 'ObjDoubleConsumer',
]);

export function isJavaBuiltin(head: string): boolean {
  return JAVA_LANG.has(head) || PRIMITIVES.has(head) || head === 'java' || head === 'javax' || IMPLICIT_METHODS.has(head);
}

/** A package of the Java platform (`java.util`, `javax.annotation`, `jdk.internal`...). */
export function isPlatformPackage(qualified: string): boolean {
  return /^(?:java|javax|jdk|sun)\./.test(qualified);
}
