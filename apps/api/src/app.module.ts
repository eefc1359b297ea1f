import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { ServerOptions } from 'graphql-ws';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig, ConfigModule } from '@scopegraph/config';
import { GraphModule } from '@scopegraph/graph';
import { HealthModule } from '@scopegraph/health';
import { ImpactModule } from '@scopegraph/impact';
import { IngestCatalogModule } from '@scopegraph/ingest';
import { LlmModule } from '@scopegraph/llm';
import { PipelineModule } from '@scopegraph/pipeline';
import { loggerParams } from '@scopegraph/observability';
import { LoggerModule } from 'nestjs-pino';
import { QueueModule } from '@scopegraph/queue';
import { RerankModule } from '@scopegraph/rerank';
import { SearchModule } from '@scopegraph/search';
import { AskResolver } from './ask/ask.resolver';
import { Access, decideAccessWithKeys, isRefusal, Role } from './auth/access';
import { KeyStore } from './auth/key-store';
import { AccessModule } from './access/access.module';
import { AccessResolver } from './access/access.resolver';
import { AuditInterceptor } from './access/audit.interceptor';
import { ApiKeyGuard } from './auth/api-key.guard';
import { RateLimitGuard } from './auth/rate-limit.guard';
import { prepareSocketOperation, requestChecksPlugin, SchemaRef } from './graphql/request-checks';
import { ApiExceptionFilter } from './graphql/exception.filter';
import { GraphiqlController } from './graphiql.controller';
import { GuidesController } from './guides/guides.controller';
import { formatError, formatSubscriptionResult, serviceUnavailableStatusPlugin } from './graphql/errors';
import { McpController } from './mcp/mcp.controller';
import { graphqlMetricsPlugin } from './metrics/graphql-metrics.plugin';
import { MetricsController } from './metrics/metrics.controller';
import { HealthResolver } from './health/health.resolver';
import { ImpactResolver } from './impact/impact.resolver';
import { JobsResolver } from './jobs/jobs.resolver';
import { RepositoriesResolver } from './repositories/repositories.resolver';
import { RerankResolver } from './rerank/rerank.resolver';
import { SearchResolver } from './search/search.resolver';

export const GRAPHQL_PATH = '/graphql';
/**
 * The API's model embeds only queries, batched: on one thread it spent ~5% less CPU per search than
 * on one per core (bench/load, 2 cores), and it leaves the other core to the event loop and Neo4j.
 */
const API_EMBEDDING_THREADS = 1;

/** A stream that ends with an error (a lost rerank) reaches the client with the same codes as a query. */
const subscriptionErrors: NonNullable<ServerOptions['onError']> = (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e));

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config.logLevel, true, config.logFormat) }),
    GraphModule,
    QueueModule,
    HealthModule,
    IngestCatalogModule,
    RerankModule,
    LlmModule.forRoot({ defaultEmbeddingThreads: API_EMBEDDING_THREADS }),
    SearchModule,
    PipelineModule,
    ImpactModule,
    AccessModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ throttlers: [{ ttl: config.api.rateWindowMs, limit: config.api.rateLimitPerWindow }] }),
    }),
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AccessModule],
      inject: [APP_CONFIG, KeyStore],
      useFactory: (config: AppConfig, keys: KeyStore): ApolloDriverConfig => {
        const schemaRef = new SchemaRef();
        return {
          path: GRAPHQL_PATH,
          autoSchemaFile: true,
          sortSchema: true,
          playground: false,
          introspection: true,
          includeStacktraceInErrorResponses: false,
          plugins: [ApolloServerPluginLandingPageDisabled(), graphqlMetricsPlugin(), requestChecksPlugin(config.api.graphql), serviceUnavailableStatusPlugin(), schemaRef.plugin()],
          // Bounds parsing (and so validation) before anything else: deep fragment nesting or thousands
          // of aliases are refused by token count in the parser itself.
          parseOptions: { maxTokens: config.api.graphql.maxTokens },
          allowBatchedHttpRequests: false,
          // Let a refused field (401/403/429) set the HTTP status; Nest would reset it to 200.
          preserveHttpStatusForExecutionErrors: false,
          subscriptions: {
            'graphql-ws': {
              path: GRAPHQL_PATH,
              // The handshake follows the HTTP rules (Origin, Host, key): a refused socket closes with
              // 4403 before any operation runs; an accepted one keeps its role for every operation.
              onConnect: async (ctx) => {
                const extra = ctx.extra as { request: IncomingMessage; role?: Role; access?: Access };
                const decision = await decideAccessWithKeys(config, extra.request.headers, keys.lookup, ctx.connectionParams);
                if (isRefusal(decision)) return false;
                extra.role = decision.role;
                extra.access = decision;
                return true;
              },
              // Parse, validate and cost as over HTTP, answering a bad document on its id (see request-checks).
              onSubscribe: (_ctx, _id, payload) => (schemaRef.schema ? prepareSocketOperation(schemaRef.schema, payload, config.api.graphql) : undefined),
              onNext: (_ctx, _id, _payload, _args, result) => formatSubscriptionResult(result),
              // Nest's type omits onError, which it hands on to graphql-ws all the same.
              ...({ onError: subscriptionErrors } as object),
            },
          },
          context: (ctx: { req?: unknown; connectionParams?: unknown; extra?: { connectionParams?: unknown; role?: Role; access?: Access } }) => ({
            req: ctx.req,
            role: ctx.extra?.role,
            access: ctx.extra?.access,
            connectionParams: ctx.connectionParams ?? ctx.extra?.connectionParams,
          }),
          formatError,
        };
      },
    }),
  ],
  controllers: [GraphiqlController, GuidesController, McpController, MetricsController],
  providers: [AccessResolver, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }, HealthResolver, JobsResolver, RepositoriesResolver, SearchResolver, RerankResolver, AskResolver, ImpactResolver, { provide: APP_GUARD, useClass: ApiKeyGuard }, { provide: APP_GUARD, useClass: RateLimitGuard }, { provide: APP_FILTER, useClass: ApiExceptionFilter }],
})
export class AppModule {}
