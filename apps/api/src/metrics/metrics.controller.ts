import { Controller, Get, Logger, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { IngestRepository } from '@scopegraph/ingest';
import { MetricsShare, refreshStateGauges } from '@scopegraph/observability';
import { QueueService } from '@scopegraph/queue';
import { RerankService } from '@scopegraph/rerank';
import { MetricsRole } from '../auth/api-key.guard';

/** Prometheus exposition for the whole deployment: this API plus every worker's published snapshot. */
@Controller('metrics')
@MetricsRole()
export class MetricsController {
  private readonly logger = new Logger(MetricsController.name);

  constructor(
    private readonly share: MetricsShare,
    private readonly queues: QueueService,
    private readonly repo: IngestRepository,
    private readonly rerank: RerankService,
  ) {}

  @Get()
  async metrics(@Res() res: ServerResponse): Promise<void> {
    await refreshStateGauges(
      { queues: () => this.queues.counts(), repositories: () => this.repo.repositories(), rerankCache: () => this.rerank.cacheStats() },
      (source, error) => this.logger.warn(`metrics: cannot read ${source}: ${error.message}`),
    );
    const { contentType, body } = await this.share.collect();
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  }
}
