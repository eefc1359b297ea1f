import 'reflect-metadata';
import { Logger, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { exitOnBootError, loadConfig, logLevels } from '@scopegraph/config';
import { bootstrapGraph } from '@scopegraph/graph';
import { AppModule, GRAPHQL_PATH } from './app.module';
import { validationError } from './graphql/errors';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create(AppModule, { logger: logLevels(config) });
  app.enableShutdownHooks();
  // Input types validate where they enter; a failure becomes BAD_USER_INPUT (see graphql/errors.ts).
  app.useGlobalPipes(new ValidationPipe({ transform: true, forbidUnknownValues: false, exceptionFactory: validationError }));
  await bootstrapGraph(app);
  await app.listen(config.api.port, config.api.host);
  const base = `http://${config.api.host}:${config.api.port}`;
  new Logger('Api').log(`GraphQL ${base}${GRAPHQL_PATH} (ws ${base.replace('http', 'ws')}${GRAPHQL_PATH}), GraphiQL ${base}/graphiql`);
}

main().catch(exitOnBootError);
