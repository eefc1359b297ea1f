import { ApiClient } from '../client';

/** Round trip through the queue: the API enqueues, the worker runs it, progress comes back over graphql-ws. */
export async function probeCommand(opts: { steps: number }, client = new ApiClient()): Promise<number> {
  const { startProbe } = await client.request<{ startProbe: { id: string } }>(
    'mutation($input: ProbeInput) { startProbe(input: $input) { id } }',
    { input: { steps: opts.steps, stepDelayMs: 100 } },
  );
  process.stdout.write(`job ${startProbe.id}\n`);
  let code = 1;
  await client.subscribe<{ jobEvents: { kind: string; progress?: { step: number; total: number }; result?: { workerPid: number }; failedReason?: string } }>(
    'subscription($id: ID!) { jobEvents(queue: SYSTEM, jobId: $id) { kind progress result failedReason } }',
    { id: startProbe.id },
    ({ jobEvents: e }) => {
      if (e.kind === 'PROGRESS' && e.progress) process.stdout.write(`  step ${e.progress.step}/${e.progress.total}\n`);
      if (e.kind === 'COMPLETED') {
        process.stdout.write(`completed by worker pid ${e.result?.workerPid}\n`);
        code = 0;
      }
      if (e.kind === 'FAILED') process.stdout.write(`failed: ${e.failedReason}\n`);
    },
  );
  return code;
}
