/**
 * Where a fix lands, before any signal: priors on a candidate's file, applied to LOCALIZE's fused
 * score. Each was measured on the whole dev set (bench/localize/README.md, "Changes and their
 * effect"), never on one repository.
 *
 * - Tests: a fix changes the code, not its tests (SWE-bench's gold patches hold no test file).
 * - Vendored copies of other projects (`vendor/`, `third_party/`, Python's `<package>/packages/`):
 *   an issue is fixed in the project's own code, not in a dependency it carries.
 * - Tooling beside the program (`scripts/`, `examples/`, `benches/`, `docs/`, Rust's `build.rs`,
 *   `setup.py`): an issue about the program is fixed in the program; such files share its words
 *   (a theme preview script, an example) without being where it breaks.
 * - Path words: an issue names what it is about ("blueprint", "wakatime card", "glob"), and projects
 *   name their files after the same things; a file whose path shares words with the issue is where
 *   the engineer looks first.
 */

/** A test scope's score is multiplied by this. */
export const TEST_FILE_FACTOR = 0.25;
/** A vendored scope's score is multiplied by this. */
export const VENDORED_FACTOR = 0.5;
/** A tooling scope's score is multiplied by this (as vendored code's). */
export const TOOLING_FACTOR = 0.5;
/** Per path word the issue shares (at most PATH_WORDS_MAX count), the score grows by this share. */
export const PATH_WORD_BOOST = 0.4;
const PATH_WORDS_MAX = 2;

const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec|specs|testing|testdata|test-utils)\/|(?:^|\/)test_[^/]*\.py$|_tests?\.(?:py|go|rs)$|\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|\/)conftest\.py$|(?:^|\/)src\/test\/|Tests?\.java$/;
/**
 * Vendored code. Python projects vendor under `<package>/packages/` (requests) or `_vendor/` (pip),
 * while JavaScript monorepos keep their own code under a top-level `packages/`: only a `packages/`
 * below the root of a Python file counts.
 */
const VENDORED_PATH = /(?:^|\/)(?:vendor|vendored|_vendor|third_party|thirdparty|node_modules|bower_components)\//;
const PY_VENDORED_PATH = /^[^/]+\/(?:.+\/)?packages\/.+\.py$/;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/**
 * A test written inside a source file: Rust's `#[cfg(test)] mod tests` (qualified `tests.is_within`),
 * a `test_*` function, the members of a Java/C# `*Test` class. Not a `Test*` class: libraries ship
 * those for their users (`TestResponse`, `TestClient`).
 */
const TEST_SCOPE = /(?:^|\.)(?:tests?|[A-Z]\w*Tests?)\.|(?:^|\.)test_\w+$/;

export function isTestScope(qualifiedName: string): boolean {
  return TEST_SCOPE.test(qualifiedName);
}

export function isVendoredPath(path: string): boolean {
  return VENDORED_PATH.test(path) || PY_VENDORED_PATH.test(path);
}

/** Words too common in issues or paths to point at a file. */
const STOP_WORDS = new Set(
  'the and for with this that from when have been into only than then them they what which while would should could there their about after before other some such more most also just like does not are was were will can use used using file files function functions method methods class code error errors issue issues return returns value values type types data test tests make makes new get set src lib main index util utils source core common internal impl base'.split(
    ' ',
  ),
);
const MIN_WORD = 4;

/**
 * The words of camelCase, snake_case, kebab-case and dotted tokens, lower-cased, crudely singular;
 * a camelCase token counts whole too (`WakaTime` is the file `wakatime-card.js`).
 */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  const push = (word: string) => {
    const w = singular(word.toLowerCase());
    if (w.length >= MIN_WORD && !STOP_WORDS.has(w)) out.push(w);
  };
  for (const token of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    const parts = token.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
    for (const part of parts) push(part);
    if (parts.length > 1) push(token);
  }
  return out;
}

function singular(w: string): string {
  return w.replace(/(?:ies|es|s)$/, '');
}

/** A path word in at least this share of a repository's files says nothing about one of them. */
const COMMON_PATH_SHARE = 0.3;
const commonWordsMemo = new WeakMap<readonly { path: string }[], Set<string>>();

/**
 * Path words too common in the repository to point at a file: the package directory every file sits
 * in (`requests/...`: an issue about "requesting" is not about every file). Memoised per file list.
 */
export function commonPathWords(files: readonly { path: string }[]): Set<string> {
  const memo = commonWordsMemo.get(files);
  if (memo) return memo;
  const counts = new Map<string, number>();
  for (const f of files) for (const w of new Set(wordsOf(f.path.replace(/\.[^./]+$/, '')))) counts.set(w, (counts.get(w) ?? 0) + 1);
  const common = new Set([...counts].filter(([, n]) => files.length > 0 && n >= COMMON_PATH_SHARE * files.length).map(([w]) => w));
  commonWordsMemo.set(files, common);
  return common;
}

/** The words of an issue that a path may share (computed once per issue), less the repository's common path words. */
export function issueWords(text: string, common: ReadonlySet<string> = new Set()): Set<string> {
  return new Set(wordsOf(text).filter((w) => !common.has(w)));
}

/** Path words the issue shares: the file's directories and name, split into words. */
export function sharedPathWords(path: string, words: ReadonlySet<string>): string[] {
  return [...new Set(wordsOf(path.replace(/\.[^./]+$/, '')))].filter((w) => words.has(w));
}

const TOOLING_PATH = /(?:^|\/)(?:examples?|benches|benchmarks?|scripts|docs?)\/|(?:^|\/)(?:build\.rs|setup\.py)$/;

/** Build scripts, examples, benchmarks and docs: code beside the program rather than the program. */
export function isToolingPath(path: string): boolean {
  return TOOLING_PATH.test(path);
}

/** The factor on a candidate's fused score from its file, and why (for the hit's evidence). */
export function filePrior(path: string, words: ReadonlySet<string>, qualifiedName = ''): { factor: number; reasons: string[] } {
  let factor = 1;
  const reasons: string[] = [];
  if (isTestPath(path)) {
    factor *= TEST_FILE_FACTOR;
    reasons.push(`a test file (x${TEST_FILE_FACTOR})`);
  } else if (isTestScope(qualifiedName)) {
    factor *= TEST_FILE_FACTOR;
    reasons.push(`a test inside a source file (x${TEST_FILE_FACTOR})`);
  } else if (isVendoredPath(path)) {
    factor *= VENDORED_FACTOR;
    reasons.push(`vendored code (x${VENDORED_FACTOR})`);
  } else if (isToolingPath(path)) {
    factor *= TOOLING_FACTOR;
    reasons.push(`a script, example, benchmark or doc beside the program (x${TOOLING_FACTOR})`);
  }
  const shared = sharedPathWords(path, words);
  if (shared.length > 0) {
    const boost = 1 + PATH_WORD_BOOST * Math.min(shared.length, PATH_WORDS_MAX);
    factor *= boost;
    reasons.push(`its path shares ${shared.slice(0, 3).join(', ')} with the issue (x${Math.round(boost * 100) / 100})`);
  }
  return { factor, reasons };
}
