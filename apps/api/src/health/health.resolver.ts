import { Query, Resolver } from '@nestjs/graphql';
import { HealthService } from '@scopegraph/health';
import { Health } from './health.model';

@Resolver(() => Health)
export class HealthResolver {
  constructor(private readonly healthService: HealthService) {}

  @Query(() => Health, { description: 'Neo4j version, edition and indexes; Redis version; queue counts' })
  health(): Promise<Health> {
    return this.healthService.report();
  }
}
