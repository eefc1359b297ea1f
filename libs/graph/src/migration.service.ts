import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { splitStatements } from './cypher-files';
import { cypherInt, Neo4jService } from './neo4j.service';

export const SCOPE_VECTOR_INDEX = 'scope_embedding';
export const SCOPE_FULLTEXT_INDEX = 'scope_fulltext';
const INDEX_ONLINE_TIMEOUT_S = 120;

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies cypher/migrations/NNN-*.cypher in order and records each as a (:SchemaMigration) node.
 * API and worker both run it at boot, possibly at the same moment: every statement is idempotent
 * (IF NOT EXISTS), and the record is a MERGE on a unique id, so the loser of a race does no harm.
 */
@Injectable()
export class MigrationService {
  private readonly logger = new Logger(MigrationService.name);

  constructor(
    private readonly neo4j: Neo4jService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async migrate(): Promise<{ applied: string[] }> {
    const params = { embeddingDimensions: cypherInt(this.config.embedding.dimensions) };
    const recorded = new Map(
      (await this.neo4j.read<{ id: string; checksum: string }>('graph/migrations-applied')).map((m) => [m.id, m.checksum]),
    );
    const applied: string[] = [];
    for (const migration of this.neo4j.cypher.migrations()) {
      const checksum = createHash('sha256').update(migration.text).digest('hex');
      const previous = recorded.get(migration.id);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new MigrationError(
            `migration ${migration.id} was edited after it was applied (checksum differs); add a new migration instead`,
          );
        }
        continue;
      }
      for (const statement of splitStatements(migration.text)) {
        await this.runIdempotent(migration.id, statement, params);
      }
      await this.record(migration.id, checksum);
      applied.push(migration.id);
      this.logger.log(`applied migration ${migration.id}`);
    }
    await this.checkVectorDimensions();
    await this.neo4j.runStatement(`CALL db.awaitIndexes(${INDEX_ONLINE_TIMEOUT_S})`);
    return { applied };
  }

  private async runIdempotent(id: string, statement: string, params: Record<string, unknown>): Promise<void> {
    try {
      await this.neo4j.runStatement(statement, params);
    } catch (error) {
      // Two processes creating the same index at once: the second sees an equivalent rule.
      if (/EquivalentSchemaRuleAlreadyExists|already exists/i.test(String((error as Error).message) + ((error as { code?: string }).code ?? ''))) return;
      throw new MigrationError(`migration ${id} failed: ${(error as Error).message}`);
    }
  }

  private async record(id: string, checksum: string): Promise<void> {
    try {
      await this.neo4j.write('graph/record-migration', { id, checksum });
    } catch (error) {
      if ((error as { code?: string }).code === 'Neo.ClientError.Schema.ConstraintValidationFailed') return;
      throw error;
    }
  }

  /** An index built for other dimensions would reject every embedding: say so at boot, naming the variable. */
  private async checkVectorDimensions(): Promise<void> {
    const rows = await this.neo4j.read<{ dimensions: number }>('graph/vector-index-dimensions', { name: SCOPE_VECTOR_INDEX });
    const actual = rows[0]?.dimensions;
    const wanted = this.config.embedding.dimensions;
    if (actual !== undefined && actual !== wanted) {
      throw new MigrationError(
        `vector index ${SCOPE_VECTOR_INDEX} has ${actual} dimensions but EMBEDDING_DIMENSIONS=${wanted}. ` +
          `Set EMBEDDING_DIMENSIONS=${actual}, or drop the index (DROP INDEX ${SCOPE_VECTOR_INDEX}) and the SchemaMigration ` +
          `node with id "002-scope-vector-index", then restart and re-index.`,
      );
    }
  }
}
