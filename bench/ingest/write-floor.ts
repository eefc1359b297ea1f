/**
 * What writing rxjs@7.8.2's src/ costs Neo4j at the least, and where that cost is: the floor under
 * `npm run bench:ingest`'s parse + write figure.
 *
 *   npm run build && node dist/bench/ingest/write-floor.js [--rounds 6]
 *
 * rxjs is indexed once (embeddings off) and its nodes and scope-to-scope edges read back, so each
 * variant writes what an index run writes (edges to Unresolved or external nodes left out). Each
 * round writes the same 932 nodes in one UNWIND `CREATE` under labels that differ only in their
 * indexes (named `write_floor_*`, made for the bench and dropped after):
 *   - `Scope`: the live schema (unique id, four range indexes, the full-text index);
 *   - no index; the unique id and the range indexes only; the full-text index only;
 * then the edges between the `Scope` copies (containment included), with and without their
 * properties. Neo4j is left to go idle before each write; its CPU comes from /proc (10 ms ticks).
 * The parse floor is ParserService in this process, warm, one thread. The first round warms query
 * plans and is not counted. Prints a table and a JSON line.
 * Needs Neo4j and Redis up.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { walkRepository } from '@scopegraph/ingest';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, neo4jCpuMs, npmPackageSources, printTable, settleNeo4j } from '../support/bench-util';

const PREFIX = 'write-floor';
/** Bench-only labels and their indexes (created here, dropped at the end). */
const SCHEMA: Record<string, string[]> = {
  WriteFloorBare: [],
  WriteFloorRange: [
    'CREATE CONSTRAINT write_floor_id IF NOT EXISTS FOR (s:WriteFloorRange) REQUIRE s.id IS UNIQUE',
    'CREATE INDEX write_floor_repo IF NOT EXISTS FOR (s:WriteFloorRange) ON (s.repoId)',
    'CREATE INDEX write_floor_path IF NOT EXISTS FOR (s:WriteFloorRange) ON (s.repoId, s.path)',
    'CREATE INDEX write_floor_name IF NOT EXISTS FOR (s:WriteFloorRange) ON (s.name)',
    'CREATE INDEX write_floor_qname IF NOT EXISTS FOR (s:WriteFloorRange) ON (s.qualifiedName)',
  ],
  WriteFloorText: [
    "CREATE FULLTEXT INDEX write_floor_text IF NOT EXISTS FOR (s:WriteFloorText) ON EACH [s.name, s.nameTokens, s.signature, s.docComment, s.source, s.repoId] OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words' } }",
  ],
};
const DROP = ['DROP CONSTRAINT write_floor_id IF EXISTS', ...['repo', 'path', 'name', 'qname', 'text'].map((n) => `DROP INDEX write_floor_${n} IF EXISTS`)];

type Row = { props: Record<string, unknown>; labels: string[] };
type Edge = { from: string; to: string; type: string; props: Record<string, unknown> };

async function main(): Promise<void> {
  const rounds = Math.max(2, Number(arg('rounds', '6')));
  const root = path.join(npmPackageSources('rxjs@7.8.2'), 'src');
  const repo = `${PREFIX}-rxjs`;
  const h = new IngestHarness(`${PREFIX}-${process.pid}`);
  await h.init(createEmbeddingProvider({ provider: 'hash', dimensions: 384 }));
  const run = (q: string, params: Record<string, unknown> = {}) => h.neo4j.runStatement(q, params);
  const copies = `${PREFIX}-copy`;
  const clear = async () => {
    // The copies in every bench label, and their edges: batches, so no transaction grows large.
    for (;;) {
      const [row] = await run(
        'MATCH (s) WHERE s.repoId = $repo AND (s:Scope OR s:WriteFloorBare OR s:WriteFloorRange OR s:WriteFloorText) WITH s LIMIT 2000 DETACH DELETE s RETURN count(*) AS n',
        { repo: copies },
      );
      if (Number(row?.n ?? 0) === 0) return;
    }
  };
  try {
    await h.repo.deleteRepository(repo);
    await h.ingest.index({ path: root, name: repo, embed: false });
    const scopes = await run('MATCH (s:Scope {repoId: $repo}) RETURN properties(s) AS props, labels(s) AS labels', { repo });
    const scopeEdges = await run(
      'MATCH (a:Scope {repoId: $repo})-[r]->(b:Scope) RETURN a.id AS from, b.id AS to, type(r) AS type, properties(r) AS props',
      { repo },
    );
    await h.repo.deleteRepository(repo);
    const copyId = (id: string) => `${copies}:${id}`;
    const rows: Row[] = scopes.map((s) => ({
      props: { ...(s.props as Record<string, unknown>), id: copyId((s.props as { id: string }).id), repoId: copies },
      labels: (s.labels as string[]).filter((l) => l !== 'Scope'),
    }));
    const edges: Edge[] = scopeEdges.map((e) => ({ from: copyId(e.from as string), to: copyId(e.to as string), type: e.type as string, props: e.props as Record<string, unknown> }));

    // Parse floor: every file the index read, parsed in this process (warm: one untimed pass).
    const walk = await walkRepository(root, (p) => h.parser.supports(p), { maxFileBytes: h.config.ingest.maxFileBytes, maxFiles: h.config.ingest.maxFiles });
    const parseOnce = () => {
      const started = performance.now();
      for (const f of walk.files) h.parser.parseFile(f.path, f.content);
      return performance.now() - started;
    };
    parseOnce();
    const parseMs = median(Array.from({ length: rounds }, parseOnce));

    await clear();
    for (const statements of Object.values(SCHEMA)) for (const q of statements) await run(q);
    await run('CALL db.awaitIndexes(120)');

    const samples: Record<string, { cpu: number; wall: number }[]> = {};
    const measure = async (name: string, q: string, params: Record<string, unknown>, counted: boolean) => {
      await settleNeo4j();
      const [cpu, started] = [neo4jCpuMs(), performance.now()];
      await run(q, params);
      if (counted) (samples[name] ??= []).push({ cpu: neo4jCpuMs() - cpu, wall: performance.now() - started });
    };
    // Kind labels only on the live copy: `File` has indexes of its own.
    const nodes = (label: string) => `UNWIND $rows AS row CREATE (s:${label}) SET s = row.props${label === 'Scope' ? ' SET s:$(row.labels)' : ''}`;
    for (let round = 0; round < rounds; round++) {
      const counted = round > 0;
      for (const label of Object.keys(SCHEMA)) {
        await measure(`nodes, ${label}`, nodes(label), { rows }, counted);
        await clear();
      }
      await measure('nodes, Scope (live schema)', nodes('Scope'), { rows }, counted);
      const edgeQuery = (withProps: boolean) =>
        `UNWIND $rows AS row MATCH (a:Scope {id: row.from}) MATCH (b:Scope {id: row.to}) CREATE (a)-[r:$(row.type)]->(b)${withProps ? ' SET r = row.props' : ''}`;
      await measure('scope-to-scope edges, with properties', edgeQuery(true), { rows: edges }, counted);
      await run('MATCH (a:Scope {repoId: $repo})-[r]->(:Scope) DELETE r', { repo: copies });
      await measure('scope-to-scope edges, no properties', edgeQuery(false), { rows: edges }, counted);
      await clear();
    }

    const label = (k: string) => k.replace('WriteFloorBare', 'no index').replace('WriteFloorRange', 'unique id + 4 range indexes').replace('WriteFloorText', 'full-text index only');
    const summary = Object.fromEntries(
      Object.entries(samples).map(([k, xs]) => [label(k), { neo4jCpuMs: Math.round(median(xs.map((x) => x.cpu))), wallMs: Math.round(median(xs.map((x) => x.wall))) }]),
    );
    const live = summary['nodes, Scope (live schema)'];
    const edgesLive = summary['scope-to-scope edges, with properties'];
    const writeCpu = live.neo4jCpuMs + edgesLive.neo4jCpuMs;
    // Two cores, everything overlapped perfectly: the least wall time parse + write can take.
    const cores = os.availableParallelism();
    const floorWallMs = Math.round((parseMs + writeCpu) / cores);
    const result = {
      corpus: 'rxjs@7.8.2/src',
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
      rounds: rounds - 1,
      nodes: rows.length,
      scopeEdges: edges.length,
      parseMsOneThread: Math.round(parseMs),
      writes: summary,
      cores,
      floorWallMs,
      floorScopesPerSec: Math.round((rows.length / floorWallMs) * 1000),
    };
    printTable([
      ['write (median)', 'Neo4j CPU ms', 'wall ms'],
      ...Object.entries(summary).map(([k, v]) => [k, v.neo4jCpuMs, v.wallMs]),
      ['parse, one thread, in process', '', result.parseMsOneThread],
      [`floor: (parse + node and edge CPU) / ${cores} cores`, '', floorWallMs],
      ['floor scopes/s (nothing else, perfect overlap)', '', result.floorScopesPerSec],
    ]);
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await clear().catch(() => undefined);
    for (const q of DROP) await run(q).catch(() => undefined);
    await h.dispose([repo]);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
