import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { APP_CONFIG, AppConfig, ConfigModule } from '@scopegraph/config';
import { GraphModule } from '@scopegraph/graph';
import { HealthModule } from '@scopegraph/health';
import { IngestCatalogModule } from '@scopegraph/ingest';
import { LlmModule } from '@scopegraph/llm';
import { PipelineModule } from '@scopegraph/pipeline';
import { loggerParams } from '@scopegraph/observability';
import { LoggerModule } from 'nestjs-pino';
import { QueueModule } from '@scopegraph/queue';
import { RerankModule } from '@scopegraph/rerank';
import { SearchModule } from '@scopegraph/search';
import { AskResolver } from './ask/ask.resolver';
import { ApiKeyGuard, keyMatches, presentedKey } from './auth/api-key.guard';
import { GraphiqlController } from './graphiql.controller';
import { formatError, formatSubscriptionResult } from './graphql/errors';
import { McpController } from './mcp/mcp.controller';
import { graphqlMetricsPlugin } from './metrics/graphql-metrics.plugin';
import { MetricsController } from './metrics/metrics.controller';
import { HealthResolver } from './health/health.resolver';
import { JobsResolver } from './jobs/jobs.resolver';
import { RepositoriesResolver } from './repositories/repositories.resolver';
import { RerankResolver } from './rerank/rerank.resolver';
import { SearchResolver } from './search/search.resolver';

export const GRAPHQL_PATH = '/graphql';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config.logLevel, true) }),
    GraphModule,
    QueueModule,
    HealthModule,
    IngestCatalogModule,
    RerankModule,
    LlmModule,
    SearchModule,
    PipelineModule,
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ApolloDriverConfig => ({
        path: GRAPHQL_PATH,
        autoSchemaFile: true,
        sortSchema: true,
        playground: false,
        introspection: true,
        includeStacktraceInErrorResponses: false,
        plugins: [ApolloServerPluginLandingPageDisabled(), graphqlMetricsPlugin()],
        subscriptions: {
          'graphql-ws': {
            path: GRAPHQL_PATH,
            // Refuse the socket itself when the key is wrong, not just each operation.
            onConnect: (ctx) =>
              !config.api.apiKey || keyMatches(config.api.apiKey, presentedKey(ctx.connectionParams as Record<string, unknown>)),
            onNext: (_ctx, _id, _payload, _args, result) => formatSubscriptionResult(result),
          },
        },
        context: (ctx: { req?: unknown; connectionParams?: unknown; extra?: { connectionParams?: unknown } }) => ({
          req: ctx.req,
          connectionParams: ctx.connectionParams ?? ctx.extra?.connectionParams,
        }),
        formatError,
      }),
    }),
  ],
  controllers: [GraphiqlController, McpController, MetricsController],
  providers: [HealthResolver, JobsResolver, RepositoriesResolver, SearchResolver, RerankResolver, AskResolver, { provide: APP_GUARD, useClass: ApiKeyGuard }],
})
export class AppModule {}
