import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { exitOnBootError, loadConfig, logLevels } from '@scopegraph/config';
import { bootstrapGraph } from '@scopegraph/graph';
import { WorkerHostService } from './worker-host.service';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: logLevels(config) });
  app.enableShutdownHooks();
  await bootstrapGraph(app);
  app.get(WorkerHostService).start();
  new Logger('Worker').log(`ready (pid ${process.pid})`);
}

main().catch(exitOnBootError);
