import { Module } from '@nestjs/common';
import { IngestRepository } from './graph/ingest.repository';
import { RepositoryCatalog } from './graph/repository-catalog';
import { ParserService } from './parse/parser.service';
import { IngestService } from './pipeline/ingest.service';
import { EmbeddingCache } from './pipeline/embedding-cache';
import { EmbedFanOut } from './pipeline/embed-fanout';
import { ParseCache } from './pipeline/parse-cache';
import { ReferenceResolver } from './resolve/reference-resolver';

/**
 * The repository catalogue (list, delete) without the parser: the API lists and deletes repositories
 * but never parses, so it should not pay for loading the grammars. The parse cache is here because a
 * deleted repository's keys go with it.
 */
@Module({
  providers: [IngestRepository, ParseCache, RepositoryCatalog],
  exports: [IngestRepository, ParseCache, RepositoryCatalog],
})
export class IngestCatalogModule {}

@Module({
  imports: [IngestCatalogModule],
  providers: [
    {
      provide: ParserService,
      // The tree-sitter runtime loads once per process, before the first job needs it; each grammar
      // loads when a file of its language is first parsed.
      useFactory: async () => {
        const parser = new ParserService();
        await parser.init();
        return parser;
      },
    },
    EmbeddingCache,
    ReferenceResolver,
    IngestService,
    EmbedFanOut,
  ],
  exports: [IngestService, ParserService, EmbedFanOut],
})
export class IngestModule {}
