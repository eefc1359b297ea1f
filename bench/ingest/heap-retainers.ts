/**
 * Who keeps an object alive in a heap snapshot (heap-probe's `--snapshot-at`): for the plain objects
 * of a shape (their first property names, as heap-summary groups them) or of a class name, the
 * shortest retainer chain from the GC roots of a few of them, the chains of all of them grouped
 * (array indices folded), and every retainer of the first one a few steps up (the shortest chain
 * names one holder; the tree shows whether another one would keep the object after that is cut).
 *
 *   node --max-old-space-size=8000 dist/bench/ingest/heap-retainers.js --file <x.heapsnapshot> \
 *     --find 'path,language,contentHash,scopes;class:Misses' [--depth 6] [--show 2]
 *
 * Prints the chains and one JSON line.
 */
import { arg } from '../support/bench-util';
import { readHeapSnapshot, snapshotLayout } from '../support/heap-snapshot';

function main(): void {
  const file = arg('file', '');
  const finds = arg('find', 'path,language,contentHash,scopes').split(';').filter(Boolean);
  const depth = Number(arg('depth', '6'));
  const show = Number(arg('show', '2'));
  const snap = readHeapSnapshot(file);
  const { nf, ef, T, N, S, EC, ET, EN, ETO, nodeTypes, edgeTypes } = snapshotLayout(snap);
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * nf + EC] * ef;
  const weak = edgeTypes.indexOf('weak');
  const typeOf = (i: number) => nodeTypes[nodes[i * nf + T]];
  const nameOf = (i: number) => strings[nodes[i * nf + N]];
  const props = (i: number, at = 4) => {
    const out: string[] = [];
    for (let e = firstEdge[i]; e < firstEdge[i + 1] && out.length < at; e += ef) if (edgeTypes[edges[e + ET]] === 'property') out.push(strings[edges[e + EN]]);
    return out;
  };
  const edgeLabel = (e: number) => {
    const t = edgeTypes[edges[e + ET]];
    const n = edges[e + EN];
    if (t === 'element' || t === 'hidden') return `[${n}]`;
    if (t === 'context') return `<ctx ${strings[n]}>`;
    if (t === 'internal') return `(${strings[n]})`;
    return `.${strings[n]}`;
  };
  const nodeLabel = (i: number) => {
    const t = typeOf(i);
    const name = nameOf(i);
    if (t === 'object' && name === 'Object') return `{${props(i).join(',')}}`;
    if (t === 'string') return `string`;
    return `${t} ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
  };

  // Shortest paths from the root over strong edges (breadth first): a parent and its edge per node.
  const parent = new Int32Array(count).fill(-1);
  const via = new Int32Array(count).fill(-1);
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  parent[0] = 0;
  while (head < tail) {
    const i = queue[head++];
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
      if (edges[e + ET] === weak) continue;
      const to = edges[e + ETO] / nf;
      if (parent[to] !== -1) continue;
      parent[to] = i;
      via[to] = e;
      queue[tail++] = to;
    }
  }
  const chain = (i: number, fold: boolean) => {
    const parts: string[] = [];
    for (let n = i; n !== 0; n = parent[n]) {
      const label = edgeLabel(via[n]);
      parts.push(`${nodeLabel(parent[n])} ${fold ? label.replace(/^\[\d+\]$/, '[n]') : label}`);
    }
    return parts.reverse();
  };

  // Every retainer of a node: the strong edges reversed once, when a tree is asked for.
  let reverse: { start: Uint32Array; from: Uint32Array; edge: Uint32Array } | undefined;
  const reversed = () => {
    const start = new Uint32Array(count + 1);
    for (let e = 0; e < edges.length; e += ef) if (edges[e + ET] !== weak) start[edges[e + ETO] / nf + 1]++;
    for (let i = 0; i < count; i++) start[i + 1] += start[i];
    const next = start.slice(0, count);
    const from = new Uint32Array(start[count]);
    const edge = new Uint32Array(start[count]);
    for (let i = 0; i < count; i++) {
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
        if (edges[e + ET] === weak) continue;
        const k = next[edges[e + ETO] / nf]++;
        from[k] = i;
        edge[k] = e;
      }
    }
    return { start, from, edge };
  };
  const retainers = (target: number) => {
    const r = (reverse ??= reversed());
    const out: { from: number; e: number }[] = [];
    for (let k = r.start[target]; k < r.start[target + 1]; k++) out.push({ from: r.from[k], e: r.edge[k] });
    return out;
  };

  const report: Record<string, unknown>[] = [];
  for (const find of finds) {
    const wantClass = find.startsWith('class:') ? find.slice('class:'.length) : undefined;
    const shape = wantClass ? [] : find.split(',');
    const matched: number[] = [];
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      if (typeOf(i) !== 'object') continue;
      if (wantClass ? nameOf(i) !== wantClass : nameOf(i) !== 'Object' || props(i, shape.length).join(',') !== shape.join(',')) continue;
      matched.push(i);
      bytes += nodes[i * nf + S];
    }
    const reachable = matched.filter((i) => parent[i] !== -1);
    console.log(`\n=== ${find}: ${matched.length} objects (${(bytes / 2 ** 20).toFixed(1)} MiB self), ${reachable.length} reachable from the roots`);
    for (const i of reachable.slice(0, show)) console.log(`shortest chain of @${i}:\n  ${chain(i, false).join('\n  ')}`);
    const grouped = new Map<string, number>();
    for (const i of reachable) {
      const key = chain(i, true).join(' / ');
      grouped.set(key, (grouped.get(key) ?? 0) + 1);
    }
    const top = [...grouped.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`chains of all ${reachable.length}, grouped (${grouped.size} distinct):`);
    for (const [key, n] of top) console.log(`  ${n} × ${key}`);
    if (reachable.length && depth > 0) {
      console.log(`every retainer of @${reachable[0]}, ${depth} steps up:`);
      const seen = new Set<number>([reachable[0]]);
      const walk = (i: number, level: number) => {
        if (level >= depth) return;
        const rs = retainers(i);
        for (const { from, e } of rs.slice(0, 8)) {
          const again = seen.has(from);
          console.log(`${'  '.repeat(level + 1)}${edgeLabel(e)} of ${nodeLabel(from)} @${from}${again ? ' (seen)' : ''}`);
          if (!again) {
            seen.add(from);
            walk(from, level + 1);
          }
        }
        if (rs.length > 8) console.log(`${'  '.repeat(level + 1)}… ${rs.length - 8} more`);
      };
      walk(reachable[0], 0);
    }
    report.push({ find, objects: matched.length, reachable: reachable.length, selfMiB: Math.round((bytes / 2 ** 20) * 10) / 10, chains: top.map(([chain, n]) => ({ n, chain })) });
  }
  console.log(JSON.stringify({ file, report }));
}

main();
