/**
 * A V8 heap snapshot (.heapsnapshot) read into typed arrays: snapshots of a few hundred MiB of heap
 * pass V8's longest string (512 MiB) and their number arrays as JS arrays of doubles would take
 * several GiB, so the numbers are scanned from the bytes and only the header and the strings section
 * go through JSON.parse.
 */
import * as fs from 'node:fs';

export interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: Float64Array;
  edges: Float64Array;
  strings: string[];
}

/** Where each field sits in a node's and an edge's run of numbers, and the names of their types. */
export function snapshotLayout(snap: HeapSnapshot) {
  const { meta } = snap.snapshot;
  const [T, N, S, EC] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [ET, EN, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  return { nf: meta.node_fields.length, ef: meta.edge_fields.length, T, N, S, EC, ET, EN, ETO, nodeTypes: meta.node_types[0], edgeTypes: meta.edge_types[0] };
}

export function readHeapSnapshot(file: string): HeapSnapshot {
  const buf = fs.readFileSync(file);
  const section = (name: string) => buf.indexOf(`"${name}":[`) + name.length + 4;
  const nodesAt = section('nodes');
  const header = JSON.parse(`${buf.subarray(0, nodesAt - '"nodes":['.length).toString('utf8').replace(/,\s*$/, '')}}`) as Pick<HeapSnapshot, 'snapshot'> & {
    snapshot: { node_count?: number; edge_count?: number };
  };
  const { meta } = header.snapshot;
  const sized = (count: number | undefined, fields: number) => (count ? count * fields : 1 << 20);
  const stringsAt = section('strings') - 1;
  const end = buf.lastIndexOf(']') + 1;
  return {
    snapshot: header.snapshot,
    nodes: numbers(buf, nodesAt, sized(header.snapshot.node_count, meta.node_fields.length)),
    edges: numbers(buf, section('edges'), sized(header.snapshot.edge_count, meta.edge_fields.length)),
    strings: JSON.parse(buf.subarray(stringsAt, end).toString('utf8')) as string[],
  };
}

/** The non-negative integers of a JSON array starting at `from`, up to its closing bracket. */
function numbers(buf: Buffer, from: number, expected: number): Float64Array {
  let out = new Float64Array(expected);
  let k = 0;
  let n = 0;
  let inNumber = false;
  for (let i = from; ; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) {
        if (k === out.length) {
          const grown = new Float64Array(out.length * 2);
          grown.set(out);
          out = grown;
        }
        out[k++] = n;
      }
      n = 0;
      inNumber = false;
      if (c === 93) return out.subarray(0, k);
    }
  }
}
