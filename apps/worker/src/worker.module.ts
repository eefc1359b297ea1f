import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, ConfigModule } from '@scopegraph/config';
import { GraphModule } from '@scopegraph/graph';
import { HealthModule } from '@scopegraph/health';
import { IngestModule } from '@scopegraph/ingest';
import { LlmModule } from '@scopegraph/llm';
import { loggerParams } from '@scopegraph/observability';
import { QueueModule } from '@scopegraph/queue';
import { RerankModule } from '@scopegraph/rerank';
import { JOB_PROCESSORS } from './job-processor';
import { IndexRepositoryProcessor } from './index-repository.processor';
import { ProbeProcessor } from './probe.processor';
import { RerankBatchProcessor } from './rerank-batch.processor';
import { WorkerHostService } from './worker-host.service';

const PROCESSORS = [ProbeProcessor, IndexRepositoryProcessor, RerankBatchProcessor];

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config.logLevel, false) }),
    GraphModule, QueueModule, HealthModule, LlmModule, IngestModule, RerankModule],
  providers: [
    ...PROCESSORS,
    { provide: JOB_PROCESSORS, useFactory: (...p: unknown[]) => p, inject: PROCESSORS },
    WorkerHostService,
  ],
})
export class WorkerModule {}
