import { commonPathWords, filePrior, isTestPath, isToolingPath, isVendoredPath, TOOLING_FACTOR, issueWords, sharedPathWords, TEST_FILE_FACTOR, VENDORED_FACTOR } from './priors';

describe('LOCALIZE file priors', () => {
  it('knows test files of every language the dev set holds', () => {
    for (const p of ['tests/test_api.py', 'src/__tests__/a.ts', 'lib/a.test.js', 'pkg/x_test.go', 'test_requests.py', 'conftest.py', 'src/test/java/com/a/FooTest.java', 'tests/glob.rs', 'src/walk_tests.rs'])
      expect(isTestPath(p)).toBe(true);
    for (const p of ['src/testing_utils.ts', 'requests/sessions.py', 'lib/contest.js', 'src/main/java/com/a/Contest.java', 'src/walk.rs']) expect(isTestPath(p)).toBe(false);
  });

  it('knows vendored copies, but not a monorepo’s own packages', () => {
    for (const p of ['requests/packages/urllib3/connectionpool.py', 'pip/_vendor/rich/text.py', 'vendor/github.com/x/y.go', 'third_party/a.c']) expect(isVendoredPath(p)).toBe(true);
    for (const p of ['packages/core/src/index.ts', 'requests/models.py', 'src/packages.ts']) expect(isVendoredPath(p)).toBe(false);
  });

  it('knows tooling beside the program and counts it less, unless the issue names its path', () => {
    for (const p of ['scripts/preview-theme.js', 'build.rs', 'examples/route_guide/server.go', 'benches/bench.rs', 'docs/conf.py', 'setup.py', 'pkg/docs/gen.go']) expect(isToolingPath(p)).toBe(true);
    for (const p of ['src/scripts.ts', 'src/build.rs.txt', 'lib/example.js', 'src/flask/cli.py', 'src/exec/job.rs', 'mybuild.rs']) expect(isToolingPath(p)).toBe(false);
    expect(filePrior('scripts/preview-theme.js', new Set()).factor).toBe(TOOLING_FACTOR);
    expect(filePrior('src/cards/repo-card.js', new Set()).factor).toBe(1);
    expect(filePrior('scripts/preview-theme.js', issueWords('preview of a theme')).factor).toBeGreaterThan(TOOLING_FACTOR);
  });

  it('counts the path words an issue shares, split and made singular', () => {
    const words = issueWords('Raise error when blueprint name contains a dot; the WakaTime card breaks');
    expect(sharedPathWords('src/flask/blueprints.py', words)).toEqual(['blueprint']);
    expect(sharedPathWords('src/cards/wakatime-card.js', words).sort()).toEqual(['card', 'wakatime']);
    // Words too common to point anywhere do not count ("error", "src").
    expect(sharedPathWords('src/errors.py', words)).toEqual([]);
  });

  it('multiplies the score and says why', () => {
    const words = issueWords('blueprint names with dots');
    expect(filePrior('src/flask/app.py', words)).toEqual({ factor: 1, reasons: [] });
    expect(filePrior('tests/test_app.py', words).factor).toBe(TEST_FILE_FACTOR);
    expect(filePrior('requests/packages/urllib3/x.py', words).factor).toBe(VENDORED_FACTOR);
    const boosted = filePrior('src/flask/blueprints.py', words);
    expect(boosted.factor).toBeGreaterThan(1);
    expect(boosted.reasons[0]).toContain('blueprint');
  });

  it('a word in most of the repository’s paths (its package directory) does not count', () => {
    const files = ['requests/models.py', 'requests/utils.py', 'requests/sessions.py', 'docs/conf.py'].map((path) => ({ path }));
    const common = commonPathWords(files);
    expect(common.has('request')).toBe(true);
    const words = issueWords('Requesting a JSON document with iter_content returns bytes; the session model', common);
    expect(sharedPathWords('requests/utils.py', words)).toEqual([]);
    expect(sharedPathWords('requests/sessions.py', words)).toEqual(['session']);
  });
});
