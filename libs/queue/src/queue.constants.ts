/**
 * Queue, job and event names shared by the API and the worker: the only place they are spelled.
 */
export enum QueueName {
  SYSTEM = 'system',
  INDEX = 'index',
  RERANK = 'rerank',
  ASK = 'ask',
  /** Bounded slices of one repository's embedding work, taken by any worker (see libs/ingest EmbedFanOut). */
  EMBED = 'embed',
}

/**
 * The name BullMQ and Redis know a queue by: the logical name in a Redis Cluster hash tag, so every
 * key of one queue (BullMQ's scripts touch several at once) lands in one slot while different queues
 * spread over the cluster. Health, metrics and the board keep showing the logical name.
 */
export function bullQueueName(name: QueueName): string {
  return `{${name}}`;
}

/** The logical name of a queue from the name BullMQ reports (`job.queueName`). */
export function logicalQueueName(bullName: string): string {
  return bullName.replace(/^\{(.*)\}$/, '$1');
}

export enum JobName {
  /** Diagnostics: the worker walks N steps, reporting progress, and returns who ran it. */
  PROBE = 'probe',
  /** Parse, diff, write and embed one repository. */
  INDEX_REPOSITORY = 'index-repository',
  /** Score one batch of a rerank with the configured reranker and merge it into the rerank's state. */
  RERANK_BATCH = 'rerank-batch',
  /** Run one question through an answering pipeline (libs/pipeline), streaming progress over Redis. */
  ASK = 'ask',
  /** Embed the scopes of one id range of a repository that still lack a vector of the model. */
  EMBED_CHUNK = 'embed-chunk',
}

/** Which queue each job runs on. The worker refuses to start unless every job has exactly one handler. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.PROBE]: QueueName.SYSTEM,
  [JobName.INDEX_REPOSITORY]: QueueName.INDEX,
  [JobName.RERANK_BATCH]: QueueName.RERANK,
  [JobName.ASK]: QueueName.ASK,
  [JobName.EMBED_CHUNK]: QueueName.EMBED,
};

/**
 * The prefix of the ids the API gives each job type (then the Redis epoch and random hex, see
 * QueueService.newJobId). Rerank batches are named after their rerank instead.
 */
export const JOB_ID_KIND: Record<JobName, string> = {
  [JobName.PROBE]: 'pr',
  [JobName.INDEX_REPOSITORY]: 'ix',
  [JobName.RERANK_BATCH]: 'rr',
  [JobName.ASK]: 'ask',
  [JobName.EMBED_CHUNK]: 'em',
};

/** Redis pub/sub channel and replay list of one ask's progress events (under the queue prefix). */
export const ASK_EVENTS = {
  channel: (prefix: string, askId: string) => `${prefix}:ask-events:${askId}`,
  log: (prefix: string, askId: string) => `${prefix}:ask-log:${askId}`,
} as const;

/** Retry defaults live here; a processor throws UnrecoverableError for failures retrying cannot fix. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export interface ProbeJobData {
  steps: number;
  stepDelayMs: number;
}

export interface ProbeJobProgress {
  step: number;
  total: number;
}

export interface ProbeJobResult {
  workerPid: number;
  workerHost: string;
  steps: number;
  neo4jVersion: string;
}

export interface IndexRepositoryJobData {
  path: string;
  name: string;
  excludeDocComments?: boolean;
  /** Walk filters (gitignore-syntax globs); absent: the ones stored with the repository. */
  include?: string[];
  exclude?: string[];
  /** Real path of a SCIP index (checked under INGEST_ALLOWED_ROOTS) whose definitions replace name-based edges this run. */
  scip?: string;
}

/** One batch of a rerank; the candidates and options live in the rerank's state in Redis (libs/rerank). */
export interface RerankBatchJobData {
  rerankId: string;
  /** Which batch of the rerank. */
  batch: number;
  /** Its place in the rerank's dispatch order (waves are counted on it). */
  position: number;
}

/** One question for the answering pipeline; everything the worker needs is in the job. */
export interface AskJobData {
  askId: string;
  question: string;
  repository: string;
  sessionId: string | null;
  isEnglish: boolean;
  pipeline: string;
  /** The key id that asked: a conversation belongs to whoever started it (absent in jobs of older versions). */
  owner?: string | null;
}

/**
 * One slice of an index run's embedding: the scopes of `repoId` with ids in (after, until] that lack
 * a vector of `model`. Its job id is derived from the index job and the range, so dispatching the
 * same plan again (a retried index job) adds nothing twice.
 */
export interface EmbedChunkJobData {
  repoId: string;
  /** The index job this chunk belongs to: its progress hash is keyed by it. */
  indexJobId: string;
  model: string;
  after: string;
  until: string;
  /** Scopes of the range lacking a vector when the chunk was planned. */
  pending: number;
}

/** The Redis hash where an index run's chunks record their progress (one field per chunk). */
export const EMBED_PROGRESS = {
  key: (prefix: string, indexJobId: string) => `${prefix}:embed-progress:{${indexJobId}}`,
} as const;
