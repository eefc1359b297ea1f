import { Module } from '@nestjs/common';
import { RagClient } from './query-builder';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/**
 * Search over the code graph. Needs GraphModule (Neo4jService) and LlmModule (EMBEDDING_PROVIDER)
 * imported by the application; both are global modules.
 */
@Module({
  providers: [SearchRepository, SearchService, RagClient],
  exports: [SearchService, SearchRepository, RagClient],
})
export class SearchModule {}
