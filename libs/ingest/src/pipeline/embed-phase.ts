import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { embedVectors } from '@scopegraph/observability';
import type { EmbeddingProvider } from '@scopegraph/llm';
import { EmbedRange, IngestRepository, ScopeToEmbed } from '../graph/ingest.repository';
import { identifierSubTokens } from '@scopegraph/code-model';
import { EmbeddingCache } from './embedding-cache';
import { EMBED_SOURCE_CHARS, embeddingText } from './embedding-text';

/**
 * Scopes per round. One round goes to the provider in one call, so the local model sorts the whole
 * round by token count before cutting batches: the larger the round, the less padding.
 */
export const EMBED_ROUND = 1_024;

export interface EmbedPhaseStats {
  /** Scopes that got a vector this run (from the model, the graph or the cache). */
  embedded: number;
  /** Of those, vectors sent to the model for (one per distinct text). */
  computed: number;
  /** Of those, vectors copied from a scope in the graph with the same (model, dimensions, text) hash. */
  graphReused: number;
  /** Of those, vectors found in the Redis (model, text hash) cache (texts no scope in the graph holds any more). */
  cacheHits: number;
  /** Of those, copies of a text embedded in the same round (embedded once). */
  duplicates: number;
  /** Scopes that held a vector from another model and were re-embedded. */
  modelSwitched: number;
  /** Wall time spent waiting on each stage (ms): where the phase's time goes. */
  profileMs: { readWait: number; text: number; cache: number; model: number; writeWait: number };
  error?: string;
}

export interface EmbedPhaseHooks {
  /** Called once the number of scopes to embed is known. */
  onTotal(total: number): void | Promise<void>;
  /** `reused`: of `done`, vectors copied rather than computed. */
  onEmbedded(done: number, reused?: number): void | Promise<void>;
}

export function emptyEmbedStats(): EmbedPhaseStats {
  return { embedded: 0, computed: 0, graphReused: 0, cacheHits: 0, duplicates: 0, modelSwitched: 0, profileMs: { readWait: 0, text: 0, cache: 0, model: 0, writeWait: 0 } };
}

/** Vectors copied from earlier runs (EMBED_REUSE): from the graph or the Redis cache. */
export function reusedOf(stats: Pick<EmbedPhaseStats, 'graphReused' | 'cacheHits'>): number {
  return stats.graphReused + stats.cacheHits;
}

/**
 * The key of a vector for content-addressed reuse: the model, its dimensions and the exact text sent
 * to it. Equal keys give equal vectors, whichever repository, snapshot or branch the text came from.
 */
export function embeddingHash(model: string, dimensions: number, text: string): string {
  return createHash('sha256').update(model).update('\u0000').update(String(dimensions)).update('\u0000').update(text).digest('hex');
}

interface Round {
  rows: ScopeToEmbed[];
  vectors: number[][];
  /** Per row: its embedding hash, stored with the vector. */
  hashes: string[];
  /** Computed vectors, for the Redis cache. */
  fresh: { hash: string; vector: number[] }[];
  graphReused: number;
  cacheHits: number;
}

export interface EmbedPhaseOptions {
  /** EMBED_REUSE: look vectors up (graph, then Redis cache) before computing; off computes every one (identical texts in a round still once). */
  reuse?: boolean;
}

/**
 * The embedding phase as a pipeline: the next page of scopes is read from Neo4j while the current
 * one is embedded, and a round's vectors are written (one UNWIND per round) while the next round
 * runs through the model, so the model never waits on the graph. Identical texts already embedded
 * by the same model anywhere come from the cache.
 */
export class EmbedPhase {
  private readonly logger = new Logger(EmbedPhase.name);

  constructor(
    private readonly repo: IngestRepository,
    private readonly embedder: EmbeddingProvider,
    private readonly cache: EmbeddingCache,
    private readonly roundSize = EMBED_ROUND,
    private readonly options: EmbedPhaseOptions = {},
  ) {}

  private get reuse(): boolean {
    return this.options.reuse !== false;
  }

  /** The whole repository's pending scopes, or (with `range`) one slice's (see EmbedFanOut). */
  async run(repoId: string, hooks: EmbedPhaseHooks, range?: EmbedRange): Promise<EmbedPhaseStats> {
    const model = this.embedder.model;
    const stats = emptyEmbedStats();
    const { pending, otherModel } = range ? await this.repo.countScopesToEmbedInRange(repoId, model, range) : await this.repo.countScopesToEmbed(repoId, model);
    stats.modelSwitched = otherModel;
    if (otherModel > 0) this.logger.warn(`${repoId}: ${otherModel} scopes hold vectors of another model; re-embedding them with ${model}`);
    await hooks.onTotal(pending);
    if (pending === 0) return stats;

    const timed = async <T>(stage: keyof EmbedPhaseStats['profileMs'], work: () => Promise<T> | T): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        stats.profileMs[stage] += performance.now() - started;
      }
    };
    const read = (after: string) =>
      range
        ? this.repo.scopesToEmbedInRange(repoId, model, range, after, this.roundSize, EMBED_SOURCE_CHARS)
        : this.repo.scopesToEmbed(repoId, model, after, this.roundSize, EMBED_SOURCE_CHARS);
    let nextPage = handled(read(''));
    let writing: Promise<void> = Promise.resolve();
    try {
      for (;;) {
        const rows = await timed('readWait', () => nextPage);
        if (rows.length === 0) break;
        // Keyset paging does not depend on this page's writes: the next read overlaps the model.
        nextPage = handled(read(rows[rows.length - 1].id));
        const round = await this.embedRound(rows, model, timed);
        if (typeof round === 'string') {
          stats.error = round;
          break;
        }
        stats.graphReused += round.graphReused;
        stats.cacheHits += round.cacheHits;
        stats.computed += round.fresh.length;
        stats.duplicates += rows.length - round.graphReused - round.cacheHits - round.fresh.length;
        embedVectors.inc({ source: 'model' }, round.fresh.length);
        embedVectors.inc({ source: 'graph' }, round.graphReused);
        embedVectors.inc({ source: 'cache' }, round.cacheHits);
        embedVectors.inc({ source: 'duplicate' }, rows.length - round.graphReused - round.cacheHits - round.fresh.length);
        // At most one write in flight: bounded memory, and a failed write stops the phase early.
        await timed('writeWait', () => writing);
        writing = handled(this.write(round, model));
        stats.embedded += rows.length;
        await hooks.onEmbedded(stats.embedded, reusedOf(stats));
      }
    } finally {
      // Leave no read or write running behind the caller's back (a failed one rethrows below).
      await timed('writeWait', () => writing);
    }
    return stats;
  }

  /** Vectors for one page, in page order; a string is the provider's error (scopes stay pending). */
  private async embedRound(
    rows: ScopeToEmbed[],
    model: string,
    timed: <T>(stage: keyof EmbedPhaseStats['profileMs'], work: () => Promise<T> | T) => Promise<T>,
  ): Promise<Round | string> {
    const dimensions = this.embedder.dimensions;
    const { texts, hashes, keys } = await timed('text', () => {
      const t = rows.map((s) => embeddingText(s, identifierSubTokens));
      return { texts: t, hashes: t.map((x) => EmbeddingCache.textHash(model, x)), keys: t.map((x) => embeddingHash(model, dimensions, x)) };
    });
    // Reuse: the graph first (durable, every text any repository holds), then the Redis cache (texts
    // whose scopes were deleted since). Each takes the distinct texts the previous one lacked.
    const found: (number[] | undefined)[] = rows.map(() => undefined);
    let graphReused = 0;
    let cacheHits = 0;
    if (this.reuse) {
      await timed('cache', async () => {
        const inGraph = await this.repo.embeddingsByHash([...new Set(keys)], model);
        for (let i = 0; i < rows.length; i++) {
          const v = inGraph.get(keys[i]);
          if (v && v.length === dimensions) {
            found[i] = v;
            graphReused++;
          }
        }
        const rest = rows.flatMap((_, i) => (found[i] ? [] : [i]));
        const cached = await this.cache.getMany(rest.map((i) => hashes[i]), dimensions);
        rest.forEach((i, k) => {
          if (cached[k]) {
            found[i] = cached[k];
            cacheHits++;
          }
        });
      });
    }
    const cached = found;
    const missing = cached.flatMap((v, i) => (v ? [] : [i]));
    // Identical texts inside the round run through the model once.
    const uniqueByHash = new Map<string, number>();
    for (const i of missing) if (!uniqueByHash.has(hashes[i])) uniqueByHash.set(hashes[i], i);
    // Remote providers batch in arrival order: sorting by length keeps their batches evenly padded
    // too (the local provider sorts by token count itself).
    const toEmbed = [...uniqueByHash.values()].sort((a, b) => texts[a].length - texts[b].length);
    let vectors: number[][] = [];
    if (toEmbed.length > 0) {
      try {
        vectors = await timed('model', () => this.embedder.embedDocuments(toEmbed.map((i) => texts[i])));
      } catch (error) {
        this.logger.warn(`embedding failed: ${(error as Error).message}`);
        return (error as Error).message;
      }
      const bad = vectors.findIndex((v) => !Array.isArray(v) || v.length !== this.embedder.dimensions);
      if (vectors.length !== toEmbed.length || bad !== -1) {
        return `${this.embedder.name} returned ${vectors.length} vectors for ${toEmbed.length} texts` + (bad === -1 ? '' : ` (vector ${bad} has ${vectors[bad]?.length ?? 0} of ${this.embedder.dimensions} numbers)`);
      }
    }
    const byHash = new Map(toEmbed.map((i, k) => [hashes[i], vectors[k]]));
    const fresh = toEmbed.map((i, k) => ({ hash: hashes[i], vector: vectors[k] }));
    return { rows, vectors: rows.map((_, i) => cached[i] ?? byHash.get(hashes[i])!), hashes: keys, fresh, graphReused, cacheHits };
  }

  private async write(round: Round, model: string): Promise<void> {
    // The hash is stored even with reuse off: turning it on later finds these vectors.
    await this.repo.setEmbeddings(round.rows.map((s, i) => ({ id: s.id, embedding: round.vectors[i], hash: round.hashes[i] })), model);
    if (this.reuse) await this.cache.setMany(round.fresh);
  }
}

/** Marks a promise that is awaited later as handled, so a failure meanwhile is not an unhandled rejection. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
