import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, ConfigModule } from '@scopegraph/config';
import { GraphModule } from '@scopegraph/graph';
import { HealthModule } from '@scopegraph/health';
import { HistoryModule } from '@scopegraph/history';
import { IngestModule } from '@scopegraph/ingest';
import { LlmModule } from '@scopegraph/llm';
import { PipelineModule } from '@scopegraph/pipeline';
import { loggerParams } from '@scopegraph/observability';
import { QueueModule } from '@scopegraph/queue';
import { RerankModule } from '@scopegraph/rerank';
import { AskProcessor } from './ask.processor';
import { EmbedChunkProcessor } from './embed-chunk.processor';
import { JOB_PROCESSORS } from './job-processor';
import { IndexRepositoryProcessor } from './index-repository.processor';
import { ProbeProcessor } from './probe.processor';
import { RerankBatchProcessor } from './rerank-batch.processor';
import { WorkerHostService } from './worker-host.service';

const PROCESSORS = [ProbeProcessor, IndexRepositoryProcessor, RerankBatchProcessor, AskProcessor, EmbedChunkProcessor];

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config.logLevel, false, config.logFormat) }),
    GraphModule, QueueModule, HealthModule, LlmModule, IngestModule, RerankModule, PipelineModule, HistoryModule],
  providers: [
    ...PROCESSORS,
    { provide: JOB_PROCESSORS, useFactory: (...p: unknown[]) => p, inject: PROCESSORS },
    WorkerHostService,
  ],
})
export class WorkerModule {}
