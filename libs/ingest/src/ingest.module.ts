import { Module } from '@nestjs/common';
import { IngestRepository } from './graph/ingest.repository';
import { ParserService } from './parse/parser.service';
import { IngestService } from './pipeline/ingest.service';
import { ParseCache } from './pipeline/parse-cache';
import { ReferenceResolver } from './resolve/reference-resolver';

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
    ReferenceResolver,
    IngestService,
  ],
  exports: [IngestService, ParserService],
})
export class IngestModule {}
