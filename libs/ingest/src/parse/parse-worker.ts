// Entry of a parse thread (see ParsePool): loads the grammars once, then answers ParseTasks.
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
