/**
 * What a repository's graph holds, as counts and one digest, to tell two builds' graphs of the same
 * corpus apart without eyeballing them: nodes by label set, edges by type and end label, and a digest
 * of every edge (source id, type, target id, line, reason, resolver) over the whole repository.
 *
 *   node dist/bench/ingest/graph-digest.js --repo <id> [--save <file.json>] [--expect <file.json>]
 *
 * The digest is the sum (mod 2^128) of each edge's sha256 prefix: independent of the order Neo4j
 * returns edges in, a duplicate edge changes it, and it needs no sort of millions of strings. Ids are
 * hashed without their `<repo>:` prefix, so the same corpus indexed under two names compares equal
 * (no 200k-scope delete between a before and an after run).
 * `--expect` exits 1 when anything differs from a digest saved by an earlier run (`--save`).
 * Prints a table and one JSON line.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { arg, printTable } from '../support/bench-util';

const MOD = 1n << 128n;

export interface GraphDigest {
  repo: string;
  nodes: Record<string, number>;
  edges: Record<string, number>;
  edgeTotal: number;
  digest: string;
}

async function main(): Promise<void> {
  const repo = arg('repo', '');
  if (!repo) throw new Error('--repo <repository id> is required');
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  await neo4j.waitUntilReady();
  try {
    const nodes: Record<string, number> = {};
    for (const r of await neo4j.runStatement<{ labels: string[]; n: number }>(
      'MATCH (n {repoId: $repo}) WITH labels(n) AS ls, count(*) AS n RETURN ls AS labels, n', { repo },
    )) nodes[[...r.labels].sort().join(':')] = Number(r.n);
    const edges: Record<string, number> = {};
    let sum = 0n;
    let total = 0;
    const prefix = `${repo}:`;
    const local = (id: string) => (id.startsWith(prefix) ? id.slice(prefix.length) : id);
    const session = neo4j.session('READ');
    try {
      // Streamed: a million-scope repository has millions of edges.
      const result = session.run(
        `MATCH (a {repoId: $repo})-[r]->(b)
         RETURN a.id AS from, type(r) AS type, b.id AS to, labels(b) AS toLabels, r.line AS line, r.reason AS reason, r.resolver AS resolver`,
        { repo },
      );
      for await (const rec of result) {
        const o = rec.toObject() as { from: string; type: string; to: string; toLabels: string[]; line: unknown; reason: unknown; resolver: unknown };
        const key = `${o.type}->${[...o.toLabels].filter((l) => l !== 'Scope' || o.toLabels.length === 1).sort().join(':')}`;
        edges[key] = (edges[key] ?? 0) + 1;
        const h = createHash('sha256').update(`${local(o.from)}\u0000${o.type}\u0000${local(o.to)}\u0000${o.line ?? ''}\u0000${o.reason ?? ''}\u0000${o.resolver ?? ''}`).digest();
        sum = (sum + BigInt(`0x${h.subarray(0, 16).toString('hex')}`)) % MOD;
        total++;
      }
    } finally {
      await session.close();
    }
    const out: GraphDigest = { repo, nodes: sorted(nodes), edges: sorted(edges), edgeTotal: total, digest: sum.toString(16).padStart(32, '0') };
    printTable([['what', 'count'], ...Object.entries(out.nodes).map(([k, n]) => [`nodes ${k}`, n]), ...Object.entries(out.edges).map(([k, n]) => [`edges ${k}`, n]), ['edges', total], ['digest', out.digest]]);
    const save = arg('save', '');
    if (save) fs.writeFileSync(save, JSON.stringify(out, null, 1));
    const expect = arg('expect', '');
    let same: boolean | undefined;
    if (expect) {
      const before = JSON.parse(fs.readFileSync(expect, 'utf8')) as GraphDigest;
      same = JSON.stringify({ ...before, repo }) === JSON.stringify(out);
    }
    console.log(JSON.stringify({ ...out, ...(same === undefined ? {} : { same }) }));
    if (same === false) process.exitCode = 1;
  } finally {
    await neo4j.onModuleDestroy();
  }
}

function sorted(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
