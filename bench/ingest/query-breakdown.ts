/**
 * Where a slow search's time goes, round trip by round trip (bench:million --breakdown): every read a
 * search makes through Neo4jService is recorded with its statement, parameters, ms and rows; the
 * slowest queries are then asked again with each read PROFILEd (operators, rows, db hits, Neo4j's own
 * ms) and hybrid's joined statement split into its two lists, timed alone, one after the other and at
 * once (is the tail one list's, the sum of both, or the fetch's?).
 */
import neo4j, { type ProfiledPlan } from 'neo4j-driver';
import type { Neo4jService, Params } from '@scopegraph/graph';

export interface RoundTrip {
  name: string;
  statement: string;
  params: Params;
  ms: number;
  rows: number;
}

/** Labels a rendered statement (search's joined lists, expand) by the cypher/ files it came from. */
function renderedName(statement: string): string {
  if (statement.includes('db.index.fulltext.queryNodes') && /VECTOR INDEX|db\.index\.vector/.test(statement)) return 'search/both-lists';
  return 'rendered';
}

/** Records the reads of `neo4j` (read, readRendered) made between start() and stop(). */
export class RoundTripLog {
  private current: RoundTrip[] | null = null;

  constructor(private readonly neo4jService: Neo4jService) {
    const read = neo4jService.read.bind(neo4jService);
    const readRendered = neo4jService.readRendered.bind(neo4jService);
    neo4jService.read = ((name: string, params: Params = {}) => this.timed(name, neo4jService.text(name), params, () => read(name, params))) as Neo4jService['read'];
    neo4jService.readRendered = ((statement: string, params: Params = {}) =>
      this.timed(renderedName(statement), statement, params, () => readRendered(statement, params))) as Neo4jService['readRendered'];
  }

  start(): void {
    this.current = [];
  }

  stop(): RoundTrip[] {
    const out = this.current ?? [];
    this.current = null;
    return out;
  }

  private async timed<T>(name: string, statement: string, params: Params, run: () => Promise<T[]>): Promise<T[]> {
    const log = this.current;
    const t0 = performance.now();
    const rows = await run();
    log?.push({ name, statement, params, ms: round(performance.now() - t0), rows: rows.length });
    return rows;
  }
}

export interface OperatorRow {
  op: string;
  rows: number;
  dbHits: number;
  /** Page cache misses (reads from disk), when Neo4j reports them. */
  misses?: number;
  /** ms Neo4j reports for the operator (pipelined runtime: per pipeline, on its last operator). */
  ms?: number;
  details?: string;
}

export interface Profiled {
  name: string;
  /** Neo4j's own ms: until the first record plus until the last (resultAvailableAfter + resultConsumedAfter). */
  serverMs: number;
  /** Round trip as the client saw it. */
  clientMs: number;
  dbHits: number;
  ops: OperatorRow[];
}

/** PROFILEs one recorded read (the same statement and parameters, once). */
export async function profileRoundTrip(service: Neo4jService, trip: RoundTrip): Promise<Profiled> {
  const session = service.driver.session({ database: service.database, defaultAccessMode: neo4j.session.READ });
  try {
    const t0 = performance.now();
    const result = await session.run(`PROFILE ${trip.statement}`, trip.params);
    const clientMs = performance.now() - t0;
    const ops: OperatorRow[] = [];
    const walk = (p: ProfiledPlan) => {
      const args = p.arguments as Record<string, unknown>;
      const time = Number(args.Time ?? NaN);
      const details = typeof args.Details === 'string' ? args.Details.slice(0, 120) : undefined;
      ops.push({
        op: p.operatorType.replace(/@.*$/, ''),
        rows: Number(p.rows),
        dbHits: Number(p.dbHits),
        ...(p.pageCacheMisses ? { misses: Number(p.pageCacheMisses) } : {}),
        ...(Number.isFinite(time) && time > 0 ? { ms: round(time / 1e6) } : {}),
        ...(details ? { details } : {}),
      });
      for (const c of p.children) walk(c);
    };
    const profile = result.summary.profile;
    if (profile) walk(profile);
    const serverMs = Number(result.summary.resultAvailableAfter) + Number(result.summary.resultConsumedAfter);
    return { name: trip.name, serverMs, clientMs: round(clientMs), dbHits: ops.reduce((n, o) => n + o.dbHits, 0), ops };
  } finally {
    await session.close();
  }
}

/**
 * Hybrid's joined statement split into its two lists (the semantic file and the keyword file, with
 * the joined statement's parameters), each timed alone, the two one after the other, and the two at
 * once: `runs` rounds, the variants' order rotated per round; medians.
 */
export async function splitJoined(service: Neo4jService, trip: RoundTrip, semanticFile: string, keywordFile: string, runs = 3): Promise<Record<string, number>> {
  const semantic = () => service.readRendered(service.text(semanticFile), trip.params);
  const keyword = () => service.readRendered(service.text(keywordFile), trip.params);
  const variants: Record<string, () => Promise<unknown>> = {
    joined: () => service.readRendered(trip.statement, trip.params),
    semantic,
    keyword,
    sequential: async () => {
      await semantic();
      await keyword();
    },
    parallel: () => Promise.all([semantic(), keyword()]),
  };
  const names = Object.keys(variants);
  const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < runs; r++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(r + j) % names.length];
      const t0 = performance.now();
      await variants[name]();
      ms[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(names.map((n) => [n, round(median(ms[n]))]));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
