import { Worker } from 'bullmq';
import { loadConfig } from '@scopegraph/config';
import { EmbedChunkJobData } from '@scopegraph/queue';
import { EmbedFanOut, EmbedModelMismatchError, EmbeddingCache } from '@scopegraph/ingest';
import { EmbeddingProvider, HashEmbeddingProvider } from '@scopegraph/llm';
import { bullQueueName, createRedisConnection, QueueName } from '@scopegraph/queue';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

/** The real hash embedder, counting the texts that reach it. */
class CountingEmbedder implements EmbeddingProvider {
  readonly name = 'hash' as const;
  readonly model = 'feature-hash-v1';
  texts = 0;
  private readonly inner: HashEmbeddingProvider;

  constructor(readonly dimensions: number) {
    this.inner = new HashEmbeddingProvider(dimensions);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.texts += texts.length;
    return this.inner.embedDocuments(texts);
  }

  embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
}

const SLICE = 16;

// The fan-out's guarantees on the real Neo4j and Redis, in one process: a slice run again embeds
// nothing twice, a run skips what earlier attempts embedded, a run repeated after it finished has
// nothing left, and a worker with another model refuses a slice.
describe('embedding fanned out in slices (BullMQ jobs over Neo4j id ranges)', () => {
  const prefix = runId('fan');
  const h = new IngestHarness(prefix);
  const repo = runId('fanr');
  let embedder: CountingEmbedder;
  let fanOut: EmbedFanOut;
  let worker: Worker<EmbedChunkJobData> | undefined;
  const connection = createRedisConnection(loadConfig().redis.url);

  beforeAll(async () => {
    embedder = new CountingEmbedder(h.config.embedding.dimensions);
    await h.init(embedder);
    await h.ingest.index({ path: FIXTURE, name: repo, embed: false });
    fanOut = new EmbedFanOut(h.repo, h.queues, new EmbeddingCache(h.queues), embedder, { ...h.config, ingest: { ...h.config.ingest, embedSlice: SLICE } });
  });

  afterAll(async () => {
    await worker?.close();
    connection.disconnect();
    await h.dispose([repo]);
  });

  const unembedded = async () =>
    (await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repo}) WHERE s.embedding IS NULL RETURN count(s) AS n', { repo }))[0].n;

  it('embeds every scope once: a slice retried embeds nothing again, the run skips it and fans the rest out', async () => {
    const before = await unembedded();
    expect(before).toBeGreaterThan(4 * SLICE);
    const first = (await h.repo.embedSlice(repo, embedder.model, '', SLICE))!;
    expect(first).toMatchObject({ size: SLICE, pending: SLICE });
    const data: EmbedChunkJobData = { repoId: repo, indexJobId: 'ixearlier', model: embedder.model, after: '', until: first.until, pending: first.pending };
    // An earlier attempt's slice, then the same slice once more (its job retried): nothing embedded twice.
    expect(await fanOut.runSlice('slice-a', data)).toMatchObject({ embedded: SLICE, alreadyEmbedded: 0 });
    const afterOne = embedder.texts;
    expect(afterOne).toBeLessThanOrEqual(SLICE);
    expect(await fanOut.runSlice('slice-a', data)).toMatchObject({ embedded: 0, alreadyEmbedded: SLICE });
    expect(embedder.texts).toBe(afterOne);

    worker = new Worker<EmbedChunkJobData>(bullQueueName(QueueName.EMBED), (job) => fanOut.runSlice(job.id!, job.data), {
      connection,
      prefix,
      concurrency: 2,
    });
    let total = -1;
    const seen: number[] = [];
    const stats = await fanOut.run(repo, 'ixrun', { onTotal: (t) => void (total = t), onEmbedded: (d) => void seen.push(d) });
    expect(total).toBe(before - SLICE);
    expect(stats.embedded).toBe(total);
    expect(stats.error).toBeUndefined();
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await unembedded()).toBe(0);
    // Each scope reached the model at most once (identical texts are embedded once, or come from the cache).
    expect(embedder.texts).toBeLessThanOrEqual(before);
    // (or are copied from a scope in the graph with the same model, dimensions and text: another slice's, another repository's).
    expect(embedder.texts - afterOne + stats.graphReused + stats.cacheHits + stats.duplicates).toBeGreaterThanOrEqual(total);
    expect(stats.computed).toBe(embedder.texts - afterOne);
    // The slices ran as jobs named after the run, several of them.
    const jobs = await h.queues.queue(QueueName.EMBED).getJobs(['completed']);
    expect(jobs.filter((j) => j.id!.startsWith('ixrun-')).length).toBe(Math.ceil(total / SLICE));
    // Its progress hash is gone once the run ends.
    expect(await h.queues.redis.exists(`${prefix}:embed-progress:{ixrun}`)).toBe(0);

    // The same index job again (retried after a crash late in its run): nothing is left to embed.
    const texts = embedder.texts;
    expect((await fanOut.run(repo, 'ixrun', { onTotal: () => undefined, onEmbedded: () => undefined })).embedded).toBe(0);
    expect(embedder.texts).toBe(texts);
  });

  it('refuses a slice planned for another model (its vectors would not compare)', async () => {
    const data: EmbedChunkJobData = { repoId: repo, indexJobId: 'ixother', model: 'another-model', after: '', until: `${repo}:~`, pending: 1 };
    await expect(fanOut.runSlice('slice-b', data)).rejects.toBeInstanceOf(EmbedModelMismatchError);
  });
});
