import { Module } from '@nestjs/common';
import { SearchModule } from '@scopegraph/search';
import { AskEventsService } from './ask-events.service';
import { AskService } from './ask.service';
import { HistoryRepository } from './history/history.repository';
import { Retriever } from './retrieval/retriever';
import { WrittenReviewService } from './review/written-review';

/**
 * Answering questions (YAML pipelines, engine, router, history, budgets). Needs ConfigModule,
 * GraphModule, QueueModule and LlmModule (all global) in the importing app; pipelines are validated
 * when AskService is built, so a bad pipeline file stops the boot.
 */
@Module({
  imports: [SearchModule],
  providers: [AskService, AskEventsService, HistoryRepository, Retriever, WrittenReviewService],
  exports: [AskService, WrittenReviewService],
})
export class PipelineModule {}
