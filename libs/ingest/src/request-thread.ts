import { Worker } from 'node:worker_threads';

/** What a thread entry answers to each request: `{ id, result }` or `{ id, error }`. */
export interface ThreadReply {
  id: number;
  result?: unknown;
  error?: string;
}

/**
 * One worker thread answering requests matched by id. It holds the process open only while a
 * request is pending; when it dies, every pending request fails and `onExit` runs (the owner
 * replaces it on its next call). Written on node:worker_threads directly: a pool library adds
 * little to one message type per thread.
 */
export class RequestThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(script: string, name: string, onExit: () => void, workerData?: unknown) {
    this.worker = new Worker(script, workerData === undefined ? {} : { workerData });
    this.worker.unref();
    this.worker.on('message', (msg: ThreadReply) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (this.pending.size === 0) this.worker.unref();
      if (msg.error !== undefined) p.reject(new Error(`${name}: ${msg.error}`));
      else p.resolve(msg.result);
    });
    const fail = (error: Error) => {
      onExit();
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${name} exited with code ${code}`)));
  }

  /** Requests waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  request<T>(payload: object): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.ref();
      this.worker.postMessage({ id, ...payload });
    });
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
