/**
 * What a heap snapshot (heap-probe's `--snapshot-at`) holds, grouped: self size by node type and,
 * for plain objects, by shape (their first property names), so "scope objects" and "reference
 * records" show as rows; strings by length class and how many are duplicates of another.
 * Self sizes, not retained ones: a dominator tree over tens of millions of nodes does not fit the
 * time this is run in, and the groups here are leaves (their strings show as their own rows).
 *
 *   node --max-old-space-size=6000 dist/bench/ingest/heap-summary.js --file <x.heapsnapshot> [--top 30] [--per-scopes N]
 *
 * Prints a table and one JSON line; `--per-scopes` adds a column in MiB per 100k scopes.
 */
import { arg, printTable } from '../support/bench-util';
import { readHeapSnapshot, snapshotLayout } from '../support/heap-snapshot';

function main(): void {
  const file = arg('file', '');
  const top = Number(arg('top', '30'));
  const perScopes = Number(arg('per-scopes', '0'));
  const snap = readHeapSnapshot(file);
  const { nf, ef, T, N, S, EC, ET, EN, nodeTypes, edgeTypes } = snapshotLayout(snap);
  const groups = new Map<string, { n: number; bytes: number }>();
  const add = (key: string, bytes: number) => {
    const g = groups.get(key) ?? { n: 0, bytes: 0 };
    g.n++;
    g.bytes += bytes;
    groups.set(key, g);
  };
  const stringCount = new Map<string, number>();
  let dupBytes = 0;
  let edge = 0;
  for (let i = 0; i < snap.nodes.length; i += nf) {
    const type = nodeTypes[snap.nodes[i + T]];
    const name = snap.strings[snap.nodes[i + N]];
    const self = snap.nodes[i + S];
    const count = snap.nodes[i + EC];
    if (type === 'object' && name === 'Object') {
      const props: string[] = [];
      for (let e = edge; e < edge + count * ef && props.length < 4; e += ef) {
        if (edgeTypes[snap.edges[e + ET]] === 'property') props.push(snap.strings[snap.edges[e + EN]]);
      }
      add(`{${props.join(',')}}`, self);
    } else if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
      const seen = stringCount.get(name) ?? 0;
      stringCount.set(name, seen + 1);
      if (seen > 0) dupBytes += self;
      add(`string ${name.length <= 16 ? '<=16' : name.length <= 64 ? '17-64' : name.length <= 256 ? '65-256' : '>256'} chars`, self);
    } else {
      add(`${type} ${name.length > 40 ? `${name.slice(0, 40)}…` : name}`, self);
    }
    edge += count * ef;
  }
  const total = [...groups.values()].reduce((a, g) => a + g.bytes, 0);
  const mib = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
  const rows = [...groups.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
  const per = (b: number) => (perScopes ? mib((b * 100_000) / perScopes) : '-');
  printTable([
    ['group (self size)', 'count', 'MiB', 'MiB per 100k scopes'],
    ...rows.map(([k, g]) => [k, g.n, mib(g.bytes), per(g.bytes)]),
    ['duplicate strings (copies beyond the first)', [...stringCount.values()].reduce((a, c) => a + c - 1, 0), mib(dupBytes), per(dupBytes)],
    ['total', snap.nodes.length / nf, mib(total), per(total)],
  ]);
  console.log(JSON.stringify({ file, totalMiB: mib(total), duplicateStringMiB: mib(dupBytes), top: rows.map(([k, g]) => ({ group: k, count: g.n, mib: mib(g.bytes) })) }));
}

main();
