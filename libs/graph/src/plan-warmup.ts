import { Logger } from '@nestjs/common';
import type { Neo4jService, Params } from './neo4j.service';

/** A named query and parameters of the types its real calls pass (Neo4j caches a plan per parameter types). */
export interface PlanWarmup {
  name: string;
  params: Params;
  /** A statement rendered from cypher/ files (several joined into one); `name` then only labels it. */
  text?: string;
  /**
   * Run it (with parameters that match nothing) instead of EXPLAIN: on Neo4j 2025.x an EXPLAIN's plan
   * did not serve the query's first real run (measured: EXPLAIN 57 ms, then the run still 54 ms, its
   * second run 5 ms), and the cache keeps a plan per size class of each list parameter (sizes 1,
   * 2-10, 11-... planned apart), so a warm-up must run each size class its real calls use.
   */
  run?: boolean;
}

/** All warming stops after this long: a loaded or unreachable Neo4j must not be kept busy by it. */
const WARMUP_DEADLINE_MS = 60_000;

/**
 * Plans the given queries once (EXPLAIN, one after another), so that their first real call after
 * Neo4j starts does not pay the planning (1-4 s for impact's walk on a loaded machine). Meant to run
 * in the background after the process is ready: it never throws, logs what it warmed and what failed,
 * and gives up past its deadline.
 */
export async function warmQueryPlans(
  neo4j: Pick<Neo4jService, 'text' | 'explainRendered' | 'readRendered'>,
  queries: PlanWarmup[],
  logger: Pick<Logger, 'log' | 'warn'> = new Logger('PlanWarmup'),
  deadlineMs = WARMUP_DEADLINE_MS,
): Promise<{ name: string; ms: number | null }[]> {
  const started = performance.now();
  const out: { name: string; ms: number | null }[] = [];
  for (const q of queries) {
    const left = deadlineMs - (performance.now() - started);
    if (left <= 0) {
      logger.warn(`query plans: deadline (${deadlineMs} ms) passed, not warmed: ${queries.slice(out.length).map((x) => x.name).join(', ')}`);
      break;
    }
    try {
      const text = q.text ?? neo4j.text(q.name);
      const t0 = performance.now();
      await (q.run ? neo4j.readRendered(text, q.params) : neo4j.explainRendered(text, q.params, Math.ceil(left)));
      out.push({ name: q.name, ms: Math.round(performance.now() - t0) });
    } catch (error) {
      out.push({ name: q.name, ms: null });
      logger.warn(`query plan of ${q.name} not warmed: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const warmed = out.filter((x) => x.ms !== null);
  if (warmed.length > 0) logger.log(`query plans warmed in ${Math.round(performance.now() - started)} ms: ${warmed.map((x) => `${x.name} ${x.ms} ms`).join(', ')}`);
  return out;
}
