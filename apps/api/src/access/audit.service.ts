import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { cypherInt, Neo4jService } from '@scopegraph/graph';

export interface AuditRecord {
  keyId: string;
  operation: string;
  repository: string | null;
  outcome: 'ok' | 'error' | 'refused';
  errorCode: string | null;
}

export interface AuditFilter {
  keyId?: string | null;
  repository?: string | null;
  operation?: string | null;
  outcome?: string | null;
  since?: string | null;
  offset: number;
  limit: number;
}

/** Prune at most once an hour per process: retention is in days, so this is ample. */
const PRUNE_EVERY_MS = 3_600_000;

@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);
  private lastPrune = 0;

  constructor(
    private readonly neo4j: Neo4jService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(event: AuditRecord): Promise<void> {
    try {
      await this.neo4j.write('access/audit-append', { id: randomUUID(), ...event });
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.neo4j.write('access/audit-prune', { days: cypherInt(this.config.api.auditRetentionDays) });
      }
    } catch (error) {
      // The mutation already happened; a lost audit line is logged (without arguments) rather than failing it.
      this.logger.error(`audit: cannot record ${event.operation} by ${event.keyId}: ${(error as Error).message}`);
    }
  }

  list(filter: AuditFilter) {
    return this.neo4j.read<{ id: string; at: string; keyId: string; operation: string; repository: string | null; outcome: string; errorCode: string | null }>('access/audit-list', {
      keyId: filter.keyId ?? null,
      repository: filter.repository ?? null,
      operation: filter.operation ?? null,
      outcome: filter.outcome ?? null,
      since: filter.since ?? null,
      offset: cypherInt(filter.offset),
      limit: cypherInt(filter.limit),
    });
  }
}
