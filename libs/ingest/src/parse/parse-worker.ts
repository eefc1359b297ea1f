// Entry of a parse thread (see ParsePool): loads the tree-sitter runtime, then answers ParseTasks
// (each grammar loads in this thread when its first file arrives).
import { parentPort } from 'node:worker_threads';
import { ParserService } from './parser.service';
import { ParseTask, runParseTask } from './parse-task';

const parser = new ParserService();
const ready = parser.init();

parentPort!.on('message', async ({ id, task }: { id: number; task: ParseTask }) => {
  try {
    await ready;
    parentPort!.postMessage({ id, result: runParseTask(parser, task) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
