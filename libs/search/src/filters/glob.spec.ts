import { compileGlob, GlobSyntaxError, MAX_GLOB_ALTERNATIVES } from './glob';

const paths = [
  'ts/src/index.ts',
  'ts/src/main.ts',
  'ts/src/services/invoice-service.ts',
  'ts/src/models/invoice.ts',
  'ts/src/utils/format.ts',
  'py/billing/invoice.py',
  'py/report.py',
  'cs/MyApp/Services/InvoiceService.cs',
  'sql/procedures.sql',
  'README.md',
  'weird/a[1].ts',
  'weird/{x}.ts',
];
const matching = (glob: string) => paths.filter((p) => compileGlob(glob).matches(p));

describe('glob matching', () => {
  it.each([
    ['**/*.ts', ['ts/src/index.ts', 'ts/src/main.ts', 'ts/src/services/invoice-service.ts', 'ts/src/models/invoice.ts', 'ts/src/utils/format.ts', 'weird/a[1].ts', 'weird/{x}.ts']],
    ['ts/src/*.ts', ['ts/src/index.ts', 'ts/src/main.ts']],
    ['ts/**/invoice*.ts', ['ts/src/services/invoice-service.ts', 'ts/src/models/invoice.ts']],
    ['*.py', ['py/billing/invoice.py', 'py/report.py']],
    ['py/*.py', ['py/report.py']],
    ['**', paths],
    ['README.md', ['README.md']],
    ['/README.md', ['README.md']],
    ['./py/report.py', ['py/report.py']],
    ['**/*.{cs,sql}', ['cs/MyApp/Services/InvoiceService.cs', 'sql/procedures.sql']],
    ['{ts,py}/**/invoice.*', ['ts/src/models/invoice.ts', 'py/billing/invoice.py']],
    ['**/[A-Z]*', ['cs/MyApp/Services/InvoiceService.cs', 'README.md']],
    ['**/[!a-z]*', ['cs/MyApp/Services/InvoiceService.cs', 'README.md', 'weird/{x}.ts']],
    ['**/[^a-z]*', ['cs/MyApp/Services/InvoiceService.cs', 'README.md', 'weird/{x}.ts']],
    ['py/report.p?', ['py/report.py']],
    ['weird/a\\[1\\].ts', ['weird/a[1].ts']],
    ['weird/\\{x\\}.ts', ['weird/{x}.ts']],
    ['weird/a[[]1].ts', ['weird/a[1].ts']],
    ['ts/**/**/index.ts', ['ts/src/index.ts']],
    ['ts/src/**', ['ts/src/index.ts', 'ts/src/main.ts', 'ts/src/services/invoice-service.ts', 'ts/src/models/invoice.ts', 'ts/src/utils/format.ts']],
    ['*', paths],
  ])('%s', (glob, expected) => {
    expect(matching(glob)).toEqual(expected);
  });

  it('keeps * and ? inside one path segment', () => {
    expect(compileGlob('ts/*').matches('ts/src/index.ts')).toBe(false);
    expect(compileGlob('ts?src/index.ts').matches('ts/src/index.ts')).toBe(false);
    expect(compileGlob('ts/src/index.ts').matches('ts/src/index.tsx')).toBe(false);
  });

  it('is case-sensitive', () => {
    expect(compileGlob('readme.md').matches('README.md')).toBe(false);
  });

  it('treats regex and Cypher metacharacters as literal characters', () => {
    expect(compileGlob("a.b$(c)|d+'e").matches("a.b$(c)|d+'e")).toBe(true);
    expect(compileGlob('a.b').matches('axb')).toBe(false);
    expect(compileGlob("' ) MATCH (n) DETACH DELETE n //").matches("' ) MATCH (n) DETACH DELETE n //")).toBe(true);
    // The classic injection string has a stray "}": a malformed glob, refused before any query runs.
    expect(() => compileGlob("' }) MATCH (n) DETACH DELETE n //")).toThrow(GlobSyntaxError);
  });

  it('stays fast on patterns that make backtracking regexes explode', () => {
    const glob = compileGlob(`${'*a'.repeat(20)}b`);
    const started = performance.now();
    expect(glob.matches('a'.repeat(200))).toBe(false);
    expect(compileGlob(`${'**/'.repeat(30)}x`).matches(`${'d/'.repeat(60)}y`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('lists the alternatives after brace expansion', () => {
    expect(compileGlob('src/{a,b{c,d}}.ts').alternatives).toEqual(['src/a.ts', 'src/bc.ts', 'src/bd.ts']);
    expect(compileGlob('*.ts').alternatives).toEqual(['**/*.ts']);
  });
});

describe('malformed globs', () => {
  it.each([
    ['', /empty glob/],
    ['src/[abc', /unclosed "\["/],
    ['src/[', /unclosed "\["/],
    ['src/[]', /unclosed "\["/],
    ['src/{a,b', /unclosed "\{"/],
    ['src/a}', /"}" without "\{"/],
    ['src/a\\', /dangling escape/],
    ['src/[z-a].ts', /range "z-a" is reversed/],
    ['src/[a/b].ts', /"\/" inside a character class/],
    ['x'.repeat(301), /longer than 300/],
    ['{a,b}'.repeat(7), new RegExp(`more than ${MAX_GLOB_ALTERNATIVES} alternatives`)],
  ])('%j is refused', (glob, message) => {
    expect(() => compileGlob(glob)).toThrow(GlobSyntaxError);
    expect(() => compileGlob(glob)).toThrow(message);
  });

  it('names the position of the problem', () => {
    expect(() => compileGlob('ab[cd')).toThrow(/at position 3$/);
  });
});
