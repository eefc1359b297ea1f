import * as os from 'node:os';
import { Injectable } from '@nestjs/common';
import { Job } from 'bullmq';
import { HealthService } from '@scopegraph/health';
import { JobName, ProbeJobData, ProbeJobProgress, ProbeJobResult } from '@scopegraph/queue';
import { JobProcessor } from './job-processor';

export type { ProbeJobData };

@Injectable()
export class ProbeProcessor implements JobProcessor<ProbeJobData, ProbeJobResult> {
  readonly jobName = JobName.PROBE;

  constructor(private readonly health: HealthService) {}

  async process(job: Job<ProbeJobData, ProbeJobResult>): Promise<ProbeJobResult> {
    const { steps, stepDelayMs } = job.data;
    for (let step = 1; step <= steps; step++) {
      await new Promise((r) => setTimeout(r, stepDelayMs));
      const progress: ProbeJobProgress = { step, total: steps };
      await job.updateProgress(progress as unknown as object);
    }
    const { version } = await this.health.neo4jComponents();
    return { workerPid: process.pid, workerHost: os.hostname(), steps, neo4jVersion: version };
  }
}
