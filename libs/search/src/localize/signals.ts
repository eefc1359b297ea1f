/**
 * What an issue says about where its bug is, read the way an engineer reads it: the stack frames of
 * a pasted trace (Python tracebacks, pytest output, JS/TS stacks, Java, Go, Rust and C# traces), the
 * identifiers and dotted names it mentions, the error and log messages it quotes, its code spans,
 * the file paths it names, and the prose around them. Pure: no I/O, bounded work on any input.
 */

export type FrameLanguage = 'python' | 'pytest' | 'javascript' | 'java' | 'go' | 'rust' | 'csharp';

export interface StackFrame {
  /** The file as the trace spells it (absolute, relative, a URL's path); null when the trace gives none. */
  path: string | null;
  line: number | null;
  /** The function as the trace spells it (`Session.request`, `com.a.B.m`, `<anonymous>`), or null. */
  function: string | null;
  language: FrameLanguage;
  /**
   * 0 for the frame nearest the error, counting outwards (Python and pytest print the innermost frame
   * last, the others first; this order is the same for all).
   */
  depth: number;
}

export interface IssueSignals {
  frames: StackFrame[];
  /** Names that look like code (snake_case, camelCase, dotted, called, backticked), strongest first. */
  identifiers: string[];
  /** Quoted error and log messages and exception messages, as written. */
  strings: string[];
  /** Inline and fenced code, as written. */
  codeSpans: string[];
  /** Single lines of code (from fenced blocks, or prose lines that read as code), to find verbatim in sources. */
  codeLines: string[];
  /** File paths named outside the frames. */
  paths: string[];
  /** The title (first line) and the prose with code, traces and logs left out. */
  title: string;
  prose: string;
  /** What was cut to stay within the limits, for explain. */
  truncated: string[];
}

/** Bounds on what one issue can cost; beyond them the issue is cut and explain says so. */
export const SIGNAL_LIMITS = {
  /** Characters read at all; a longer text is cut (its head and tail are kept). */
  readChars: 40_000,
  /** Frames kept (nearest the error first); a 200-frame trace keeps these. */
  frames: 60,
  identifiers: 40,
  strings: 12,
  codeSpans: 12,
  codeLines: 10,
  paths: 20,
  /** Prose characters handed on (the embedder reads ~256 tokens anyway). */
  proseChars: 1_000,
  stringChars: 200,
} as const;

// ---- Stack frames --------------------------------------------------------------------------------

interface FramePattern {
  language: FrameLanguage;
  re: RegExp;
  /** Innermost frame printed last (Python, pytest). */
  innermostLast: boolean;
  /** The frame spans two lines (Go, Rust backtraces): matched against a line joined to the next by U+0000. */
  joined?: boolean;
  build: (m: RegExpExecArray) => Omit<StackFrame, 'language' | 'depth'>;
}

const num = (s: string | undefined) => (s ? Number.parseInt(s, 10) : null);

/** One pattern per trace format; each matches one line (Go and Rust frames join two lines first). */
const FRAME_PATTERNS: FramePattern[] = [
  // Python:   File "/x/requests/sessions.py", line 456, in request
  { language: 'python', innermostLast: true, re: /^\s*File "([^"]+)", line (\d+)(?:, in ([^\s]+))?/, build: (m) => ({ path: m[1], line: num(m[2]), function: m[3] ?? null }) },
  // pytest:   src/pkg/mod.py:123: in method   /   src/pkg/mod.py:45: ValueError
  { language: 'pytest', innermostLast: true, re: /^([\w./\\-]+\.py):(\d+):(?: in ([\w<>.]+)|\s+\w*(?:Error|Exception|Warning)\b)/, build: (m) => ({ path: m[1], line: num(m[2]), function: m[3] ?? null }) },
  // Java:   at com.acme.Foo.bar(Foo.java:123)   /   at com.acme.Foo.bar(Native Method)
  { language: 'java', innermostLast: false, re: /^\s*at ([\w.$<>/]+)\((?:([\w$.-]+\.(?:java|kt|scala|groovy)):(\d+)|Native Method|Unknown Source)\)\s*$/, build: (m) => ({ path: m[2] ?? null, line: num(m[3]), function: m[1] }) },
  // C#:   at Ns.Class.Method(String s) in C:\src\File.cs:line 42   (after Java, whose frames name a .java file or no source)
  { language: 'csharp', innermostLast: false, re: /^\s*at ([\w.`<>$|+]+)\([^)]*\)(?: in (.+?):line (\d+))?\s*$/, build: (m) => ({ path: m[2] ?? null, line: num(m[3]), function: m[1] }) },
  // V8 (Node, Chrome):   at Foo.bar (/app/src/foo.ts:10:5)   /   at /app/src/foo.js:10:5   /   at async fn (file:///x.mjs:1:2)
  { language: 'javascript', innermostLast: false, re: /^\s*at (?:async )?(?:(.+?) \()?((?:file:\/\/|webpack:\/\/\/?|https?:\/\/[^/]+)?[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/, build: (m) => ({ path: m[2], line: num(m[3]), function: m[1] ?? null }) },
  // Firefox / Safari:   bar@http://host/src/foo.js:10:5
  { language: 'javascript', innermostLast: false, re: /^\s*([\w$.<>/]*)@((?:https?:\/\/[^/]+|file:\/\/)?[^\s@]+\.(?:js|mjs|cjs|ts|tsx|jsx)):(\d+)(?::\d+)?\s*$/, build: (m) => ({ path: m[2], line: num(m[3]), function: m[1] || null }) },
  // Go (joined):   main.(*Server).handle(...) \t /src/server.go:42 +0x1d
  { language: 'go', innermostLast: false, joined: true, re: /^([\w./*()-]+)\(.*\)\s*\u0000\s*(\S+\.go):(\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/, build: (m) => ({ path: m[2], line: num(m[3]), function: m[1] }) },
  // Rust backtrace (joined):   3: mycrate::parse::run \u0000 at ./src/parse.rs:10:5
  { language: 'rust', innermostLast: false, joined: true, re: /^\s*\d+: ([\w:<>{}$. ]+?)(?:::h[0-9a-f]{16})?\s*\u0000\s*at (\S+\.rs):(\d+)(?::\d+)?\s*$/, build: (m) => ({ path: m[2], line: num(m[3]), function: m[1] }) },
  // Rust panic:   thread 'main' panicked at src/main.rs:4:5   /   panicked at 'msg', src/lib.rs:4:5
  { language: 'rust', innermostLast: false, re: /panicked at (?:'.*?', |".*?", )?(\S+\.rs):(\d+)(?::\d+)?/, build: (m) => ({ path: m[1], line: num(m[2]), function: null }) },
];

/** Lines that belong to a trace or log rather than to prose (frames, exception lines, log records). */
const TRACE_LINE = [
  /^\s*Traceback \(most recent call last\)/,
  /^\s*(?:During handling|The above exception)/,
  /^\s*(?:Caused by|Exception in thread|Unhandled exception)\b/,
  /^goroutine \d+ \[/,
  /^\s*stack backtrace:/,
  /^\s*at\s/,
  /^\s*File "/,
  /^\s*\d+: [\w:<>]+/,
  /^\s*\^+\s*$/,
  /^(?:E\s{2,}|>\s{3})/,
  /^[\w.]*(?:Error|Exception|Warning|Panic)(?::|\s*$)/,
  /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d/,
  /^\s*(?:DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b/,
  /^\s*\[(?:DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\]/,
  /^=+ .* =+$|^_{3,} .* _{3,}$/,
];

/**
 * Every frame of every trace in the text, nearest the error first within each trace. Go and Rust
 * print a frame on two lines: each line is tried alone and joined with the next.
 */
export function extractFrames(lines: readonly string[]): StackFrame[] {
  const traces: { frames: Omit<StackFrame, 'depth'>[]; innermostLast: boolean }[] = [];
  let current: { frames: Omit<StackFrame, 'depth'>[]; innermostLast: boolean; language: FrameLanguage } | null = null;
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let hit: { pattern: FramePattern; m: RegExpExecArray } | null = null;
    const joined = i + 1 < lines.length ? `${line}\u0000${lines[i + 1]}` : null;
    for (const pattern of FRAME_PATTERNS) {
      const m = pattern.re.exec(pattern.joined ? (joined ?? '') : line);
      if (m) {
        hit = { pattern, m };
        break;
      }
    }
    if (!hit) {
      // A trace ends after a few lines that are not frames (source lines and carets sit between frames).
      if (current && ++gap > 3) current = null;
      continue;
    }
    gap = 0;
    if (hit.pattern.joined) i++;
    if (!current || current.language !== hit.pattern.language) {
      current = { frames: [], innermostLast: hit.pattern.innermostLast, language: hit.pattern.language };
      traces.push(current);
    }
    const built = hit.pattern.build(hit.m);
    current.frames.push({ ...built, path: built.path ? cleanPath(built.path) : null, function: built.function ? cleanFunction(built.function) : null, language: hit.pattern.language });
  }
  const out: StackFrame[] = [];
  for (const trace of traces) {
    const ordered = trace.innermostLast ? [...trace.frames].reverse() : trace.frames;
    ordered.forEach((f, depth) => out.push({ ...f, depth }));
  }
  return out;
}

/** A frame path as a repository path could end: URL scheme, host, webpack prefix, query and backslashes gone. */
export function cleanPath(path: string): string {
  return path
    .replace(/^(?:file:\/\/|webpack:\/\/\/?(?:\.\/)?|https?:\/\/[^/]+)/, '')
    .replace(/[?#].*$/, '')
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:\//, '/');
}

function cleanFunction(name: string): string | null {
  const cleaned = name
    .replace(/^(?:new |async )/, '')
    .replace(/\s*\[as [^\]]+\]$/, '')
    .replace(/\(\*?([\w]+)\)/g, '$1')
    .trim();
  if (!cleaned || /^<(?:module|anonymous|lambda|genexpr|listcomp|dictcomp)>$/.test(cleaned) || cleaned === 'Object.<anonymous>') return null;
  return cleaned;
}

// ---- Identifiers, strings, code, paths -----------------------------------------------------------

const FENCE = /```[^\n]*\n([\s\S]*?)(?:```|$)/g;
const INLINE_CODE = /`([^`\n]{1,200})`/g;
const FILE_PATH = /(?:^|[\s("'`[])((?:[\w.@-]+\/)*[\w.@-]+\.(?:py|pyi|js|mjs|cjs|jsx|ts|tsx|java|kt|go|rs|cs|rb|php|c|cc|cpp|h|hpp|swift|scala))(?::(\d+))?\b/g;
const DOTTED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b/g;
const CALLED = /\b([A-Za-z_$][\w$]*)\s*\(/g;
const WORD = /\b[A-Za-z_$][\w$]*\b/g;
/** A line that reads as code: an assignment, a call, a definition, a return. */
const CODE_LINE = /^(?:(?:def|class|function|const|let|var|return|if|raise|throw)\b.*|[\w.[\]'"]+\s*(?:[-+*/]?=|\+\+|--)\s*\S.*|[\w.$]+\(.*\)[;,]?)$/;
/** A message written in quotes: at least two words or a word with punctuation. */
// A single quote inside a word is an apostrophe (don't, it's), not a quote.
const QUOTED_MESSAGE = /"([^"\n]{6,200})"|(?<![\p{L}\p{N}])'([^'\n]{6,200})'(?![\p{L}\p{N}])|“([^”\n]{6,200})”/gu;
/**
 * A log or error line a program printed (`[fd error]: Could not retrieve ...`, `error: unknown flag`,
 * `WARN  thing failed: ...`): its message is in the source verbatim, its prefix is not.
 */
const LOG_MESSAGE =
  /^\s*(?:\[[^\]\n]{0,30}\b(?:error|warning|warn|fatal|panic|critical)\b[^\]\n]{0,30}\]\s*:?|(?:\[[^\]\n]{1,40}\]\s*:?\s*)?(?:[\w.-]+\s+)?(?:error|warning|warn|fatal|panic|critical)\b[^:\n]{0,30}:)\s+(.{10,})$/i;
/** In a message, where the program's own text most likely ends and printed values begin. */
const MESSAGE_VALUE = /\s*(?::\s|["'`]|\s\/|\d{3,}).*$/;
const EXCEPTION_LINE = /(?:^|\s)((?:[\w]+\.)*[A-Z]\w*(?:Error|Exception|Warning|Failure|Panic))(?::\s+(.{4,}))?\s*$/;

/** Names too common in code and prose to point anywhere. */
const COMMON = new Set(
  (
    'self this cls super none null undefined true false nil return import from def class function const let var new print console log ' +
    'args kwargs str int float bool dict list tuple set object type len range isinstance getattr setattr hasattr open map filter ' +
    'string number boolean any void async await yield lambda pass raise try except finally else elif while for with as not and or is in ' +
    'if of the to main require module exports default prototype e g i e etc np pd os sys re json http https www com org github ' +
    'python javascript typescript node npm pip version issue bug error warning exception traceback expected actual behavior ' +
    'test tests example foo bar baz todo fixme'
  ).split(' '),
);

function looksLikeCode(word: string): boolean {
  if (word.length < 3 || COMMON.has(word.toLowerCase())) return false;
  return /_/.test(word.replace(/^_+|_+$/g, '')) || /[a-z][A-Z]/.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word) || /^__\w+__$/.test(word);
}

function isVersionOrHost(dotted: string): boolean {
  return /^\d/.test(dotted) || /\.(?:com|org|io|net|dev|html|md|txt|json|yaml|yml|toml|cfg|ini|lock)$/i.test(dotted) || /^(?:e\.g|i\.e|etc)\b/i.test(dotted);
}

// ---- The whole issue -----------------------------------------------------------------------------

/** The signals of an issue; never throws, bounded by SIGNAL_LIMITS whatever the input. */
/**
 * The issue as its page shows it: HTML comments left out. Issue templates carry their instructions to
 * the reporter in comments (`<!-- PLEASE READ THE FAQs ... -->`), the same words in every issue of a
 * project; they named the project's files (the "stats" card of a template's FAQ) in issues about
 * something else. An unclosed comment runs to the end, as a browser shows it.
 */
export function withoutHtmlComments(text: string): string {
  return text.includes('<!--') ? text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ') : text;
}

export function extractSignals(input: string): IssueSignals {
  const truncated: string[] = [];
  let text = withoutHtmlComments(input).replace(/\r\n?/g, '\n');
  if (text.length > SIGNAL_LIMITS.readChars) {
    // The head holds the title and description, the tail the innermost frames and the error.
    const half = SIGNAL_LIMITS.readChars / 2;
    truncated.push(`text cut from ${text.length} to ${SIGNAL_LIMITS.readChars} characters (first and last ${half} kept)`);
    text = `${text.slice(0, half)}\n${text.slice(-half)}`;
  }

  const codeSpans: string[] = [];
  const fenced: string[] = [];
  for (const m of text.matchAll(FENCE)) fenced.push(m[1]);
  const withoutFences = text.replace(FENCE, '\n');
  const inline: string[] = [];
  for (const m of withoutFences.matchAll(INLINE_CODE)) inline.push(m[1]);
  codeSpans.push(...inline, ...fenced.map((f) => f.trim()).filter(Boolean));

  const lines = text.split('\n');
  let frames = extractFrames(lines);
  if (frames.length > SIGNAL_LIMITS.frames) {
    truncated.push(`${frames.length} stack frames, the ${SIGNAL_LIMITS.frames} nearest the error kept`);
    frames = [...frames].sort((a, b) => a.depth - b.depth).slice(0, SIGNAL_LIMITS.frames);
  }

  // Exception lines give a message and a class name; quoted text gives messages.
  const strings: string[] = [];
  const idScore = new Map<string, number>();
  const addId = (name: string, score: number) => {
    const clean = name.replace(/^[.$]+|[.$]+$/g, '');
    if (clean.length < 3 || clean.length > 120 || COMMON.has(clean.toLowerCase())) return;
    idScore.set(clean, (idScore.get(clean) ?? 0) + score);
  };
  const addString = (s: string) => {
    const t = s.trim().slice(0, SIGNAL_LIMITS.stringChars);
    if (t.length >= 6 && /[A-Za-z]{2}/.test(t) && !strings.includes(t)) strings.push(t);
  };
  for (const line of lines) {
    const m = EXCEPTION_LINE.exec(line.trim());
    if (m) {
      addId(m[1].split('.').pop()!, 1);
      if (m[2]) addString(m[2].replace(/^['"]|['"]$/g, ''));
    }
  }
  for (const line of lines) {
    const m = LOG_MESSAGE.exec(line);
    if (!m || EXCEPTION_LINE.test(line.trim())) continue;
    addString(m[1]);
    // The message up to the first printed value, when the value would spoil the phrase.
    const head = m[1].replace(MESSAGE_VALUE, '');
    if (head !== m[1] && head.split(/\s+/).length >= 3) addString(head);
  }
  for (const m of withoutFences.matchAll(QUOTED_MESSAGE)) {
    const s = m[1] ?? m[2] ?? m[3];
    if (/\s/.test(s.trim()) && !/^(?:[\w.]+\/)+[\w.]+$/.test(s)) addString(s);
  }

  const paths: string[] = [];
  const framePaths = new Set(frames.map((f) => f.path));
  for (const m of text.matchAll(FILE_PATH)) {
    const p = cleanPath(m[1]);
    if (!framePaths.has(p) && !paths.includes(p) && !/^(?:\w+\.)+(?:com|org|io)$/.test(p)) paths.push(p);
  }

  // Identifiers: frames' functions (strongest), backticked code, calls, dotted names, code-like words.
  for (const f of frames) if (f.function) addId(f.function, 3);
  for (const span of inline) {
    for (const m of span.matchAll(DOTTED)) if (!isVersionOrHost(m[0])) addId(m[0], 3);
    for (const m of span.matchAll(WORD)) if (m[0].length >= 3) addId(m[0], looksLikeCode(m[0]) ? 3 : 2);
  }
  const proseLines: string[] = [];
  for (const l of lines) {
    if (!TRACE_LINE.some((re) => re.test(l))) proseLines.push(l);
    // A log or trace line names code too (the function that logged, a variable): weak, but repeated lines add up.
    else for (const m of l.matchAll(WORD)) if (looksLikeCode(m[0])) addId(m[0], 0.5);
  }
  const proseText = proseLines.join('\n').replace(FENCE, '\n');
  for (const m of proseText.matchAll(CALLED)) if (looksLikeCode(m[1]) || /[A-Z]/.test(m[1][0])) addId(m[1], 2);
  for (const m of proseText.matchAll(DOTTED)) if (!isVersionOrHost(m[0]) && !/\.(?:py|js|ts|go|rs|java|cs)$/.test(m[0])) addId(m[0], 2);
  for (const m of proseText.matchAll(WORD)) if (looksLikeCode(m[0])) addId(m[0], 1);
  for (const code of fenced) {
    for (const m of code.matchAll(DOTTED)) if (!isVersionOrHost(m[0])) addId(m[0], 0.5);
    for (const m of code.matchAll(CALLED)) addId(m[1], 0.5);
  }
  let identifiers = [...idScore.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  if (identifiers.length > SIGNAL_LIMITS.identifiers) {
    truncated.push(`${identifiers.length} identifiers, the ${SIGNAL_LIMITS.identifiers} strongest kept`);
    identifiers = identifiers.slice(0, SIGNAL_LIMITS.identifiers);
  }

  // Lines of code quoted from the repository (`method = builtin_str(method)`) are found verbatim in it.
  const codeLines: string[] = [];
  const addCodeLine = (raw: string) => {
    const line = raw.trim().replace(/^(?:>>>|\.\.\.|\$|>)\s*/, '');
    if (line.length < 8 || line.length > 160 || !CODE_LINE.test(line) || /^(?:import|from|#|\/\/|print\(|console\.log)/.test(line) || codeLines.includes(line)) return;
    codeLines.push(line);
  };
  for (const l of proseLines) if (CODE_LINE.test(l.trim()) && !/[.!?]$/.test(l.trim()) && l.trim().split(/\s+/).length <= 10) addCodeLine(l);
  for (const code of fenced) for (const l of code.split('\n')) addCodeLine(l);

  const title = (lines.find((l) => l.trim().length > 0) ?? '').trim().slice(0, 300);
  const prose = proseText
    .replace(INLINE_CODE, (_, c: string) => c)
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim();
  if (prose.length > SIGNAL_LIMITS.proseChars) truncated.push(`prose cut from ${prose.length} to ${SIGNAL_LIMITS.proseChars} characters for the embedding and keyword lists`);

  const cap = <T>(list: T[], n: number, what: string): T[] => {
    if (list.length > n) truncated.push(`${list.length} ${what}, the first ${n} kept`);
    return list.slice(0, n);
  };
  return {
    frames,
    identifiers,
    strings: cap(strings, SIGNAL_LIMITS.strings, 'quoted messages'),
    codeSpans: cap(codeSpans, SIGNAL_LIMITS.codeSpans, 'code spans'),
    codeLines: cap(codeLines, SIGNAL_LIMITS.codeLines, 'lines of code'),
    paths: cap(paths, SIGNAL_LIMITS.paths, 'file paths'),
    title,
    prose: prose.slice(0, SIGNAL_LIMITS.proseChars),
    truncated,
  };
}

/**
 * Whether a text is clearly an issue rather than a search query: a stack trace, or several lines
 * with code (fenced, or two or more code-looking names), or a long multi-line report. Hybrid hands
 * such text to LOCALIZE.
 */
export function looksLikeIssue(text: string): { issue: boolean; reason: string } {
  const lines = text.split(/\r?\n/);
  const frames = extractFrames(lines.slice(0, 2_000));
  if (frames.length >= 2) return { issue: true, reason: `a stack trace (${frames.length} frames)` };
  const nonEmpty = lines.filter((l) => l.trim()).length;
  if (nonEmpty >= 3 && /```/.test(text)) return { issue: true, reason: 'several lines with a fenced code block' };
  if (nonEmpty >= 4 && text.length >= 300) return { issue: true, reason: `a multi-line report (${nonEmpty} lines, ${text.length} characters)` };
  return { issue: false, reason: 'a short query' };
}
