import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { Logger as PinoLogger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { exitOnBootError, loadConfig } from '@scopegraph/config';
import { bootstrapGraph } from '@scopegraph/graph';
import { logConsoleThroughLogger, logProcessWarnings } from '@scopegraph/observability';
import { WorkerHostService } from './worker-host.service';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  loadConfig(); // fail fast with a readable message before Nest starts
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(PinoLogger));
  logProcessWarnings();
  logConsoleThroughLogger();
  app.enableShutdownHooks();
  await bootstrapGraph(app);
  app.get(WorkerHostService).start();
  new Logger('Worker').log(`ready (pid ${process.pid})`);
}

main().catch(exitOnBootError);
