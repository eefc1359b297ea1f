import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { PackedBindings } from '../parse/packed-bindings';
import type { ParsedFile, ParsedScope, TypedBinding } from '../parse/types';
import { keepForEdges } from './edges';
import { fromView, toView } from './parse-cache';
import { IndexRecorder, pack, SymbolIndex, unpack, writeIndex } from './symbol-index';

function scope(file: string, name: string, parentId: string | null, kind: ParsedScope['kind'] = 'function'): ParsedScope {
  return {
    id: `${file}#${name}`, name, qualifiedName: name, kind, language: 'python', path: file, startLine: 1, endLine: 2,
    signature: '', docComment: null, source: '', contentHash: '', nameTokens: '', parentId,
  };
}

function file(p: string, hash: string, names: string[]): ParsedFile {
  const root = scope(p, '<file>', null, 'file');
  return {
    path: p, language: 'python', contentHash: hash, errors: [], exports: [], bindings: [],
    scopes: [root, ...names.map((n) => scope(p, n, root.id))],
    imports: [{ specifier: 'x', fromPath: p, line: 1, names: [{ imported: 'a', local: 'a' }], isNamespace: false }] as ParsedFile['imports'],
    references: [{ fromId: `${p}#${names[0]}`, kind: 'EXTENDS', targetName: 'Base', line: 1 }] as ParsedFile['references'],
  };
}

describe('SymbolIndex', () => {
  let dir: string;
  let at: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-symidx-'));
    at = SymbolIndex.fileFor(dir, 'p', 'repo');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const files = () => [file('a.py', 'ha', ['f', 'g']), file('b.py', 'hb', ['h']), file('c.py', 'hc', ['k'])];
  /** A run's recording as the parse phase makes it: every file added as taken, `changed` ones fresh. */
  const record = (read: SymbolIndex, all: ParsedFile[], changed: ParsedFile[]) => {
    const recorder = IndexRecorder.start(at, 'repo', read);
    for (const f of all) recorder.add(f, changed.includes(f));
    return recorder.finish(all, changed);
  };

  it('hands out a view only for the hash it was parsed from, each once, as the parse cache would', async () => {
    await writeIndex(at, 'repo', files());
    const index = await SymbolIndex.load(at, 'repo');
    expect(index.size).toBe(3);
    expect(asRows(index.take('a.py', 'ha'))).toEqual(fromView(toView(files()[0])));
    expect(index.take('a.py', 'ha')).toBeUndefined();
    expect(index.take('b.py', 'stale')).toBeUndefined();
    expect(index.take('zzz.py', 'h')).toBeUndefined();
    expect({ hits: index.hits, misses: index.misses }).toEqual({ hits: 1, misses: 3 });
  });

  it('is patched by appending the changed files when it served all the others; later entries win', async () => {
    await writeIndex(at, 'repo', files());
    const run = await SymbolIndex.load(at, 'repo');
    run.take('a.py', 'ha');
    run.take('c.py', 'hc');
    const b2 = file('b.py', 'hb2', ['h', 'added']);
    const size = fs.statSync(at).size;
    const all = [files()[0], b2, files()[2]];
    expect(record(run, all, [b2])).toBe('appended');
    expect(fs.statSync(at).size).toBeGreaterThan(size);
    const next = await SymbolIndex.load(at, 'repo');
    expect(next.take('b.py', 'hb')).toBeUndefined();
    expect(next.take('b.py', 'hb2')?.scopes.map((s) => s.name)).toEqual(['<file>', 'h', 'added']);
    expect(next.take('a.py', 'ha')?.references).toEqual(files()[0].references);
  });

  it('is written anew when some unchanged file was not served by it, or appends pile up', async () => {
    await writeIndex(at, 'repo', files());
    const partial = await SymbolIndex.load(at, 'repo');
    partial.take('a.py', 'ha');
    const b2 = file('b.py', 'hb2', ['h']);
    // c.py came from elsewhere (Redis): appending b.py would leave c.py's view as the index had it.
    const all = [files()[0], b2, files()[2]];
    expect(record(partial, all, [b2])).toBe('written');

    // 3 files; appending the same file again and again: written anew once entries pass 1.25 × files + 64.
    const outcomes: string[] = [];
    for (let i = 0; i < 70; i++) {
      const run = await SymbolIndex.load(at, 'repo');
      run.take('a.py', 'ha');
      run.take('c.py', 'hc');
      const b = file('b.py', `hb-${i}`, ['h']);
      run.take('b.py', `hb-${i - 1}`);
      const all = [files()[0], b, files()[2]];
      outcomes.push(record(run, all, [b]));
    }
    expect(outcomes.filter((o) => o === 'written')).toHaveLength(1);
    expect((await SymbolIndex.load(at, 'repo')).take('b.py', 'hb-69')).toBeDefined();
  });

  it('takes each view as the parse hands it over: parses cut for the edge write before the run ends read back whole', async () => {
    // More files than a record holds: the first records are on disk before the last file is added.
    const many = Array.from({ length: 1200 }, (_, i) => file(`m${i}.py`, `h${i}`, ['f', 'g']));
    const recorder = IndexRecorder.start(at, 'repo');
    for (const f of many) recorder.add(f, true);
    const tmp = fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    expect(tmp).toHaveLength(1);
    expect(fs.statSync(path.join(dir, tmp[0])).size).toBeGreaterThan(1000);
    expect(fs.existsSync(at)).toBe(false);
    keepForEdges(many);
    expect(recorder.finish(many, many)).toBe('written');
    expect(fs.readdirSync(dir)).toEqual([path.basename(at)]);
    const index = await SymbolIndex.load(at, 'repo');
    expect(index.size).toBe(1200);
    for (const i of [0, 511, 512, 1199]) {
      const f = file(`m${i}.py`, `h${i}`, ['f', 'g']);
      expect(asRows(index.take(f.path, f.contentHash))).toEqual(fromView(toView(f)));
    }

    // Appending: only the re-parsed files are taken, the others were served by the index.
    const run = await SymbolIndex.load(at, 'repo');
    for (const f of many) run.take(f.path, f.contentHash);
    const changed = file('m7.py', 'h7-2', ['f', 'g', 'added']);
    const next = many.map((f) => (f.path === changed.path ? changed : f));
    const appender = IndexRecorder.start(at, 'repo', run);
    for (const f of next) appender.add(f, f === changed);
    keepForEdges(next);
    expect(appender.finish(next, [changed])).toBe('appended');
    expect(asRows((await SymbolIndex.load(at, 'repo')).take('m7.py', 'h7-2'))).toEqual(fromView(toView(file('m7.py', 'h7-2', ['f', 'g', 'added']))));
  });

  it('a failed write never fails the parse: finish says it, and no temporary file is left', () => {
    const blocked = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    const recorder = IndexRecorder.start(path.join(blocked, 'x.idx'), 'repo');
    expect(() => files().forEach((f) => recorder.add(f, true))).not.toThrow();
    expect(() => recorder.finish(files(), files())).toThrow(/EEXIST|ENOTDIR/);
    recorder.abort();
    expect(fs.readdirSync(dir)).toEqual(['not-a-folder']);
  });

  it('a record cut short, another version or another repository: what can be trusted, or nothing', async () => {
    await writeIndex(at, 'repo', files());
    fs.appendFileSync(at, Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    const cut = await SymbolIndex.load(at, 'repo');
    expect(cut.size).toBe(3);
    expect(cut.take('c.py', 'hc')).toBeDefined();
    expect((await SymbolIndex.load(at, 'other-repo')).size).toBe(0);
    const header = v8.serialize({ format: 'scopegraph-symbol-index', version: 999, parser: 3, repoId: 'repo' });
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    fs.writeFileSync(at, Buffer.concat([length, header, fs.readFileSync(at).subarray(4 + fs.readFileSync(at).readUInt32LE(0))]));
    expect((await SymbolIndex.load(at, 'repo')).size).toBe(0);
    expect((await SymbolIndex.load(path.join(dir, 'missing.idx'), 'repo')).size).toBe(0);
  });

  it('packs a view into columns and back unchanged: ids from elsewhere, owners, flags, fields it does not know', () => {
    const f = file('a.py', 'ha', ['f', 'g']);
    f.scopes[1] = { ...f.scopes[1], exported: false, owner: 'Owner' };
    f.scopes[2] = { ...f.scopes[2], id: 'elsewhere#g', parentId: 'b.py#x' };
    f.bindings = [{ scopeId: f.scopes[1].id, name: 'x', typeName: 'T', member: true }, { scopeId: 'b.py#x', name: 'y', typeName: 'T', member: false }];
    const v = toView(f);
    const packed = pack(v);
    expect(packed.raw).toBeUndefined();
    // bindings come back packed (PackedBindings): compared as the bindings they read as
    expect(unpack(packed).bindings).toBeInstanceOf(PackedBindings);
    expect(asRows(unpack(packed))).toEqual(v);
    expect(asRows(fromView(unpack(packed)))).toEqual(fromView(v));
    const odd = { ...v, bindings: [{ ...(v.bindings as TypedBinding[])[0], extra: 1 } as TypedBinding] };
    expect(pack(odd).raw).toBe(odd);
  });
});

/** A file or view with its bindings as an array (the index hands them out packed), to compare with toEqual. */
function asRows<T extends { bindings: Iterable<TypedBinding> }>(x: T | undefined): (Omit<T, 'bindings'> & { bindings: TypedBinding[] }) | undefined {
  return x && { ...x, bindings: [...x.bindings] };
}
