/**
 * Queue, job and event names shared by the API and the worker: the only place they are spelled.
 */
export enum QueueName {
  SYSTEM = 'system',
  INDEX = 'index',
  RERANK = 'rerank',
}

export enum JobName {
  /** Diagnostics: the worker walks N steps, reporting progress, and returns who ran it. */
  PROBE = 'probe',
  /** Parse, diff, write and embed one repository. */
  INDEX_REPOSITORY = 'index-repository',
}

/** Which queue each job runs on. The worker refuses to start unless every job has exactly one handler. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.PROBE]: QueueName.SYSTEM,
  [JobName.INDEX_REPOSITORY]: QueueName.INDEX,
};

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
}
