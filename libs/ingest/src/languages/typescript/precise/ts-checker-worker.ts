// Entry of the TypeScript checker thread (see TsChecker): serves CheckerRequests one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { CheckerRequest, TsCheckerState } from './ts-checker';

const state = new TsCheckerState((workerData as { maxFiles: number }).maxFiles);

parentPort!.on('message', ({ id, method, args }: CheckerRequest) => {
  try {
    const result = (state[method] as (...a: unknown[]) => unknown)(...args);
    parentPort!.postMessage({ id, result });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
