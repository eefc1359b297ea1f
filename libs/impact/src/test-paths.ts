// Where test code lives, by the conventions of the languages scopegraph reads (pytest, jest/vitest,
// go test, JUnit, RSpec/minitest, PHPUnit, xUnit, Rust's tests/).
const TEST_PATH = [
  // `_tests/`: test packages shipped inside the library they test (trio's `_tests`, `_core/_tests`).
  /(^|\/)(tests?|_tests|__tests__|spec|specs|testing)\//i,
  /\.(spec|test|e2e-spec)\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.(py|go|rb|exs?)$/,
  /_spec\.rb$/,
  /(^|\/)conftest\.py$/,
  /Tests?\.(java|kt|cs|php)$/,
  // Rust: a crate's unit-test module in a file of its own (`#[cfg(test)] mod tests;`), and cargo's benches/.
  /(^|\/)tests\.rs$/,
  /(^|\/)benches\//,
];

export function isTestPath(path: string): boolean {
  return TEST_PATH.some((re) => re.test(path));
}
