import { cleanPath, extractSignals, looksLikeIssue, SIGNAL_LIMITS, withoutHtmlComments } from './signals';
import { RepoPathIndex } from './paths';

const frames = (text: string) => extractSignals(text).frames.map((f) => [f.path, f.line, f.function, f.language, f.depth]);

describe('stack frames, one trace format at a time (nearest the error first)', () => {
  it('Python traceback: innermost frame printed last comes first', () => {
    const text = [
      'Traceback (most recent call last):',
      '  File "/home/u/app.py", line 3, in <module>',
      '    requests.get(url)',
      '  File "/usr/lib/python3.9/site-packages/requests/sessions.py", line 456, in request',
      '    resp = self.send(prep, **send_kwargs)',
      '  File "/usr/lib/python3.9/site-packages/requests/adapters.py", line 330, in send',
      'requests.exceptions.ConnectionError: Max retries exceeded with url',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['/usr/lib/python3.9/site-packages/requests/adapters.py', 330, 'send', 'python', 0],
      ['/usr/lib/python3.9/site-packages/requests/sessions.py', 456, 'request', 'python', 1],
      ['/home/u/app.py', 3, null, 'python', 2],
    ]);
    const s = extractSignals(text);
    expect(s.identifiers).toContain('ConnectionError');
    expect(s.strings).toContain('Max retries exceeded with url');
  });

  it('pytest output: "path:line: in function" and the failing line', () => {
    const text = [
      '___________________________ test_merge ___________________________',
      'src/pkg/core.py:120: in merge',
      '    return _combine(a, b)',
      'src/pkg/_helpers.py:45: in _combine',
      '    raise ValueError("cannot combine")',
      'E   ValueError: cannot combine',
      'src/pkg/_helpers.py:45: ValueError',
    ].join('\n');
    expect(frames(text).slice(0, 2)).toEqual([
      ['src/pkg/_helpers.py', 45, null, 'pytest', 0],
      ['src/pkg/_helpers.py', 45, '_combine', 'pytest', 1],
    ]);
    expect(frames(text)).toContainEqual(['src/pkg/core.py', 120, 'merge', 'pytest', 2]);
  });

  it('Node / V8 stack: named, anonymous, async and file:// frames', () => {
    const text = [
      'TypeError: Cannot read properties of undefined (reading \'map\')',
      '    at renderList (/app/src/list.ts:12:18)',
      '    at async Server.handle (file:///app/src/server.mjs:40:5)',
      '    at /app/node_modules/express/lib/router/layer.js:95:5',
      '    at new Parser (webpack:///./src/parser.js:7:11)',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['/app/src/list.ts', 12, 'renderList', 'javascript', 0],
      ['/app/src/server.mjs', 40, 'Server.handle', 'javascript', 1],
      ['/app/node_modules/express/lib/router/layer.js', 95, null, 'javascript', 2],
      ['src/parser.js', 7, 'Parser', 'javascript', 3],
    ]);
    expect(extractSignals(text).strings).toContain("Cannot read properties of undefined (reading 'map')");
  });

  it('Firefox stack: function@url:line:column', () => {
    expect(frames('render@http://localhost:3000/static/js/app.js:10:5\n@http://localhost:3000/static/js/main.js:2:1')).toEqual([
      ['/static/js/app.js', 10, 'render', 'javascript', 0],
      ['/static/js/main.js', 2, null, 'javascript', 1],
    ]);
  });

  it('Java: frames with file and line, native frames, Caused by', () => {
    const text = [
      'Exception in thread "main" java.lang.IllegalStateException: pool closed',
      '\tat com.acme.pool.Pool.borrow(Pool.java:88)',
      '\tat com.acme.App.main(App.java:12)',
      '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['Pool.java', 88, 'com.acme.pool.Pool.borrow', 'java', 0],
      ['App.java', 12, 'com.acme.App.main', 'java', 1],
      [null, null, 'java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0', 'java', 2],
    ]);
    expect(extractSignals(text).strings).toContain('pool closed');
  });

  it('Go panic: function line then file line', () => {
    const text = [
      'panic: runtime error: invalid memory address or nil pointer dereference',
      'goroutine 1 [running]:',
      'example.com/kv/store.(*MemoryStore).Save(0x0, {0x4b2f1a, 0x1})',
      '\t/src/kv/store/memory.go:7 +0x1d',
      'main.main()',
      '\t/src/kv/cmd/main.go:6 +0x2a',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['/src/kv/store/memory.go', 7, 'example.com/kv/store.MemoryStore.Save', 'go', 0],
      ['/src/kv/cmd/main.go', 6, 'main.main', 'go', 1],
    ]);
  });

  it('Rust: the panic location and backtrace frames', () => {
    const text = [
      "thread 'main' panicked at src/parse.rs:42:9:",
      'index out of bounds',
      'stack backtrace:',
      '   0: shapes::parse::read_header',
      '             at ./src/parse.rs:42:9',
      '   1: shapes::main',
      '             at ./src/main.rs:5:5',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['src/parse.rs', 42, null, 'rust', 0],
      ['./src/parse.rs', 42, 'shapes::parse::read_header', 'rust', 1],
      ['./src/main.rs', 5, 'shapes::main', 'rust', 2],
    ]);
  });

  it('C#: "at Ns.Class.Method(args) in path:line N"', () => {
    const text = [
      'System.NullReferenceException: Object reference not set to an instance of an object.',
      '   at Acme.Billing.InvoiceService.Create(Order order) in C:\\src\\Billing\\InvoiceService.cs:line 42',
      '   at Acme.Program.Main(String[] args) in C:\\src\\Program.cs:line 10',
    ].join('\n');
    expect(frames(text)).toEqual([
      ['/src/Billing/InvoiceService.cs', 42, 'Acme.Billing.InvoiceService.Create', 'csharp', 0],
      ['/src/Program.cs', 10, 'Acme.Program.Main', 'csharp', 1],
    ]);
  });
});

describe('identifiers, strings, code and paths', () => {
  const issue = [
    'Session.request drops the `timeout` when `merge_environment_settings()` is called',
    '',
    'When I call `requests.Session().request("GET", url)` behind a proxy, the timeout I pass is ignored.',
    'Looking at requests/sessions.py the mergeSettings helper seems to overwrite it.',
    'The log says "timeout was reset to default value" every time.',
    '',
    '```python',
    'import requests',
    's = requests.Session()',
    's.request("GET", "http://x", timeout=3)',
    '```',
  ].join('\n');

  it('names that look like code, strongest first; plain English words are not names', () => {
    const s = extractSignals(issue);
    expect(s.identifiers).toEqual(expect.arrayContaining(['Session.request', 'merge_environment_settings', 'mergeSettings']));
    expect(s.identifiers.indexOf('merge_environment_settings')).toBeLessThan(s.identifiers.indexOf('mergeSettings'));
    expect(s.identifiers).not.toContain('timeout was reset');
    expect(s.identifiers).not.toContain('Looking');
  });

  it('quoted messages, code spans, file paths, title and prose without the code', () => {
    const s = extractSignals(issue);
    expect(s.strings).toContain('timeout was reset to default value');
    expect(s.codeSpans).toContain('merge_environment_settings()');
    expect(s.codeSpans.some((c) => c.includes('s.request("GET", "http://x", timeout=3)'))).toBe(true);
    expect(s.paths).toContain('requests/sessions.py');
    expect(s.title).toBe('Session.request drops the `timeout` when `merge_environment_settings()` is called');
    expect(s.prose).toContain('behind a proxy');
    expect(s.prose).not.toContain('import requests');
  });

  it('a printed log or error line gives its message (without the prefix); an apostrophe is not a quote', () => {
    const s = extractSignals(
      [
        "fd doesn't work when the cwd is gone, it's 'really odd' here",
        '```sh',
        '[fd error]: Could not retrieve current directory (has it been deleted?).',
        "Error: Cannot find module 'foo/bar' from the loader",
        '```',
      ].join('\n'),
    );
    expect(s.strings).toContain('Could not retrieve current directory (has it been deleted?).');
    // The message up to the first printed value is searched too.
    expect(s.strings).toContain('Cannot find module');
    expect(s.strings).toContain('really odd');
    expect(s.strings.some((x) => x.startsWith('t work'))).toBe(false);
  });

  it('a file URL or Windows path reads as a repository-style path', () => {
    expect(cleanPath('file:///app/src/a.ts')).toBe('/app/src/a.ts');
    expect(cleanPath('C:\\src\\A.cs')).toBe('/src/A.cs');
  });
});

describe('limits: any input, bounded signals, truncation said', () => {
  it('a 200-frame traceback keeps the frames nearest the error and says so', () => {
    const lines = ['Traceback (most recent call last):'];
    for (let i = 0; i < 200; i++) lines.push(`  File "/x/pkg/mod${i}.py", line ${i + 1}, in f${i}`, `    f${i + 1}()`);
    lines.push('RecursionError: maximum recursion depth exceeded');
    const s = extractSignals(lines.join('\n'));
    expect(s.frames).toHaveLength(SIGNAL_LIMITS.frames);
    expect(s.frames[0]).toMatchObject({ path: '/x/pkg/mod199.py', depth: 0 });
    expect(s.truncated.join(' ')).toMatch(/200 stack frames, the 60 nearest the error kept/);
  });

  it('a 20 KB log is cut to its limits, the text and the log lines counted', () => {
    const log = Array.from({ length: 400 }, (_, i) => `2024-05-01 10:00:${String(i % 60).padStart(2, '0')} ERROR worker_${i} failed: "connection reset by peer" in handle_job_${i}`).join('\n');
    expect(log.length).toBeGreaterThan(20_000);
    const s = extractSignals(`Workers keep failing\n${log}\n${log}`);
    expect(s.identifiers.length).toBeLessThanOrEqual(SIGNAL_LIMITS.identifiers);
    expect(s.strings.length).toBeLessThanOrEqual(SIGNAL_LIMITS.strings);
    expect(s.prose.length).toBeLessThanOrEqual(SIGNAL_LIMITS.proseChars);
    expect(s.truncated.join(' ')).toMatch(/text cut from \d+ to 40000 characters/);
  });

  it('recognises an issue (trace, code block, long report) but not a query', () => {
    expect(looksLikeIssue('where do we parse the config file').issue).toBe(false);
    expect(looksLikeIssue('Traceback (most recent call last):\n  File "a.py", line 1, in f\n  File "b.py", line 2, in g\nKeyError: 1').issue).toBe(true);
    expect(looksLikeIssue('Bug in merge\nrepro:\n```py\nmerge(a, b)\n```').issue).toBe(true);
  });
});

describe('printed paths -> repository files', () => {
  const index = new RepoPathIndex([
    { repoId: 'r', path: 'src/requests/sessions.py' },
    { repoId: 'r', path: 'src/requests/__init__.py' },
    { repoId: 'r', path: 'src/requests/parse.py' },
    { repoId: 'r', path: 'tests/__init__.py' },
  ]);
  it('by common trailing segments: site-packages, relative, bare names', () => {
    expect(index.match('/usr/lib/python3.9/site-packages/requests/sessions.py')?.path).toBe('src/requests/sessions.py');
    expect(index.match('sessions.py')?.path).toBe('src/requests/sessions.py');
    expect(index.match('requests/__init__.py')?.path).toBe('src/requests/__init__.py');
  });
  it('not by one shared segment of someone else\'s file, nor a generic name that ties', () => {
    expect(index.match('/usr/lib/python3.9/urllib/parse.py')).toBeNull();
    expect(index.match('__init__.py')).toBeNull();
    expect(index.match('missing.py')).toBeNull();
  });
});

describe('lines of code quoted from the repository', () => {
  it('a prose line that reads as code and the lines of a fenced block; not sentences or imports', () => {
    const s = extractSignals('method = builtin_str(method) problem\nIn requests/sessions.py is a command:\n\nmethod = builtin_str(method)\nConverts method from bytes.\n```python\nimport requests\nr = requests.get(url, timeout=3)\n```');
    expect(s.codeLines).toEqual(expect.arrayContaining(['method = builtin_str(method)', 'r = requests.get(url, timeout=3)']));
    expect(s.codeLines.join('\n')).not.toMatch(/import requests|Converts method|is a command/);
  });
});

describe("an issue template's HTML comments", () => {
  const templated = [
    'Bug: word wrapping',
    'Non-english characters go outside the `renderRepoCard` card.',
    '<!--',
    'PLEASE READ THE FAQs!!!',
    'Q: How to count private stats? `fetchStats` reads `include_all_commits`.',
    '-->',
    'Long repo names overflow too.',
    '<!-- an unclosed comment runs to the end `countPrivate`',
  ].join('\n');

  it('are left out of the text, an unclosed one to the end', () => {
    const text = withoutHtmlComments(templated);
    expect(text).toMatch(/renderRepoCard/);
    expect(text).toMatch(/Long repo names overflow too\./);
    expect(text).not.toMatch(/FAQs|fetchStats|countPrivate/);
    expect(withoutHtmlComments('no comment here')).toBe('no comment here');
  });

  it('give the signals no names, usage terms or prose', () => {
    const s = extractSignals(templated);
    expect(s.identifiers).toContain('renderRepoCard');
    expect(s.identifiers).not.toEqual(expect.arrayContaining(['fetchStats']));
    expect(s.identifiers.some((i) => /fetchStats|include_all_commits|countPrivate/.test(i))).toBe(false);
    expect(s.prose).not.toMatch(/FAQs|private/);
  });
});
