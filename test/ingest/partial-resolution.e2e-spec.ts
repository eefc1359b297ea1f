import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IngestResult, IngestService } from '@scopegraph/ingest';
import { SymbolIndex } from '../../libs/ingest/src/pipeline/symbol-index';
import { corpusRoot, DEVSET_CORPORA } from '../../bench/search/devset-corpora';
import { npmPackageSources } from '../../bench/support/bench-util';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

// A re-index resolves only the changed files' references when nothing other files' resolution
// reads of them changed. Proof on real code: after every edit, the incrementally indexed graph
// (edges, unresolved references, import links, per-file records) must equal a fresh index of the
// same tree, whether the run took the partial path or had to resolve everything, and the path taken
// must be the expected one.

jest.setTimeout(600_000);

type Lang = 'py' | 'ts' | 'cs';

function langOf(p: string): Lang | null {
  if (p.endsWith('.py')) return 'py';
  if (p.endsWith('.cs')) return 'cs';
  return /\.[cm]?[jt]sx?$/.test(p) && !p.endsWith('.d.ts') ? 'ts' : null;
}

const COMMENT: Record<Lang, string> = { py: '#', ts: '//', cs: '//' };
const NOTHING: Record<Lang, string> = { py: 'None', ts: 'null', cs: 'null' };
const indentOf = (line: string) => /^\s*/.exec(line)![0];

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * One whole statement on its line, declaring and binding nothing (so no scope or typed binding
 * changes). TS/JS without semicolons (@tanstack/query-core): a line the next one does not continue.
 */
function isPlainStatement(text: string, lang: Lang, next = ''): boolean {
  const t = text.trim();
  if (!t || !balanced(t) || /=>|\blambda\b|\bfunction\b|[{}]|(^|[^=!<>])=($|[^=])|^(@|#|\/\/)/.test(t)) return false;
  if (/^(def|class|if|elif|else|for|while|with|try|except|finally|case|switch|using|namespace|public|private|protected|internal|static|var|let|const|import|from|export)\b/.test(t)) return false;
  if (lang === 'py') return !/[:,\\]$/.test(t);
  if (t.endsWith(';')) return true;
  return lang === 'ts' && /[\w)\]'"`]$/.test(t) && !/^\s*([.?:+\-*/&|,)\]]|$)/.test(next);
}

/** `a.b.name(...)` in a line: where it starts and ends. */
function callExpression(line: string, name: string): { start: number; end: number } | null {
  const m = new RegExp(`(?<![\\w$.])(?:[A-Za-z_$][\\w$]*\\.)*${name}\\s*\\(`).exec(line);
  if (!m || /\bnew\s+$/.test(line.slice(0, m.index))) return null;
  let depth = 0;
  for (let i = m.index + m[0].length - 1; i < line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')' && --depth === 0) return { start: m.index, end: i + 1 };
  }
  return null;
}

/** A CALLS edge from a function-like scope: its file, line, target name and file ('' when not a scope). */
type Call = {
  path: string;
  line: number;
  name: string;
  scope: string;
  target: string;
};

/** Edits on a copy of a corpus, placed by what the graph of its incremental repository holds. */
class Tree {
  constructor(private readonly h: IngestHarness, readonly dir: string, readonly repo: string) {}

  lines(p: string): string[] {
    return fs.readFileSync(path.join(this.dir, p), 'utf8').split('\n');
  }

  write(p: string, lines: string[]): void {
    fs.writeFileSync(path.join(this.dir, p), lines.join('\n'));
  }

  private query<T extends Record<string, unknown>>(cypher: string): Promise<T[]> {
    return this.h.neo4j.runStatement<T>(cypher, { repo: this.repo });
  }

  /** Comment lines above and below the code of `count` files that other files call into. */
  async commentFiles(count: number, skip = 0): Promise<string[]> {
    const targets = await this.query<{ path: string }>(
      `MATCH (a:Scope {repoId: $repo})-[:CALLS|EXTENDS|IMPLEMENTS|IMPORTS]->(b:Scope {repoId: $repo})
       WHERE a.path <> b.path RETURN DISTINCT b.path AS path ORDER BY path`,
    );
    const picked = targets.map((t) => t.path).filter((p) => langOf(p)).slice(skip, skip + count);
    expect(picked).toHaveLength(count);
    for (const p of picked) this.comment(p);
    return picked;
  }

  comment(p: string): void {
    const c = COMMENT[langOf(p)!];
    this.write(p, [`${c} edited by the partial-resolution test`, `${c} every line below moved down by two`, ...this.lines(p), `${c} and one line appended`]);
  }

  /**
   * In one file: a call into another file is taken out of its statement, and the same call is added
   * as a statement to another function of the file. Edges leave, edges arrive; no declaration or
   * typed binding changes.
   */
  async moveCall(accept: (path: string) => boolean = () => true): Promise<string> {
    const calls = await this.query<Call>(
      `MATCH (a:Scope {repoId: $repo})-[c:CALLS]->(b)
       WHERE a.kind IN ['function', 'method', 'constructor']
       RETURN a.path AS path, c.line AS line, coalesce(b.name, '') AS name, a.id AS scope, coalesce(b.path, '') AS target ORDER BY path, line, name`,
    );
    for (const from of calls) {
      const lang = langOf(from.path);
      if (!lang || !accept(from.path) || !from.target || from.target === from.path || !/^\w+$/.test(from.name)) continue;
      const lines = this.lines(from.path);
      const source = lines[from.line - 1];
      const plain = (line: number) => isPlainStatement(lines[line - 1], lang, lines[line] ?? '');
      const call = plain(from.line) ? callExpression(source, from.name) : null;
      if (!call) continue;
      const into = calls.find((r) => r.path === from.path && r.scope !== from.scope && r.line !== from.line && plain(r.line));
      if (!into) continue;
      const expression = source.slice(call.start, call.end);
      const whole = source.trim().replace(/;$/, '') === expression;
      lines[from.line - 1] = whole ? `${indentOf(source)}${lang === 'py' ? 'pass' : ';'}` : source.slice(0, call.start) + NOTHING[lang] + source.slice(call.end);
      lines.splice(into.line, 0, `${indentOf(lines[into.line - 1])}${expression}${lang === 'py' ? '' : ';'}`);
      this.write(from.path, lines);
      return from.path;
    }
    throw new Error(`no call to move in ${this.repo}`);
  }

  /** Renames a function or method that another file calls, at its declaration only. */
  async renameCalled(): Promise<string> {
    const rows = await this.query<{ path: string; name: string; startLine: number }>(
      `MATCH (a:Scope {repoId: $repo})-[:CALLS]->(b:Scope {repoId: $repo})
       WHERE a.path <> b.path AND b.kind IN ['function', 'method']
       RETURN DISTINCT b.path AS path, b.name AS name, b.startLine AS startLine ORDER BY path, startLine`,
    );
    for (const r of rows) {
      const lang = langOf(r.path);
      if (!lang || !/^\w+$/.test(r.name)) continue;
      const lines = this.lines(r.path);
      const declaration: Record<Lang, RegExp> = {
        py: new RegExp(`\\bdef\\s+${r.name}\\s*\\(`),
        ts: new RegExp(`(\\bfunction\\s*\\*?\\s*${r.name}|^\\s*(?:(?:public|private|protected|static|async|override|readonly)\\s+)*${r.name})\\s*[(<]`),
        cs: new RegExp(`^\\s*(?:(?:public|private|protected|internal|static|virtual|override|async|unsafe|new|sealed|extern)\\s+)+[\\w<>\\[\\],.?]+\\s+${r.name}\\s*[(<]`),
      };
      for (let i = r.startLine - 1; i < Math.min(lines.length, r.startLine + 5); i++) {
        if (!declaration[lang].test(lines[i])) continue;
        lines[i] = lines[i].replace(new RegExp(`\\b${r.name}\\b`), `${r.name}Renamed`);
        this.write(r.path, lines);
        return r.path;
      }
    }
    throw new Error(`no called function to rename in ${this.repo}`);
  }

  /** Gives a base class a method that a subclass in another file already has: it now overrides it. */
  async addOverriddenMethod(): Promise<string> {
    const rows = await this.query<{ path: string; name: string; startLine: number; method: string }>(
      `MATCH (k:Scope {repoId: $repo})-[:EXTENDS]->(b:Scope {repoId: $repo, kind: 'class'})
       MATCH (k)-[:HAS_MEMBER]->(m:Scope {kind: 'method'})
       WHERE NOT EXISTS { MATCH (b)-[:HAS_MEMBER]->(x:Scope) WHERE x.name = m.name } AND NOT EXISTS { MATCH (m)-[:OVERRIDES]->() }
       RETURN b.path AS path, b.name AS name, b.startLine AS startLine, m.name AS method
       ORDER BY k.path = b.path, path, startLine, method`,
    );
    for (const r of rows) {
      const lang = langOf(r.path);
      if (!lang || !/^\w+$/.test(r.method)) continue;
      const lines = this.lines(r.path);
      const header = lines.findIndex((l, i) => i >= r.startLine - 1 && new RegExp(`\\bclass\\s+${r.name}\\b`).test(l));
      if (header < 0) continue;
      const pad = indentOf(lines[header]);
      if (lang === 'py') {
        if (!/:\s*(#.*)?$/.test(lines[header])) continue;
        lines.splice(header + 1, 0, `${pad}    def ${r.method}(self, *args, **kwargs):`, `${pad}        return None`);
      } else {
        const open = lines.findIndex((l, i) => i >= header && i <= header + 3 && /\{\s*$/.test(l));
        if (open < 0) continue;
        lines.splice(open + 1, 0, lang === 'ts' ? `${pad}  ${r.method}(...args: any[]): any { return undefined; }` : `${pad}    public virtual void ${r.method}() { }`);
      }
      this.write(r.path, lines);
      return r.path;
    }
    throw new Error(`no base class to extend in ${this.repo}`);
  }

  /** Drops the base class of a class whose header fits on one line. */
  async dropBase(): Promise<string> {
    const rows = await this.query<{ path: string; name: string; startLine: number }>(
      `MATCH (k:Scope {repoId: $repo, kind: 'class'})-[:EXTENDS]->(:Scope {repoId: $repo})
       RETURN DISTINCT k.path AS path, k.name AS name, k.startLine AS startLine ORDER BY path, startLine`,
    );
    for (const r of rows) {
      const lang = langOf(r.path);
      if (!lang) continue;
      const lines = this.lines(r.path);
      const header = lines.findIndex((l, i) => i >= r.startLine - 1 && new RegExp(`\\bclass\\s+${r.name}\\b`).test(l));
      if (header < 0) continue;
      const line = lines[header];
      const dropped =
        lang === 'py' ? line.replace(/^(\s*class\s+\w+)\s*\([^()]*\)\s*:/, '$1:')
        : lang === 'ts' ? line.replace(/\s+extends\s+[\w.]+(<[^{]*?>)?(?=\s+implements\b|\s*\{)/, '')
        : /\bwhere\b/.test(line) ? line : line.replace(/(\bclass\s+\w+(<[^>]*>)?)\s*:[^{]*/, '$1 ');
      if (dropped === line) continue;
      lines[header] = dropped;
      this.write(r.path, lines);
      return r.path;
    }
    throw new Error(`no class with a base to drop in ${this.repo}`);
  }

  /** A copy of a file that others import, under a new name beside it. */
  async addFile(): Promise<string> {
    const p = await this.importedFile(0);
    const ext = path.extname(p);
    const copy = `${p.slice(0, -ext.length)}_added${ext}`;
    fs.copyFileSync(path.join(this.dir, p), path.join(this.dir, copy));
    return copy;
  }

  /** Deletes a file that other files import. */
  async deleteFile(): Promise<string> {
    const p = await this.importedFile(1);
    fs.rmSync(path.join(this.dir, p));
    return p;
  }

  private async importedFile(index: number): Promise<string> {
    const rows = await this.query<{ path: string }>(
      `MATCH (a:Scope:File {repoId: $repo})-[:IMPORTS]->(b:Scope:File {repoId: $repo})
       RETURN b.path AS path, count(a) AS importers ORDER BY importers DESC, path`,
    );
    const paths = rows.map((r) => r.path).filter((p) => langOf(p) && !p.endsWith('__init__.py') && !/index\.[jt]s$/.test(p));
    expect(paths.length).toBeGreaterThan(index);
    return paths[index];
  }
}

interface Corpus {
  label: string;
  root: () => string;
  tsResolver: 'fast' | 'precise';
}

const CORPORA: Corpus[] = [
  { label: 'polyglot fixture (TS, Python, C#, SQL)', root: () => FIXTURE, tsResolver: 'fast' },
  { label: 'rxjs 7.8.2 src (TypeScript)', root: () => path.join(npmPackageSources('rxjs@7.8.2'), 'src'), tsResolver: 'fast' },
  { label: 'marshmallow 4.4.0 src (Python)', root: () => corpusRoot(DEVSET_CORPORA.find((c) => c.repo === 'marshmallow')!), tsResolver: 'precise' },
];

describe('partial re-resolution equals a full index (real corpora, Neo4j, Redis)', () => {
  const prefix = runId('partial');
  const h = new IngestHarness(prefix);
  const repos: string[] = [];

  beforeAll(() => h.init());
  afterAll(() => h.dispose(repos));

  /**
   * Re-indexes `repo` incrementally and `fresh` from nothing, and expects the same graph and counts.
   * Returns the incremental run's result.
   */
  async function reindexAndCompare(service: IngestService, dir: string, repo: string, fresh: string): Promise<IngestResult> {
    const incremental = await service.index({ path: dir, name: repo, embed: false });
    await h.repo.deleteRepository(fresh);
    const full = await service.index({ path: dir, name: fresh, embed: false });
    expect(full.resolver).toMatchObject({ all: 'no-previous-run', files: full.files.indexed });
    const [a, b] = await Promise.all([h.snapshot(repo), h.snapshot(fresh)]);
    const onlyIn = (x: string[], y: string[]) => {
      const other = new Set(y);
      return x.filter((e) => !other.has(e)).slice(0, 10);
    };
    expect({ missing: onlyIn(b.edges, a.edges), stale: onlyIn(a.edges, b.edges) }).toEqual({ missing: [], stale: [] });
    expect({ missing: onlyIn(b.nodes, a.nodes), stale: onlyIn(a.nodes, b.nodes) }).toEqual({ missing: [], stale: [] });
    expect(a.edges.length).toBe(b.edges.length);
    expect(incremental.edges).toMatchObject({ total: full.edges.total, unresolved: full.edges.unresolved, builtinSkipped: full.edges.builtinSkipped });
    return incremental;
  }

  describe.each(CORPORA)('$label', ({ root, tsResolver }) => {
    const repo = runId('pr');
    const fresh = runId('prf');
    repos.push(repo, fresh);
    let service: IngestService;
    let tree: Tree;
    const step = () => reindexAndCompare(service, tree.dir, repo, fresh);

    beforeAll(async () => {
      // Partial re-resolution is the fast Python resolver's: under pyright a Python edit resolves everything ('py-checker').
      ({ ingest: service } = await h.serviceWith({ tsResolver, pyResolver: 'fast' }));
      tree = new Tree(h, h.copyOf(root()), repo);
      const first = await service.index({ path: tree.dir, name: repo, embed: false });
      expect(first.resolver).toMatchObject({ all: 'no-previous-run' });
      expect(first.edges.total).toBeGreaterThan(50);
    });

    it('comment lines around the code of files others depend on: only those files are resolved', async () => {
      const edited = await tree.commentFiles(3);
      const r = await step();
      expect(r.files.parsed).toBe(3);
      expect(r.resolver).toEqual(expect.objectContaining({ files: 3 }));
      expect(r.resolver.all).toBeUndefined();
      // Their own edges moved down two lines.
      expect(r.edges.updated).toBeGreaterThan(0);
      expect(edited).toHaveLength(3);
    });

    it('a call moved inside a file: only that file is resolved, its edges change', async () => {
      await tree.moveCall();
      const r = await step();
      expect(r.resolver).toEqual(expect.objectContaining({ files: 1 }));
      expect(r.resolver.all).toBeUndefined();
      expect(r.edges.added + r.edges.removed).toBeGreaterThan(0);
    });

    it('a called function renamed: everything is resolved; then a comment edit of that file is partial again', async () => {
      const renamed = await tree.renameCalled();
      expect(await step()).toMatchObject({ resolver: { all: 'interface' } });
      tree.comment(renamed);
      const again = await step();
      expect(again.resolver).toEqual(expect.objectContaining({ files: 1 }));
      expect(again.resolver.all).toBeUndefined();
    });

    it('a method added to a base class (overridden in a subclass): everything is resolved', async () => {
      await tree.addOverriddenMethod();
      const r = await step();
      expect(r.resolver).toMatchObject({ all: 'interface' });
      expect(r.edges.added).toBeGreaterThan(0);
    });

    it('a base class dropped: everything is resolved', async () => {
      await tree.dropBase();
      expect(await step()).toMatchObject({ resolver: { all: 'interface' } });
    });

    it('a file added, then a file deleted: everything is resolved', async () => {
      await tree.addFile();
      expect(await step()).toMatchObject({ resolver: { all: 'context' } });
      await tree.deleteFile();
      expect(await step()).toMatchObject({ resolver: { all: 'context' } });
    });

    it('after all that, comment and call edits in two files are partial again', async () => {
      const [commented] = await tree.commentFiles(1, 3);
      await tree.moveCall((p) => p !== commented);
      const r = await step();
      expect(r.resolver).toEqual(expect.objectContaining({ files: 2 }));
      expect(r.resolver.all).toBeUndefined();
    });
  });

  describe('what forces a full resolve', () => {
    /** A copy of the polyglot fixture indexed once, and the name of the repository to compare it with. */
    async function indexedFixture(tsResolver: 'fast' | 'precise') {
      const repo = runId('prx');
      const fresh = runId('prxf');
      repos.push(repo, fresh);
      const { ingest: service } = await h.serviceWith({ tsResolver, pyResolver: 'fast' });
      const tree = new Tree(h, h.copyOf(FIXTURE), repo);
      await service.index({ path: tree.dir, name: repo, embed: false });
      return { service, tree, repo, fresh };
    }

    it('with the precise TS resolver: a Python edit is partial, a TS edit is not', async () => {
      const { service, tree, repo, fresh } = await indexedFixture('precise');
      tree.comment('py/billing/tax.py');
      await tree.moveCall((p) => langOf(p) !== 'ts' && p !== 'py/billing/tax.py');
      const partial = await reindexAndCompare(service, tree.dir, repo, fresh);
      expect(partial.resolver).toEqual(expect.objectContaining({ ts: 'precise', files: 2 }));
      expect(partial.resolver.all).toBeUndefined();
      tree.comment('ts/src/utils/format.ts');
      expect(await reindexAndCompare(service, tree.dir, repo, fresh)).toMatchObject({ resolver: { all: 'ts-checker' } });
    });

    it('an interface change once the cached references are gone: the unchanged files are parsed again', async () => {
      const { service, tree, repo, fresh } = await indexedFixture('fast');
      // The views the run reads first stay; the references resolving every file needs are gone.
      await h.deleteKeys(`${prefix}:parse:*:refs`);
      await tree.renameCalled();
      const r = await reindexAndCompare(service, tree.dir, repo, fresh);
      expect(r.resolver).toMatchObject({ all: 'interface' });
      // Every unchanged file, its references gone from the cache, was parsed again; none completed from the cache.
      expect(r.files.reused).toBeGreaterThan(0);
      expect(r.files).toMatchObject({ reparsed: r.files.reused, referencesRead: 0 });
    });

    it('a run that did not finish: the next one resolves everything', async () => {
      const { service, tree, repo } = await indexedFixture('fast');
      const dir = tree.dir;
      const finish = h.repo.finishRepository;
      h.repo.finishRepository = () => Promise.reject(new Error('killed before the end'));
      try {
        await expect(service.index({ path: dir, name: repo, embed: false })).rejects.toThrow('killed before the end');
      } finally {
        h.repo.finishRepository = finish;
      }
      expect(await service.index({ path: dir, name: repo, embed: false })).toMatchObject({ resolver: { all: 'no-previous-run' } });
      expect(await service.index({ path: dir, name: repo, embed: false })).toMatchObject({ resolver: { files: 0 } });
    });

    it('interface hashes recorded by other code are recorded again when everything is resolved', async () => {
      const { service, tree, repo } = await indexedFixture('fast');
      const file = 'py/billing/tax.py';
      await h.neo4j.runStatement("MATCH (f:File {repoId: $repo, path: $file}) SET f.interfaceHash = 'from-other-code'", { repo, file });
      // Other code means another resolution key: here the key is cleared, as an unfinished run leaves it.
      await h.repo.upsertRepository(repo, repo, tree.dir);
      expect(await service.index({ path: tree.dir, name: repo, embed: false })).toMatchObject({ resolver: { all: 'no-previous-run' } });
      tree.comment(file);
      const r = await service.index({ path: tree.dir, name: repo, embed: false });
      expect(r.resolver).toEqual(expect.objectContaining({ files: 1 }));
      expect(r.resolver.all).toBeUndefined();
    });

    it('the symbol index: a partial run reads the unchanged files from it, a stale entry is not used, the graph stays a full index', async () => {
      const { service, tree, repo, fresh } = await indexedFixture('fast');
      const file = SymbolIndex.fileFor(h.config.ingest.symbolIndexDir!, prefix, repo);
      const first = fs.readFileSync(file);
      // A called function renamed (every file resolved, the views from the index): appended there.
      const renamed = await tree.renameCalled();
      const r1 = await reindexAndCompare(service, tree.dir, repo, fresh);
      expect(r1.resolver).toMatchObject({ all: 'interface' });
      expect(r1.files.symbolIndex).toMatchObject({ read: r1.files.reused, appended: 1 });
      // The index as the first run left it: stale for the renamed file (its old name and scope ids),
      // which another interface edit makes every file resolve against.
      fs.writeFileSync(file, first);
      await tree.dropBase();
      const r2 = await reindexAndCompare(service, tree.dir, repo, fresh);
      expect(r2.resolver).toMatchObject({ all: 'interface' });
      expect(r2.files.symbolIndex).toMatchObject({ read: r2.files.reused - 1, missed: 1, written: r2.files.indexed });
      // Written anew: the next partial run is served by it entirely.
      tree.comment(renamed);
      const r3 = await reindexAndCompare(service, tree.dir, repo, fresh);
      expect(r3.resolver).toEqual(expect.objectContaining({ files: 1 }));
      expect(r3.files.symbolIndex).toMatchObject({ read: r3.files.reused, appended: 1 });
    });

    it('other resolver settings: everything is resolved', async () => {
      const { tree, repo } = await indexedFixture('fast');
      const precise = await (await h.serviceWith({ tsResolver: 'precise', pyResolver: 'fast' })).ingest.index({ path: tree.dir, name: repo, embed: false });
      expect(precise.resolver).toMatchObject({ all: 'context' });
    });
  });
});
