import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ParserService } from '../parse/parser.service';
import type { ParsedFile } from '../parse/types';
import { resolveRepository } from '../resolve/resolver';
import type { ResolveResult } from '../resolve/types';
import { decodeScipIndex, parseScipSymbol, readScipIndex, ScipDecodeError, ScipResolution, symbolOrigin } from '.';
import { copyToTemp, runScipPython, runScipTypescript } from './testing/indexers';

// Real indexers on the polyglot fixture take a few seconds each on this machine.
jest.setTimeout(120_000);

const FIXTURE = join(__dirname, '../../../../test/fixtures/polyglot-repo');
const parser = new ParserService();
const key = (e: { type: string; fromId: string; toId: string }) => `${e.type} ${e.fromId} -> ${e.toId}`;

function parseTree(root: string, under: RegExp): ParsedFile[] {
  const list = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(d, e.name)) : [join(d, e.name)]));
  return list(root).map((f) => relative(root, f).split('\\').join('/')).filter((p) => under.test(p) && parser.supports(p)).sort()
    .map((p) => parser.parseFile(p, readFileSync(join(root, p), 'utf8')));
}

beforeAll(() => parser.init());

describe('SCIP symbols', () => {
  it('parses packages and descriptors, escaped names included', () => {
    const p = parseScipSymbol('scip-typescript npm typescript 5.9.3 lib/`lib.dom.d.ts`/ReadableStream#getReader().')!;
    expect(p).toMatchObject({ local: false, manager: 'npm', name: 'typescript', version: '5.9.3' });
    expect(p.descriptors.map((d) => `${d.name}:${d.suffix}`)).toEqual(['lib:namespace', 'lib.dom.d.ts:namespace', 'ReadableStream:type', 'getReader:method']);
    expect(symbolOrigin(p)).toBe('typescript lib.dom.d.ts');
    expect(parseScipSymbol('local 12')!.local).toBe(true);
    expect(parseScipSymbol('scip-python python pg 0.1 `billing.invoice`/Invoice#__init__().(self)')!.descriptors.map((d) => d.suffix)).toEqual(['namespace', 'type', 'method', 'parameter']);
    expect(parseScipSymbol('broken')).toBeNull();
  });
});

describe('SCIP from the real indexers (scip-typescript, scip-python) on the polyglot fixture', () => {
  let root: string;
  let files: ParsedFile[];
  let ts: ScipResolution;
  let py: ScipResolution;
  let fast: ResolveResult;
  let withTs: ResolveResult;
  let withPy: ResolveResult;

  beforeAll(() => {
    root = copyToTemp(FIXTURE);
    files = parseTree(root, /^(ts|py)\//);
    // Each indexer runs in its own folder: document paths are relative to it (the prefix is found from the project root).
    ts = new ScipResolution(readScipIndex(runScipTypescript(join(root, 'ts'))), files, root);
    py = new ScipResolution(readScipIndex(runScipPython(join(root, 'py'))), files, root);
    fast = resolveRepository(files);
    withTs = resolveRepository(files, { scip: ts });
    withPy = resolveRepository(files, { scip: py });
  });

  it('maps every document of both indexes to the fixture files', () => {
    expect(ts.stats).toMatchObject({ pathPrefix: 'ts', documents: 13, used: 13, stale: 0, unknown: 0, outOfRange: 0 });
    expect(py.stats).toMatchObject({ pathPrefix: 'py', documents: 5, used: 5, stale: 0, unknown: 0, outOfRange: 0 });
    expect(ts.stats.tool).toMatch(/^scip-typescript /);
  });

  it('answers references with the definitions of their occurrences, marked scip', () => {
    const edges = new Map(withTs.edges.map((e) => [key(e), e]));
    // A call through an interface-typed field the name-based resolver cannot pin: the checker behind SCIP can.
    const through = 'CALLS ts/src/tracker.ts#Tracker.run|method -> ts/src/reactions.ts#Reaction.track|method';
    expect(fast.edges.map(key)).not.toContain(through);
    expect(edges.get(through)?.resolver).toBe('scip');
    // `new InvoiceService()` stays a call of the class (the graph's convention), now from SCIP.
    expect(edges.get('CALLS ts/src/main.ts#main|function -> ts/src/services/invoice-service.ts#InvoiceService|class')?.resolver).toBe('scip');
    expect(withPy.edges.find((e) => key(e) === 'EXTENDS py/billing/invoice.py#Invoice|class -> py/billing/base.py#Document|class')?.resolver).toBe('scip');
  });

  it('adds IMPLEMENTS and OVERRIDES from implementation relationships', () => {
    const scip = withTs.edges.filter((e) => e.resolver === 'scip').map(key);
    expect(scip).toEqual(expect.arrayContaining([
      'IMPLEMENTS ts/src/models/invoice.ts#Invoice|class -> ts/src/models/auditable.ts#Auditable|interface',
      'OVERRIDES ts/src/models/invoice.ts#Invoice.describe|method -> ts/src/models/base-entity.ts#BaseEntity.describe|method',
    ]));
    expect(withPy.edges.filter((e) => e.resolver === 'scip').map(key)).toContain('OVERRIDES py/billing/invoice.py#Invoice.render|method -> py/billing/base.py#Document.render|method');
  });

  it('says which package an external name comes from, and calls through parameters dynamic', () => {
    const miss = (r: ResolveResult, from: string, name: string) => r.unresolved.find((u) => u.fromId === from && u.targetName === name);
    expect(miss(withPy, 'py/report.py#main|function', 'print')).toMatchObject({ reason: 'external', origin: 'python-stdlib', resolver: 'scip' });
    expect(miss(withTs, 'ts/src/utils/format.ts#formatMoney|function', 'amount.toFixed')).toMatchObject({ reason: 'external', origin: 'typescript lib.es5.d.ts' });
    // `test(value)` where `test` is a parameter of function type.
    expect(miss(withTs, 'ts/src/utils/predicates.ts#createPredicate|function', 'test')).toMatchObject({ reason: 'dynamic', resolver: 'scip' });
  });

  it('leaves references of files the index does not cover to the name-based resolver', () => {
    const pyRefs = (r: ResolveResult) => r.edges.filter((e) => e.fromId.startsWith('py/') && e.type !== 'IMPORTS');
    expect(pyRefs(withTs).map(key).sort()).toEqual(pyRefs(fast).map(key).sort());
    expect(pyRefs(withTs).every((e) => e.resolver === 'fast')).toBe(true);
  });
});

describe('SCIP index errors (hand-made indexes)', () => {
  // The binding the reader decodes with also encodes: hand-made indexes are built with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { scip } = require('@sourcegraph/scip-typescript/dist/src/scip');
  const SYM = (name: string) => `scip-typescript npm fixture 1 src/\`a.ts\`/${name}`;
  const A = 'export function helper(): number {\n  return 1;\n}\nexport function main(): number {\n  return helper();\n}\n';
  let root: string;
  let files: ParsedFile[];

  const doc = (relative_path: string, occurrences: { range: number[]; symbol: string; symbol_roles: number }[], text = '') =>
    new scip.Document({ relative_path, language: 'typescript', text, occurrences: occurrences.map((o) => new scip.Occurrence(o)), symbols: [] });
  const good = (p = 'src/a.ts') => doc(p, [
    { range: [0, 16, 22], symbol: SYM('helper().'), symbol_roles: 1 },
    { range: [3, 16, 20], symbol: SYM('main().'), symbol_roles: 1 },
    { range: [4, 9, 15], symbol: SYM('helper().'), symbol_roles: 8 },
  ]);
  const encode = (documents: unknown[]) => new scip.Index({
    metadata: new scip.Metadata({ project_root: `file://${root}`, tool_info: new scip.ToolInfo({ name: 'hand-made', version: '1' }) }),
    documents,
  }).serializeBinary();

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'scopegraph-scip-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.ts'), A);
    files = parseTree(root, /^src\//);
  });

  it('uses a document that matches its file', () => {
    const s = new ScipResolution(decodeScipIndex(encode([good()])), files, root);
    expect(s.stats).toMatchObject({ used: 1, stale: 0, unknown: 0, outOfRange: 0 });
    const r = resolveRepository(files, { scip: s });
    expect(r.edges.find((e) => e.type === 'CALLS')).toMatchObject({ fromId: 'src/a.ts#main|function', toId: 'src/a.ts#helper|function', resolver: 'scip' });
  });

  it('ignores and counts a stale document (embedded text differs from the file)', () => {
    const stale = good();
    stale.text = A.replace('return 1', 'return 2');
    const s = new ScipResolution(decodeScipIndex(encode([stale])), files, root);
    expect(s.stats).toMatchObject({ used: 0, stale: 1, stalePaths: ['src/a.ts'] });
    expect(resolveRepository(files, { scip: s }).edges.every((e) => e.resolver !== 'scip')).toBe(true);
  });

  it('ignores and counts a stale document without text (definitions no longer on their names)', () => {
    const moved = doc('src/a.ts', [
      { range: [3, 16, 22], symbol: SYM('helper().'), symbol_roles: 1 },
      { range: [0, 16, 20], symbol: SYM('main().'), symbol_roles: 1 },
    ]);
    const s = new ScipResolution(decodeScipIndex(encode([moved])), files, root);
    expect(s.stats).toMatchObject({ used: 0, stale: 1 });
  });

  it('ignores and counts documents of unknown files, and occurrences outside their file', () => {
    const outside = good();
    outside.occurrences = [...outside.occurrences, new scip.Occurrence({ range: [40, 0, 3], symbol: SYM('helper().'), symbol_roles: 8 }), new scip.Occurrence({ range: [0, 0, 500], symbol: SYM('helper().'), symbol_roles: 8 })];
    const s = new ScipResolution(decodeScipIndex(encode([outside, good('src/gone.ts')])), files, root);
    expect(s.stats).toMatchObject({ documents: 2, used: 1, unknown: 1, unknownPaths: ['src/gone.ts'], outOfRange: 2 });
  });

  it('makes OVERRIDES only along the index\'s type heritage, and maps an implicit constructor to its type', () => {
    const B = 'export class A {\n  m(): void {}\n}\nexport class B extends A {\n  m(): void {}\n}\nexport function make(): A {\n  return new B();\n}\n';
    writeFileSync(join(root, 'src/b.ts'), B);
    const mine = [...files, parser.parseFile('src/b.ts', B)];
    const S = (name: string) => `scip-java maven fixture 1 src/\`b.ts\`/${name}`;
    const rel = (symbol: string, to: string) => new scip.SymbolInformation({ symbol, relationships: [new scip.Relationship({ symbol: to, is_implementation: true })] });
    const d = new scip.Document({
      relative_path: 'src/b.ts', language: 'java', text: '',
      occurrences: [
        new scip.Occurrence({ range: [0, 13, 14], symbol: S('A#'), symbol_roles: 1 }),
        new scip.Occurrence({ range: [1, 2, 3], symbol: S('A#m().'), symbol_roles: 1 }),
        new scip.Occurrence({ range: [3, 13, 14], symbol: S('B#'), symbol_roles: 1 }),
        new scip.Occurrence({ range: [4, 2, 3], symbol: S('B#m().'), symbol_roles: 1 }),
        new scip.Occurrence({ range: [6, 16, 20], symbol: S('make().'), symbol_roles: 1 }),
        // `new B()`: B has no constructor of its own.
        new scip.Occurrence({ range: [7, 13, 14], symbol: S('B#`<init>`().'), symbol_roles: 8 }),
      ],
      // Indexers for navigation also list the reverse (the base's member "implemented by" the override).
      symbols: [rel(S('B#'), S('A#')), rel(S('B#m().'), S('A#m().')), rel(S('A#m().'), S('B#m().'))],
    });
    const s = new ScipResolution(decodeScipIndex(encode([d])), mine, root);
    expect(s.heritage().map((h) => `${h.type} ${h.fromId} -> ${h.toId}`)).toEqual([
      'EXTENDS src/b.ts#B|class -> src/b.ts#A|class',
      'OVERRIDES src/b.ts#B.m|method -> src/b.ts#A.m|method',
    ]);
    const r = resolveRepository(mine, { scip: s });
    expect(r.edges.find((e) => e.type === 'CALLS' && e.fromId === 'src/b.ts#make|function')).toMatchObject({ toId: 'src/b.ts#B|class', resolver: 'scip' });
  });

  it('refuses bytes that are not a SCIP index', () => {
    expect(() => decodeScipIndex(Buffer.from('{"not": "scip"}'))).toThrow(ScipDecodeError);
    expect(() => decodeScipIndex(new Uint8Array(0))).toThrow(/not a SCIP index/);
  });
});
