import 'reflect-metadata';
import { Logger, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { logConsoleThroughLogger, logProcessWarnings, REQUEST_ID_HEADER, requestIdFrom, runWithRequestId } from '@scopegraph/observability';
import { exitOnBootError, loadConfig } from '@scopegraph/config';
import { bootstrapGraph, Neo4jService, warmQueryPlans } from '@scopegraph/graph';
import { IMPACT_PLAN_WARMUPS } from '@scopegraph/impact';
import { searchPlanWarmups } from '@scopegraph/search';
import { AppModule, GRAPHQL_PATH } from './app.module';
import { accessGate } from './auth/access';
import { KeyStore } from './auth/key-store';
import { rateGate } from './auth/rate-limit.guard';
import { ThrottlerStorage, type ThrottlerStorageService } from '@nestjs/throttler';
import { serveConsole } from './console/console-static';
import { validationError } from './graphql/errors';
import { mountQueueBoard } from './queues/queue-board';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true });
  app.useLogger(app.get(PinoLogger));
  logProcessWarnings();
  logConsoleThroughLogger();
  // First middleware: every log line of the request, and the jobs it queues, carry this id.
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  app.use((req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    req.id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, req.id);
    // No page of this API may be framed by another site (clickjacking of GraphiQL, the queue board,
    // the console), nor have its JSON sniffed as script. Four fixed headers; helmet's defaults
    // (a strict CSP) would break GraphiQL's and Bull Board's inline pages.
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('content-security-policy', "frame-ancestors 'none'");
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    runWithRequestId(req.id, next);
  });
  // Second: Origin/Host rules and the key, for every path (see auth/access.ts).
  app.use(accessGate(config, app.get(KeyStore).lookup));
  // Third: a principal already over its rate limit is answered here, before any parsing.
  app.use(rateGate(app.get<ThrottlerStorageService>(ThrottlerStorage), config.api.rateLimitPerWindow, config.api.rateWindowMs));
  app.enableShutdownHooks();
  mountQueueBoard(app);
  serveConsole(app, config.paths.root);
  // Input types validate where they enter; a failure becomes BAD_USER_INPUT (see graphql/errors.ts).
  app.useGlobalPipes(new ValidationPipe({ transform: true, forbidUnknownValues: false, exceptionFactory: validationError }));
  await bootstrapGraph(app);
  // Idle keep-alive connections are kept 65 s, not Node's 5 s: clients reuse an idle connection until
  // the server's Keep-Alive hint less a margin, so with 5 s a client that paused ~4-5 s (a subscription
  // in between, a loaded machine) sent its next request on a socket the server was closing and got
  // "other side closed". The header timeout stays above it, as Node requires.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await app.listen(config.api.port, config.api.host);
  // In the background, after readiness: the heaviest queries' first plans are paid here, not by a request.
  const neo4j = app.get(Neo4jService);
  void searchPlanWarmups(neo4j, config.embedding.dimensions)
    .catch((error: Error) => {
      new Logger('PlanWarmup').warn(`search's query plans not warmed: ${error.message}`);
      return [];
    })
    .then((search) => warmQueryPlans(neo4j, [...IMPACT_PLAN_WARMUPS, ...search]));
  const base = `http://${config.api.host}:${config.api.port}`;
  new Logger('Api').log(`GraphQL ${base}${GRAPHQL_PATH} (ws ${base.replace('http', 'ws')}${GRAPHQL_PATH}), GraphiQL ${base}/graphiql, console ${base}/`);
}

main().catch(exitOnBootError);
