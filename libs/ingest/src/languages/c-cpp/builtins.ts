import type { Language } from '../../parse/types';

/** C standard library, POSIX and compiler names a repository never declares (calls to them are `builtin`). */
const C_NAMES = new Set(`
printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf fscanf sscanf puts fputs fputc putc
putchar getc getchar fgetc fgets gets ungetc fopen fclose fread fwrite fseek ftell rewind fflush feof ferror
clearerr perror remove rename tmpfile tmpnam setvbuf setbuf fileno fdopen popen pclose getline
malloc calloc realloc free aligned_alloc posix_memalign memalign alloca abort exit _exit atexit quick_exit
getenv setenv unsetenv system atoi atol atoll atof strtol strtoul strtoll strtoull strtod strtof strtold abs labs
llabs div ldiv qsort bsearch rand srand random srandom mblen mbtowc wctomb mbstowcs wcstombs
memcpy memmove memset memcmp memchr strcpy strncpy strcat strncat strcmp strncmp strchr strrchr strstr strlen
strnlen strdup strndup strtok strtok_r strerror strspn strcspn strpbrk strcoll strxfrm strcasecmp strncasecmp
bzero bcopy isalpha isdigit isalnum isspace isupper islower isxdigit ispunct isprint iscntrl isgraph toupper
tolower sqrt pow exp log log10 log2 sin cos tan asin acos atan atan2 sinh cosh tanh floor ceil fabs fmod round
trunc lround llround frexp ldexp modf fmin fmax isnan isinf hypot cbrt
assert static_assert _Static_assert offsetof sizeof alignof _Alignof va_start va_end va_arg va_copy
time clock difftime mktime localtime gmtime strftime asctime ctime gettimeofday clock_gettime nanosleep sleep
usleep open close read write lseek stat fstat lstat unlink mkdir rmdir access getpid fork execv execvp waitpid
pipe dup dup2 signal raise kill mmap munmap mprotect sysconf ioctl fcntl select poll errno setjmp longjmp
pthread_create pthread_join pthread_mutex_lock pthread_mutex_unlock pthread_mutex_init pthread_mutex_destroy
pthread_cond_wait pthread_cond_signal pthread_cond_broadcast pthread_cond_init pthread_cond_destroy pthread_self
htons htonl ntohs ntohl socket bind listen accept connect send recv
__builtin_expect __builtin_clz __builtin_clzl __builtin_clzll __builtin_ctz __builtin_ctzl __builtin_ctzll
__builtin_popcount __builtin_popcountll __builtin_bswap16 __builtin_bswap32 __builtin_bswap64 __builtin_memcpy
__builtin_memset __builtin_prefetch __builtin_unreachable __builtin_assume_aligned __builtin_constant_p
__builtin_offsetof __builtin_trap __assume _BitScanForward _BitScanReverse _BitScanForward64 _BitScanReverse64
__cpuid __cpuidex _byteswap_ushort _byteswap_ulong _byteswap_uint64 _rotl _rotr __debugbreak
std static_cast dynamic_cast reinterpret_cast const_cast typeid decltype noexcept
`.trim().split(/\s+/));

/** Standard C and C++ headers: `#include <stdio.h>` is the standard library, not a dependency. */
export const STANDARD_HEADERS = new Set(`
assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h
signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h
tgmath.h threads.h time.h uchar.h wchar.h wctype.h
unistd.h fcntl.h pthread.h sys/types.h sys/stat.h sys/time.h sys/mman.h sys/socket.h sys/wait.h sys/ioctl.h
sys/param.h sys/resource.h sys/select.h sys/uio.h sys/utsname.h netinet/in.h arpa/inet.h netdb.h dirent.h
dlfcn.h poll.h sched.h semaphore.h strings.h syslog.h termios.h utime.h malloc.h alloca.h endian.h
windows.h io.h intrin.h immintrin.h emmintrin.h xmmintrin.h tmmintrin.h smmintrin.h nmmintrin.h x86intrin.h
arm_neon.h
algorithm any array atomic bitset cassert cctype cerrno cfloat chrono cinttypes climits clocale cmath
codecvt complex condition_variable csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cwchar
cwctype deque exception execution filesystem forward_list fstream functional future initializer_list iomanip
ios iosfwd iostream istream iterator limits list locale map memory memory_resource mutex new numeric optional
ostream queue random ratio regex scoped_allocator set shared_mutex span sstream stack stdexcept streambuf string
string_view system_error thread tuple type_traits typeindex typeinfo unordered_map unordered_set utility
valarray variant vector bit charconv compare concepts coroutine format numbers ranges source_location
`.trim().split(/\s+/));

export function isCBuiltin(_language: Language, head: string): boolean {
  return C_NAMES.has(head);
}
