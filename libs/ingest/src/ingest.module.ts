import { Module } from '@nestjs/common';
import { IngestRepository } from './graph/ingest.repository';
import { ParserService } from './parse/parser.service';
import { IngestService } from './pipeline/ingest.service';
import { EmbeddingCache } from './pipeline/embedding-cache';
import { ParseCache } from './pipeline/parse-cache';

@Module({
  providers: [
    {
      provide: ParserService,
      // Grammars load once per process, before the first job needs them.
      useFactory: async () => {
        const parser = new ParserService();
        await parser.init();
        return parser;
      },
    },
    IngestRepository,
    ParseCache,
    EmbeddingCache,
    IngestService,
  ],
  exports: [IngestService, ParserService],
})
export class IngestModule {}
