import * as fs from 'node:fs';
import * as path from 'node:path';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { runScipTypescript } from '../../libs/ingest/src/scip/testing/indexers';
import type { IngestService } from '@scopegraph/ingest';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

// SCIP import end to end: a real scip-typescript index of the polyglot fixture's TypeScript replaces
// name-based edges in the graph (provenance `scip`), a file edited since the index was made is
// stale (ignored, counted, its edges by name again), a run without the index returns to names, and
// bad index paths fail the run before anything is written, naming the field.

jest.setTimeout(120_000);

describe('SCIP import (real scip-typescript, Neo4j, Redis)', () => {
  const h = new IngestHarness();
  const repo = runId('scip');
  let dir: string;
  let index: string;
  // The name-based resolver alone beside SCIP (no TypeScript checker): what the index adds shows.
  let ingest: IngestService;

  beforeAll(async () => {
    await h.init();
    ({ ingest } = await h.serviceWith({ tsResolver: 'fast' }));
    dir = h.emptyDir();
    fs.cpSync(path.join(FIXTURE, 'ts'), dir, { recursive: true });
    index = runScipTypescript(dir, path.join(h.emptyDir(), 'index.scip'));
  });

  afterAll(() => h.dispose([repo]));

  const THROUGH_INTERFACE = { from: 'src/tracker.ts#Tracker.run|method', to: 'src/reactions.ts#Reaction.track|method' };

  async function edge(from: string, to: string) {
    const rows = await h.neo4j.runStatement<{ provenance: string; confidence: number; resolver: string }>(
      'MATCH (a:Scope {id: $from})-[r:CALLS]->(b:Scope {id: $to}) RETURN r.provenance AS provenance, r.confidence AS confidence, r.resolver AS resolver',
      { from: `${repo}:${from}`, to: `${repo}:${to}` },
    );
    return rows[0];
  }

  const byProvenance = async () => Object.fromEntries((await h.neo4j.runStatement<{ p: string; n: number }>(
    'MATCH (a:Scope {repoId: $repo})-[r:CALLS|REFERENCES|EXTENDS|IMPLEMENTS|OVERRIDES]->(:Scope) RETURN r.provenance AS p, count(*) AS n',
    { repo },
  )).map((r) => [r.p, Number(r.n)]));

  it('replaces name-based edges with the index\'s definitions, with provenance and confidence on every edge', async () => {
    const run = await ingest.index({ path: dir, name: repo, embed: false, scip: index });
    expect(run.scip).toMatchObject({ documents: 13, used: 13, stale: 0, unknown: 0, outOfRange: 0 });
    expect(run.scip!.answered).toBeGreaterThan(40);
    expect(await edge(THROUGH_INTERFACE.from, THROUGH_INTERFACE.to)).toEqual({ provenance: 'scip', confidence: 1, resolver: 'scip' });
    const counts = await byProvenance();
    expect(counts.scip).toBeGreaterThan(30);
    expect(counts.undefined ?? counts.null ?? 0).toBe(0);
    // External misses name their library; the coverage row counts SCIP's edges.
    const [origin] = await h.neo4j.runStatement<{ origin: string }>(
      "MATCH (:Scope {repoId: $repo, name: 'formatMoney'})-[r:CALLS]->(u:Unresolved {name: 'amount.toFixed'}) RETURN r.origin AS origin", { repo },
    );
    expect(origin.origin).toBe('typescript lib.es5.d.ts');
    const ts = (await h.repo.referenceCoverage(repo)).find((c) => c.language === 'typescript')!;
    expect(ts.byScip).toBe(counts.scip - (await h.neo4j.runStatement<{ n: number }>("MATCH (:Scope {repoId: $repo})-[r:OVERRIDES {provenance: 'scip'}]->() RETURN count(r) AS n", { repo }))[0].n);
    expect(ts.callsResolved).toBeGreaterThan(0);
  });

  it('ignores and counts a document whose file changed since the index was made; its edges go by name again', async () => {
    const file = path.join(dir, 'src/tracker.ts');
    fs.writeFileSync(file, `// edited after the index was made\n${fs.readFileSync(file, 'utf8')}`);
    ingest.clock = () => Date.now() + 10_000;
    const run = await ingest.index({ path: dir, name: repo, embed: false, scip: index });
    expect(run.scip).toMatchObject({ used: 12, stale: 1, stalePaths: ['src/tracker.ts'] });
    // Only the index knew that call (through an interface-typed value): gone with the stale document.
    expect(await edge(THROUGH_INTERFACE.from, THROUGH_INTERFACE.to)).toBeUndefined();
    const [fromTracker] = await h.neo4j.runStatement<{ n: number }>(
      "MATCH (a:Scope {repoId: $repo, path: 'src/tracker.ts'})-[r:CALLS|REFERENCES]->(:Scope) WHERE r.provenance = 'scip' RETURN count(r) AS n", { repo },
    );
    expect(Number(fromTracker.n)).toBe(0);
    expect((await byProvenance()).scip).toBeGreaterThan(20);
  });

  it('returns to name-based edges when a run has no index', async () => {
    const run = await ingest.index({ path: dir, name: repo, embed: false });
    expect(run.scip).toBeUndefined();
    const counts = await byProvenance();
    expect(counts.scip ?? 0).toBe(0);
    expect(counts.name).toBeGreaterThan(20);
  });

  it('refuses an index outside the allowed roots, a missing one and a file that is not SCIP, naming the field', async () => {
    const junk = path.join(h.emptyDir(), 'junk.scip');
    fs.writeFileSync(junk, '{"this is": "json"}');
    for (const scip of ['/etc/hostname', path.join(dir, 'nope.scip'), junk]) {
      const error = await ingest.index({ path: dir, name: repo, embed: false, scip }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: DomainErrorCode.InvalidScipIndex, field: 'scip' });
    }
    expect((await ingest.index({ path: dir, name: repo, embed: false, scip: junk }).catch((e: Error) => e.message))).toMatch(/not a SCIP index/);
  });
});
