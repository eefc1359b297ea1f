import { Global, Logger, Module, OnModuleDestroy, Inject } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { createEmbeddingProvider, EmbeddingProvider } from './embeddings';

/** Injection token of the configured EmbeddingProvider (EMBEDDING_PROVIDER picks which). */
export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');

export function embeddingProviderFromConfig(config: AppConfig): EmbeddingProvider {
  return createEmbeddingProvider({
    provider: config.embedding.provider,
    model: config.embedding.model,
    dimensions: config.embedding.dimensions,
    modelsDir: config.embedding.modelsDir,
    batchSize: config.embedding.batchSize,
    gemini: { apiKey: config.gemini.apiKey, baseUrl: config.gemini.baseUrl },
    openai: { baseUrl: config.embedding.openai.baseUrl, apiKey: config.embedding.openai.apiKey, concurrency: config.embedding.openai.concurrency },
  });
}

/** The one place model clients are created; other libs inject them by token. */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDING_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const provider = embeddingProviderFromConfig(config);
        new Logger('Embeddings').log(`provider ${provider.name}, model ${provider.model}, ${provider.dimensions} dimensions`);
        return provider;
      },
    },
  ],
  exports: [EMBEDDING_PROVIDER],
})
export class LlmModule implements OnModuleDestroy {
  constructor(@Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider) {}

  async onModuleDestroy(): Promise<void> {
    await this.embedder.close?.();
  }
}
