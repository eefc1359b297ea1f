import { runId, startApp, WORKER_READY } from '../support/processes';

// EMBEDDING_PRELOAD: a long-running worker loads the local model when it starts, so an index's first
// embedding job does not pay the model's load (seconds of CPU) inside its run.
describe('worker model preload', () => {
  it('loads the local model at start with EMBEDDING_PRELOAD=true and says how long it took', async () => {
    const worker = await startApp('worker', { QUEUE_PREFIX: runId('preload'), EMBEDDING_PROVIDER: 'local', EMBEDDING_PRELOAD: 'true' }, /model \S+ loaded \(\d+ ms\)/);
    try {
      const output = worker.output();
      // Ready first: the load runs in the background and never holds the worker's start.
      expect(output.search(WORKER_READY)).toBeGreaterThanOrEqual(0);
      expect(output.search(WORKER_READY)).toBeLessThan(output.search(/model \S+ loaded/));
    } finally {
      await worker.stop();
    }
  });

});
