import { execFile, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * One hunk of a zero-context diff, with git's starts normalised: for an empty side git names the line
 * *before* the gap, here `start` is the line after it, so "after the hunk" is `line >= start + len`
 * on both sides.
 */
export interface Hunk {
  oldStart: number;
  oldLen: number;
  newStart: number;
  newLen: number;
}

export interface FileChange {
  path: string;
  /** The file did not exist before (its scopes cannot be older) / no longer exists after. */
  added: boolean;
  deleted: boolean;
  hunks: Hunk[];
  linesAdded: number;
  linesDeleted: number;
  /** The hunks as written (context included), kept only when asked for: what applying the diff needs. */
  raw?: { oldStart: number; oldLen: number; lines: string[] }[];
}

export interface GitCommit {
  sha: string;
  /** Author time, seconds since the epoch. */
  time: number;
  authorName: string;
  authorEmail: string;
  subject: string;
  files: FileChange[];
}

export interface LogOptions {
  maxCommits: number;
  since?: string;
  /** Only commits after this one (exclusive): an incremental read. */
  after?: string | null;
}

const RECORD = '\x1e';
const FIELD = '\x1f';
/** A commit's header line as --format writes it; a diff line never starts so (they start with +, -, space, @, diff...). */
const COMMIT_LINE = /^\x1e[0-9a-f]{40,64}\x1f\d+\x1f/;

/**
 * Lines split on "\n" only. readline also splits on a lone "\r", which cuts a changed line holding a
 * carriage return in two: the second half lacks its "+"/"-" and could read as a commit header.
 */
export async function* linesOf(stream: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of stream) {
    rest += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let nl: number;
    let from = 0;
    while ((nl = rest.indexOf('\n', from)) >= 0) {
      yield rest.slice(from, nl);
      from = nl + 1;
    }
    rest = rest.slice(from);
  }
  rest += decoder.end();
  if (rest) yield rest;
}
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** Output of git can be huge on big histories: it is streamed, never buffered whole. */
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };

// The git CLI rather than a JavaScript git library: it is the reference implementation (every object
// format, packfiles, worktrees, shallow clones), its diff is native code (a 10k-commit log with hunks
// streams in seconds), and it needs no native build. The cost is a child process per read.
export async function gitTopLevel(dir: string): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { env: GIT_ENV });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

export async function gitHead(dir: string): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', '--verify', '-q', 'HEAD^{commit}'], { env: GIT_ENV });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

export async function isAncestor(dir: string, ancestor: string, of: string): Promise<boolean> {
  try {
    await run('git', ['-C', dir, 'merge-base', '--is-ancestor', ancestor, of], { env: GIT_ENV });
    return true;
  } catch {
    return false;
  }
}

/** A ref as a commit sha, or null when it names none (refs are checked before use in commands). */
export async function resolveRef(dir: string, ref: string): Promise<string | null> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._\/~^@{}-]{0,200}$/.test(ref) || ref.includes('..')) return null;
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', '--verify', '-q', '--end-of-options', `${ref}^{commit}`], { env: GIT_ENV });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** A file's bytes at a commit (null when it does not exist there), relative to `dir`. */
export async function showFile(dir: string, sha: string, path: string): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['-C', dir, 'show', `${sha}:./${path}`], { env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

/** The unified diff (zero context) between two commits, paths relative to `dir` and limited to it. */
export async function diffRefs(dir: string, from: string, to: string): Promise<string> {
  const { stdout } = await run('git', ['-C', dir, '-c', 'core.quotepath=off', 'diff', '--no-renames', '--no-ext-diff', '--no-color', '--relative', '-U0', from, to, '--', '.'], { env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** The working tree against HEAD (what the index read may differ from the last commit by). */
export async function diffWorkingTree(dir: string): Promise<FileChange[]> {
  try {
    const { stdout } = await run('git', ['-C', dir, '-c', 'core.quotepath=off', 'diff', '--no-renames', '--no-ext-diff', '--no-color', '--relative', '-U0', 'HEAD', '--', '.'], { env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
    return parseUnifiedDiff(stdout);
  } catch {
    return [];
  }
}

/**
 * Commits newest first, each with its files and zero-context hunks, paths relative to `dir` and only
 * those under it. Merges are left out (their changes are the changes of the commits they merge).
 */
export async function* readGitLog(dir: string, opts: LogOptions): AsyncGenerator<GitCommit> {
  if (opts.maxCommits <= 0) return;
  const args = [
    '-C', dir, '-c', 'core.quotepath=off', 'log', '--no-merges', '--no-renames', '--no-ext-diff', '--no-color', '--relative', '-U0', '-p',
    `--format=${RECORD}%H${FIELD}%at${FIELD}%an${FIELD}%ae${FIELD}%s`, `--max-count=${Math.floor(opts.maxCommits)}`,
  ];
  if (opts.since) args.push(`--since=${opts.since}`);
  args.push(opts.after ? `${opts.after}..HEAD` : 'HEAD', '--', '.');
  const child = spawn('git', args, { env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 0)));
  const parser = new DiffParser();
  let current: GitCommit | null = null;
  for await (const line of linesOf(child.stdout)) {
    if (line.startsWith(RECORD) && COMMIT_LINE.test(line)) {
      if (current) {
        current.files = parser.finish();
        yield current;
      }
      const [sha, time, authorName, authorEmail, ...subject] = line.slice(1).split(FIELD);
      current = { sha, time: Number(time), authorName, authorEmail, subject: subject.join(FIELD), files: [] };
      continue;
    }
    parser.line(line);
  }
  if (current) {
    current.files = parser.finish();
    yield current;
  }
  const code = await exited;
  if (code !== 0) throw new Error(`git log failed (${code}): ${stderr.trim()}`);
}

export function parseUnifiedDiff(text: string, keepLines = false): FileChange[] {
  const parser = new DiffParser(keepLines);
  for (const line of text.split('\n')) parser.line(line);
  return parser.finish();
}

/**
 * Reads `git diff`/`diff -u` output line by line. Inside a hunk it counts the lines the header
 * announced, so content such as "+++ x" is never mistaken for a header.
 */
class DiffParser {
  constructor(private readonly keepLines = false) {}

  private files: FileChange[] = [];
  private file: FileChange | null = null;
  private oldPath: string | null = null;
  private pendingOld = 0;
  private pendingNew = 0;

  private oldNext = 0;
  private newNext = 0;
  private run: Hunk | null = null;

  line(line: string): void {
    if (this.pendingOld > 0 || this.pendingNew > 0) {
      if (this.keepLines && /^[-+ ]/.test(line)) this.file?.raw?.at(-1)?.lines.push(line);
      else if (this.keepLines && line === '') this.file?.raw?.at(-1)?.lines.push(' ');
      // Context lines split a hunk into the runs of lines that really changed.
      if (line.startsWith('-')) {
        this.openRun().oldLen++;
        this.oldNext++;
        this.pendingOld--;
      } else if (line.startsWith('+')) {
        this.openRun().newLen++;
        this.newNext++;
        this.pendingNew--;
      } else if (line.startsWith(' ') || line === '') {
        this.closeRun();
        this.oldNext++;
        this.newNext++;
        this.pendingOld--;
        this.pendingNew--;
      }
      // "\\ No newline at end of file": not a counted line.
      if (this.pendingOld <= 0 && this.pendingNew <= 0) this.closeRun();
      return;
    }
    if (line.startsWith('diff --git ')) {
      this.flush();
      this.oldPath = null;
      const m = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
      this.file = { path: m ? m[2] : '', added: false, deleted: false, hunks: [], linesAdded: 0, linesDeleted: 0 };
      return;
    }
    if (line.startsWith('--- ')) {
      if (!this.file) this.file = { path: '', added: false, deleted: false, hunks: [], linesAdded: 0, linesDeleted: 0 };
      const p = stripPrefix(line.slice(4));
      this.oldPath = p;
      if (p === null) this.file.added = true;
      return;
    }
    if (line.startsWith('+++ ') && this.file) {
      const p = stripPrefix(line.slice(4));
      if (p === null) {
        this.file.deleted = true;
        if (this.oldPath) this.file.path = this.oldPath;
      } else this.file.path = p;
      return;
    }
    if (line.startsWith('new file mode') && this.file) this.file.added = true;
    else if (line.startsWith('deleted file mode') && this.file) this.file.deleted = true;
    const m = HUNK.exec(line);
    if (m && this.file) {
      const oldLen = m[2] === undefined ? 1 : Number(m[2]);
      const newLen = m[4] === undefined ? 1 : Number(m[4]);
      const oldStart = Number(m[1]) + (oldLen === 0 ? 1 : 0);
      const newStart = Number(m[3]) + (newLen === 0 ? 1 : 0);
      if (this.keepLines) (this.file.raw ??= []).push({ oldStart, oldLen, lines: [] });
      this.oldNext = oldStart;
      this.newNext = newStart;
      this.pendingOld = oldLen;
      this.pendingNew = newLen;
    }
  }

  private openRun(): Hunk {
    return (this.run ??= { oldStart: this.oldNext, oldLen: 0, newStart: this.newNext, newLen: 0 });
  }

  private closeRun(): void {
    if (!this.run || !this.file) return;
    this.file.hunks.push(this.run);
    this.file.linesAdded += this.run.newLen;
    this.file.linesDeleted += this.run.oldLen;
    this.run = null;
  }

  finish(): FileChange[] {
    this.flush();
    const out = this.files;
    this.files = [];
    return out;
  }

  private flush(): void {
    this.closeRun();
    if (this.file && this.file.path) this.files.push(this.file);
    this.file = null;
    this.pendingOld = this.pendingNew = 0;
  }
}

/**
 * The text after a file's hunks (kept with parseUnifiedDiff(text, true)); throws when a hunk's
 * context or removed lines are not what `before` holds there (the diff is not of this text).
 */
export function applyHunks(before: string, change: FileChange): string {
  const lines = before.split('\n');
  const out: string[] = [];
  let next = 0; // index into lines
  for (const h of change.raw ?? []) {
    const at = h.oldStart - 1;
    if (at < next || at > lines.length) throw new Error(`${change.path}: hunk at line ${h.oldStart} out of order or past the end`);
    out.push(...lines.slice(next, at));
    let i = at;
    for (const l of h.lines) {
      if (l.startsWith('+')) out.push(l.slice(1));
      else {
        if (lines[i] !== l.slice(1)) throw new Error(`${change.path}: line ${i + 1} does not match the diff`);
        if (l.startsWith(' ')) out.push(lines[i]);
        i++;
      }
    }
    next = i;
  }
  out.push(...lines.slice(next));
  return out.join('\n');
}

/** "a/x/y.ts" → "x/y.ts"; "/dev/null" → null; a tab-separated timestamp (diff -u) is cut off. */
function stripPrefix(raw: string): string | null {
  const p = raw.split('\t')[0].trim();
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}
