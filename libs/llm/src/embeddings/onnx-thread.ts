import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** What a model run returns: the output's dims and, for a [rows, tokens, width] output, the pooled vectors. */
export interface OnnxRunResult {
  dims: number[];
  /** rows × width, mean-pooled over the real tokens and L2-normalised; null when the output is not 3-dimensional. */
  vectors: Float64Array | null;
}

interface Pending {
  resolve: (result: OnnxRunResult) => void;
  reject: (error: Error) => void;
}

type WorkerMessage =
  | { type: 'ready'; inputNames: string[]; outputNames: string[] }
  | { type: 'failed'; message: string }
  | { type: 'released' }
  | { id: number; dims: number[]; vectors: Float64Array | null }
  | { id: number; error: string };

/**
 * An ONNX Runtime session on its own worker thread (onnx-thread.worker.js), so that model runs do not
 * block the event loop of the process that asks for embeddings. Runs are answered in order; the
 * thread keeps the process alive only while a run is pending.
 */
export class OnnxThread {
  readonly inputNames: string[];
  readonly outputNames: string[];
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | null = null;
  private released?: () => void;

  private constructor(
    private readonly worker: Worker,
    ready: { inputNames: string[]; outputNames: string[] },
  ) {
    this.inputNames = ready.inputNames;
    this.outputNames = ready.outputNames;
    worker.on('message', (message: WorkerMessage) => {
      if ('type' in message) {
        if (message.type === 'released') this.released?.();
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve({ dims: message.dims, vectors: message.vectors });
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the ONNX Runtime thread exited (code ${code})`)));
    worker.unref();
  }

  /** Starts the thread and loads the model in it; rejects with ONNX Runtime's message when the model does not load. */
  static start(modelPath: string, intraOpNumThreads: number): Promise<OnnxThread> {
    const worker = new Worker(join(__dirname, 'onnx-thread.worker.js'), { workerData: { modelPath, intraOpNumThreads } });
    return new Promise((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (!('type' in message)) return;
        if (message.type === 'ready') {
          cleanup();
          resolve(new OnnxThread(worker, message));
        } else if (message.type === 'failed') {
          cleanup();
          void worker.terminate();
          reject(new Error(message.message));
        }
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`the ONNX Runtime thread exited (code ${code}) while loading the model`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  /** One model run over token ids ([CLS] ... [SEP] per text; padded in the thread). */
  run(batch: Int32Array[]): Promise<OnnxRunResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, batch });
    });
  }

  /** Releases the session and ends the thread. */
  async release(): Promise<void> {
    if (!this.failure) {
      await new Promise<void>((resolve) => {
        this.released = resolve;
        this.worker.ref();
        this.worker.postMessage({ type: 'release' });
        this.worker.once('exit', () => resolve());
      });
    }
    await this.worker.terminate();
  }
}
