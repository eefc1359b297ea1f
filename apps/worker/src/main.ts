import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { Logger as PinoLogger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { exitOnBootError, loadConfig } from '@scopegraph/config';
import { bootstrapGraph } from '@scopegraph/graph';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { logConsoleThroughLogger, logProcessWarnings } from '@scopegraph/observability';
import { WorkerHostService } from './worker-host.service';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = loadConfig(); // fail fast with a readable message before Nest starts
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(PinoLogger));
  logProcessWarnings();
  logConsoleThroughLogger();
  app.enableShutdownHooks();
  await bootstrapGraph(app);
  app.get(WorkerHostService).start();
  new Logger('Worker').log(`ready (pid ${process.pid})`);
  if (config.embedding.preload && config.embedding.provider === 'local') preloadModel(app.get<EmbeddingProvider>(EMBEDDING_PROVIDER));
}

/** Loads the local model in the background (EMBEDDING_PRELOAD): jobs are taken meanwhile and wait for it. */
function preloadModel(provider: EmbeddingProvider): void {
  const logger = new Logger('Embeddings');
  const started = performance.now();
  provider.embedDocuments(['preload']).then(
    () => logger.log(`model ${provider.model} loaded (${Math.round(performance.now() - started)} ms)`),
    (error: unknown) => logger.warn(`model ${provider.model} did not load at start: ${(error as Error).message}; the first embedding job tries again`),
  );
}

main().catch(exitOnBootError);
