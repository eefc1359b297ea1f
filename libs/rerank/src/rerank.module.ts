import { Global, Logger, Module } from '@nestjs/common';
import { SEARCH_RERANKER } from '@scopegraph/search';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { RerankCache } from './cache/rerank-cache';
import { createRerankProvider } from './providers/provider.factory';
import { RERANK_PROVIDER, RerankProvider } from './providers/rerank-provider';
import { RerankEventsService } from './rerank-events.service';
import { RerankRepository } from './rerank.repository';
import { RerankBatchRunner } from './rerank-batch.runner';
import { RerankLifecycle } from './rerank-lifecycle';
import { RerankService } from './rerank.service';
import { RerankStore } from './scheduler/rerank-store';
import { SearchRerankAdapter } from './search-rerank.adapter';

/**
 * Reranking for both processes: the API starts reranks and relays their events (RerankService), the
 * worker runs their batches (RerankBatchRunner); RerankLifecycle is what both do to a rerank's state. Needs ConfigModule, QueueModule and GraphModule (all global) in the importing app.
 * Global so that SearchService (libs/search) finds SEARCH_RERANKER without depending on this lib.
 */
@Global()
@Module({
  providers: [
    {
      provide: RERANK_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RerankProvider => {
        const provider = createRerankProvider(config);
        new Logger('Rerank').log(`reranker ${provider.name} (${provider.kind}), model ${provider.model}`);
        return provider;
      },
    },
    RerankStore,
    RerankCache,
    RerankEventsService,
    RerankRepository,
    RerankLifecycle,
    RerankService,
    RerankBatchRunner,
    SearchRerankAdapter,
    { provide: SEARCH_RERANKER, useExisting: SearchRerankAdapter },
  ],
  exports: [RerankService, RerankBatchRunner, RerankRepository, RERANK_PROVIDER, SEARCH_RERANKER],
})
export class RerankModule {}
