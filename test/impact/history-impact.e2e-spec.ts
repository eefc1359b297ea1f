import * as fs from 'node:fs';
import * as path from 'node:path';
import { DomainError } from '@scopegraph/errors';
import { HistoryRepository, HistoryService } from '@scopegraph/history';
import { DeadCodeService, ImpactService, ReviewService } from '@scopegraph/impact';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { ROOT, runId } from '../support/processes';
import { GitRepo } from './git-repo';

const MONEY_V1 = `export function round(x: number): number {
  return Math.round(x * 100) / 100;
}

export function format(x: number): string {
  return round(x).toFixed(2);
}
`;
const INVOICE_V1 = `import { format, round } from './money';

export class Invoice {
  constructor(private readonly amount: number) {}

  total(): number {
    return round(this.amount);
  }

  describe(): string {
    return format(this.total());
  }
}
`;

// History read from a real git repository made here with the git CLI, into the real Neo4j; impact,
// change review and dead code over the same graph.
describe('history, impact, review and dead code (real git, Neo4j)', () => {
  const h = new IngestHarness();
  const repoId = runId('hist');
  const plainId = runId('histnone');
  const fixtureId = runId('histfix');
  const realId = runId('histreal');
  let git: GitRepo;
  let history: HistoryService;
  let impact: ImpactService;
  const shas: string[] = [];

  const id = (local: string) => `${repoId}:${local}`;
  const index = async (name: string, dir: string) => {
    await h.ingest.index({ path: dir, name, embed: false });
    return history.index(name, dir);
  };

  beforeAll(async () => {
    await h.init();
    history = new HistoryService(new HistoryRepository(h.neo4j), h.config);
    impact = new ImpactService(h.neo4j);
    git = new GitRepo(h.emptyDir());
    shas.push(git.commit('money and invoice', { 'src/money.ts': MONEY_V1, 'src/invoice.ts': INVOICE_V1 }));
    shas.push(git.commit('round to cents, totals follow', { 'src/money.ts': MONEY_V1.replace('* 100) / 100', '* 1000) / 1000'), 'src/invoice.ts': INVOICE_V1.replace('round(this.amount)', 'round(this.amount + 0)') }, 'Bob'));
    shas.push(git.commit('again', { 'src/money.ts': MONEY_V1.replace('* 100) / 100', '* 10) / 10'), 'src/invoice.ts': INVOICE_V1.replace('round(this.amount)', 'round(this.amount * 1)') }));
    shas.push(
      git.commit('report and its test', {
        'src/report.ts': `import { Invoice } from './invoice';\n\nexport function report(): string {\n  const invoice = new Invoice(3);\n  return invoice.describe();\n}\n\nfunction neverCalled(): number {\n  return 42;\n}\n\nfunction lookedUp(): number {\n  return 7;\n}\n\nexport const registry = { fn: 'lookedUp' };\n`,
        'test/invoice.spec.ts': `import { Invoice } from '../src/invoice';\n\nexport function checkTotal(): boolean {\n  const invoice = new Invoice(2);\n  return invoice.total() === 2;\n}\n`,
      }),
    );
  });

  afterAll(() => h.dispose([repoId, plainId, fixtureId, realId]));

  it('reads commits, per-scope changes and co-change rules, then only new commits', async () => {
    const first = await index(repoId, git.dir);
    expect(first).toMatchObject({ status: 'git', head: shas[3], read: 4, kept: 4, incremental: false });

    const stats = await new HistoryRepository(h.neo4j).changeStats(repoId, { ids: null, files: false, pathPrefix: null, limit: 50, partners: 5 });
    const round = stats.find((s) => s.qualifiedName === 'round')!;
    const total = stats.find((s) => s.qualifiedName === 'Invoice.total')!;
    const describeStat = stats.find((s) => s.qualifiedName === 'Invoice.describe')!;
    // Added in commit 1, changed in 2 and 3; describe only added.
    expect(round).toMatchObject({ changeCount: 3, lastCommit: shas[2], mainAuthors: ['Ann (2)', 'Bob (1)'] });
    expect(total.changeCount).toBe(3);
    expect(describeStat.changeCount).toBe(1);
    // round and Invoice.total changed together in all three of their commits; format did not in 2 and 3.
    expect(round.partners).toContainEqual(expect.objectContaining({ id: total.id, support: 3, confidence: 1 }));
    expect(round.partners.map((p) => p.qualifiedName)).not.toContain('Invoice.describe');

    shas.push(git.commit('report says more', { 'src/report.ts': fs.readFileSync(path.join(git.dir, 'src/report.ts'), 'utf8').replace('describe();', "describe() + '!';") }, 'Cy'));
    const again = await index(repoId, git.dir);
    expect(again).toMatchObject({ status: 'git', head: shas[4], read: 1, kept: 5, incremental: true });
    const reportStat = (await new HistoryRepository(h.neo4j).changeStats(repoId, { ids: [id('src/report.ts#report|function')], files: false, pathPrefix: null, limit: 5, partners: 5 }))[0];
    expect(reportStat).toMatchObject({ changeCount: 2, lastCommit: shas[4], mainAuthors: ['Ann (1)', 'Cy (1)'] });

    const unchanged = await index(repoId, git.dir);
    expect(unchanged).toMatchObject({ read: 0, kept: 5, incremental: true });
  });

  it('says "no history" for a folder that is not a git checkout', async () => {
    const dir = h.emptyDir();
    fs.writeFileSync(path.join(dir, 'a.py'), 'def f():\n    return 1\n');
    const result = await index(plainId, dir);
    expect(result).toMatchObject({ status: 'none', read: 0 });
    const [row] = await h.neo4j.runStatement<{ status: string }>('MATCH (r:Repository {id: $id}) RETURN r.historyStatus AS status', { id: plainId });
    expect(row.status).toBe('none');
  });

  it('walks dependents by depth with paths, tests and co-change partners no static edge links', async () => {
    const result = await impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], depth: 3, changesWith: 10 });
    const at = (d: number) => result.levels.find((l) => l.depth === d)?.scopes.map((s) => s.scope.qualifiedName).sort() ?? [];
    expect(at(1)).toEqual(expect.arrayContaining(['Invoice.total', 'format']));
    expect(at(2)).toEqual(expect.arrayContaining(['Invoice.describe', 'checkTotal']));
    expect(at(3)).toContain('report');
    const reportHit = result.levels.flatMap((l) => l.scopes).find((s) => s.scope.qualifiedName === 'report')!;
    expect(reportHit.path.map((e) => e.edge)).toEqual(['CALLS', 'CALLS', 'CALLS']);
    expect(reportHit.path.at(-1)!.to).toBe(id('src/money.ts#round|function'));
    expect(result.coverage.testsFound).toBe(true);
    expect(result.tests.map((t) => t.qualifiedName)).toContain('checkTotal');
    expect(result.importers.map((i) => i.path)).toContain('src/invoice.ts');

    // Co-change: Invoice.total is a static dependent of round, so it is not repeated as a partner;
    // asked from format (which round's partner list does not include), history adds nothing static.
    expect(result.coChanged.map((c) => c.scope.qualifiedName)).not.toContain('Invoice.total');
    const fromTotal = await impact.impact({ repository: repoId, scopeIds: [id('src/invoice.ts#Invoice.total|method')], depth: 1 });
    expect(fromTotal.coChanged.map((c) => c.scope.qualifiedName)).toContain('round');
    expect(fromTotal.history).toBe('git');

    // changesWith: static edges, same-file neighbours and co-change fused, each with its provenance.
    // format calls round and sits 4 lines below it (static + same file); Invoice.total calls round and
    // changed with it in all three commits (static + co-change at half weight): format ranks first.
    const names = result.changesWith.map((c) => c.scope.qualifiedName);
    expect(names.slice(0, 2)).toEqual(['format', 'Invoice.total']);
    expect(names).not.toContain('round');
    expect(names).not.toContain('report'); // depth 3: beyond the dependents that count as static
    const src = (qn: string) => Object.fromEntries(result.changesWith.find((c) => c.scope.qualifiedName === qn)!.sources.map((x) => [x.kind, x]));
    expect(src('format')).toEqual({
      static: expect.objectContaining({ rank: 2, links: 1, depth: 1 }),
      'same-file': expect.objectContaining({ rank: 1, lineDistance: 4, with: [id('src/money.ts#round|function')] }),
    });
    expect(src('Invoice.total')).toEqual({
      static: expect.objectContaining({ rank: 1, links: 1 }),
      'co-change': expect.objectContaining({ rank: 1, support: 3, confidence: 1, with: [id('src/money.ts#round|function')] }),
    });
    expect(src('Invoice.describe')).toEqual({ static: expect.objectContaining({ links: 0, depth: 2 }) });
    expect(result.changesWith[0].score).toBeGreaterThan(result.changesWith[1].score);
    expect(result.changesWithStatus).toBe('computed');

    // Opt-in: by default (and with 0) nothing is read for changesWith, and the answer says it was not asked.
    const reads = jest.spyOn(h.neo4j, 'read');
    try {
      for (const req of [{}, { changesWith: 0 }]) {
        reads.mockClear();
        const plain = await impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], depth: 3, ...req });
        expect({ changesWith: plain.changesWith, status: plain.changesWithStatus }).toEqual({ changesWith: [], status: 'not-asked' });
        const queries = reads.mock.calls.map((c) => c[0]);
        expect(queries).toContain('impact/walk');
        expect(queries).not.toContain('impact/change-partners');
        // The walk itself is the same answer.
        expect(plain.levels).toEqual(result.levels);
        expect(plain.coverage).toEqual(result.coverage);
      }
      reads.mockClear();
      await impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], depth: 3, changesWith: 3 });
      expect(reads.mock.calls.map((c) => c[0])).toContain('impact/change-partners');
    } finally {
      reads.mockRestore();
    }
    await expect(impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], changesWith: 51 })).rejects.toMatchObject({ field: 'changesWith' });
  });

  it('applies the node cap inside the walk: the first dependents by id, the rest left out and said so', async () => {
    const full = await impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], depth: 3 });
    const all = full.levels.flatMap((l) => l.scopes);
    expect(full.coverage.truncated).toBe(false);
    expect(all.length).toBeGreaterThan(3);
    const depth1 = full.levels[0].scopes.map((s) => s.scope.id).sort();
    for (const cap of [1, depth1.length, depth1.length + 1]) {
      const capped = await impact.impact({ repository: repoId, scopeIds: [id('src/money.ts#round|function')], depth: 3, maxNodes: cap });
      const got = capped.levels.flatMap((l) => l.scopes);
      expect(got.length).toBe(cap);
      expect(capped.coverage.truncated).toBe(true);
      // Level by level, each capped level keeps the first of its new dependents by id.
      if (cap <= depth1.length) expect(capped.levels.map((l) => l.scopes.map((s) => s.scope.id))).toEqual([depth1.slice(0, cap)]);
      else expect(capped.levels[0].scopes.map((s) => s.scope.id).sort()).toEqual(depth1);
      // Edges are those into the dependents kept (and the targets), never into ones left out.
      expect(capped.coverage.edges).toBeLessThan(full.coverage.edges);
      expect(got.every((h) => h.path.length === h.depth)).toBe(true);
    }
  });

  it('refuses bad input with a named field', async () => {
    await expect(impact.impact({ repository: repoId, scopeIds: [id('x')], depth: 9 })).rejects.toMatchObject({ field: 'depth' });
    await expect(impact.impact({ repository: repoId, scopeIds: [id('src/nothing.ts#nope|function')] })).rejects.toBeInstanceOf(DomainError);
    await expect(impact.impact({ repository: 'no-such-repo-here', scopeIds: ['a'] })).rejects.toMatchObject({ field: 'repository' });
  });

  /**
   * Ground truth by Cypher for every scope with dependents: depth 1 holds exactly the scopes with an
   * edge into it (inclusion for a class, which stands for its members), and the coverage's counts
   * (edges, name-only edges, unresolved references of the same name, unresolved references out of
   * the reached code) equal the same counts taken by Cypher.
   */
  const checkGroundTruth = async (repo: string): Promise<number> => {
    const targets = await h.neo4j.runStatement<{ id: string; callers: string[]; edges: number; fast: number }>(
      `MATCH (t:Scope {repoId: $repo})<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
       WHERE NOT EXISTS { (t)-[:OVERRIDES]->() }
       RETURN t.id AS id, collect(DISTINCT s.id) AS callers, count(e) AS edges, count(CASE WHEN e.resolver = 'fast' THEN 1 END) AS fast`,
      { repo },
    );
    let exact = 0;
    for (const t of targets) {
      const r = await impact.impact({ repository: repo, scopeIds: [t.id], depth: 1, coChanged: 0 });
      const depth1 = r.levels[0]?.scopes.map((s) => s.scope.id) ?? [];
      expect(r.coverage.truncated).toBe(false);
      expect(depth1).toEqual(expect.arrayContaining(t.callers.filter((c) => !r.targets.some((x) => x.id === c))));
      if (r.targets.length !== 1) continue;
      exact++;
      // A recursive scope is its own caller: the answer does not repeat the target.
      expect({ id: t.id, depth1: [...depth1].sort() }).toEqual({ id: t.id, depth1: t.callers.filter((c) => c !== t.id).sort() });
      const [counted] = await h.neo4j.runStatement<{ sameName: number; inReached: number }>(
        `CALL {
           MATCH (u:Unresolved {repoId: $repo})
           WHERE u.name IN $names OR any(n IN $names WHERE u.name ENDS WITH '.' + n)
           MATCH (:Scope)-[e:CALLS|REFERENCES]->(u) WHERE e.reason <> 'external'
           RETURN count(e) AS sameName
         }
         CALL {
           UNWIND $reached AS rid
           MATCH (:Scope {id: rid})-[e:CALLS|REFERENCES]->(:Unresolved) WHERE e.reason <> 'external'
           RETURN count(e) AS inReached
         }
         RETURN sameName, inReached`,
        { repo, names: [...new Set([r.targets[0].name, ...r.levels.flatMap((l) => l.scopes.map((s) => s.scope.name))])].filter(Boolean), reached: depth1 },
      );
      expect({ id: t.id, edges: r.coverage.edges, fast: r.coverage.nameOnlyEdges, sameName: r.coverage.unresolvedSameName, inReached: r.coverage.unresolvedInReached }).toEqual({
        id: t.id,
        edges: Number(t.edges),
        fast: Number(t.fast),
        sameName: Number(counted.sameName),
        inReached: Number(counted.inReached),
      });
    }
    return exact;
  };

  it('finds every direct caller at depth 1 and states coverage that a Cypher count confirms (polyglot fixture)', async () => {
    // Its TypeScript and Python parts (calls, overrides, dispatch through interfaces), without git.
    const dir = h.emptyDir();
    for (const part of ['ts', 'py']) fs.cpSync(path.join(FIXTURE, part), path.join(dir, part), { recursive: true });
    await h.ingest.index({ path: dir, name: fixtureId, embed: false });
    expect(await checkGroundTruth(fixtureId)).toBeGreaterThan(10);
  });

  it('holds the same ground truth on real code: scopegraph\'s own impact and history libraries', async () => {
    const dir = h.emptyDir();
    for (const lib of ['impact', 'history']) fs.cpSync(path.join(ROOT, 'libs', lib, 'src'), path.join(dir, lib), { recursive: true });
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'py-checker'), path.join(dir, 'py'), { recursive: true });
    await h.ingest.index({ path: dir, name: realId, embed: false });
    expect(await checkGroundTruth(realId)).toBeGreaterThan(40);
  });

  it('reviews a change between two refs: changed scopes by line ranges, impact, co-change partners left alone, tests', async () => {
    const review = new ReviewService(h.neo4j, impact);
    try {
      const result = await review.review({ repository: repoId, base: shas[0], head: shas[1] });
      expect(result.changedScopes.map((s) => `${s.change} ${s.qualifiedName}`).sort()).toEqual(['modified Invoice', 'modified Invoice.total', 'modified round']);
      expect(result.tests.map((t) => t.qualifiedName)).toContain('checkTotal');
      // Suggestions leave the changed scopes out: format (static + same file as round) is one.
      const suggested = result.changeSuggestions.map((c) => c.scope.qualifiedName);
      expect(suggested).toContain('format');
      expect(suggested.filter((q) => ['Invoice', 'Invoice.total', 'round'].includes(q))).toEqual([]);

      // A pasted diff against the indexed tree (taken from the working tree, then undone).
      const reportPath = path.join(git.dir, 'src/report.ts');
      const original = fs.readFileSync(reportPath, 'utf8');
      fs.writeFileSync(reportPath, original.replace('  return 42;\n}\n', '  return 43;\n}\n\nexport function added(): number {\n  return 1;\n}\n'));
      const diff = git.git('diff');
      fs.writeFileSync(reportPath, original);
      const pasted = await review.review({ repository: repoId, diff });
      expect(pasted.changedScopes.map((s) => `${s.change} ${s.qualifiedName}`).sort()).toEqual(['added added', 'modified neverCalled']);
      await expect(review.review({ repository: repoId, diff: diff.replace('-  return 42;', '-  return 41;') })).rejects.toMatchObject({ field: 'diff' });
      await expect(review.review({ repository: repoId, base: 'nope-not-a-ref', head: 'HEAD' })).rejects.toMatchObject({ field: 'base' });
    } finally {
      await review.onModuleDestroy();
    }
  });

  it('lists dead-code candidates with confidence and reasons, leaving entry points out', async () => {
    const result = await new DeadCodeService(h.neo4j).deadCode({ repository: repoId, minConfidence: 0 });
    const byName = new Map(result.candidates.map((c) => [c.scope.qualifiedName, c]));
    expect(byName.get('neverCalled')?.confidence).toBeGreaterThanOrEqual(0.9);
    expect(byName.get('lookedUp')!.confidence).toBeLessThan(0.7);
    expect(byName.get('lookedUp')!.reasons.join(' ')).toMatch(/string/);
    expect(byName.has('checkTotal')).toBe(false);
    expect(result.excluded.test).toBeGreaterThanOrEqual(1);
    const defaults = await new DeadCodeService(h.neo4j).deadCode({ repository: repoId });
    expect(defaults.candidates.map((c) => c.scope.qualifiedName)).toContain('neverCalled');
    expect(defaults.candidates.map((c) => c.scope.qualifiedName)).not.toContain('lookedUp');
  });
});
