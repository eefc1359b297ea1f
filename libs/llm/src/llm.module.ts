import { Global, Logger, Module, OnModuleDestroy, Inject } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { ChatClientRef, createTextChatClient } from './chat';
import { createEmbeddingProvider, EmbeddingProvider, withQueryBatching } from './embeddings';

/** Injection token of the configured EmbeddingProvider (EMBEDDING_PROVIDER picks which). */
export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');
/** Injection token of the answering chat model (a ChatClientRef; its client is null when none is configured). */
export const CHAT_CLIENT = Symbol('CHAT_CLIENT');
/** Distinct query texts whose vectors a process remembers (384 floats each: ~3 MB for 1,000). */
const QUERY_VECTOR_CACHE_SIZE = 1_000;

export function embeddingProviderFromConfig(config: AppConfig): EmbeddingProvider {
  return createEmbeddingProvider({
    provider: config.embedding.provider,
    model: config.embedding.model,
    dimensions: config.embedding.dimensions,
    modelsDir: config.embedding.modelsDir,
    batchSize: config.embedding.batchSize,
    local: { maxBatchTokens: config.embedding.maxBatchTokens },
    gemini: { apiKey: config.gemini.apiKey, baseUrl: config.gemini.baseUrl },
    openai: { baseUrl: config.embedding.openai.baseUrl, apiKey: config.embedding.openai.apiKey, concurrency: config.embedding.openai.concurrency },
  });
}

/**
 * Provides the configured embedding provider by token. Chat and rerank clients are built from the same
 * config by libs/rerank's provider factory, since only the reranker uses them.
 */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDING_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // Repeat queries hit a cache. Batching (opt-in) lets concurrent searches share a model call;
        // only local models batch queries as documents (Gemini embeds the two differently). On the
        // shared 2-core machine it moved the queue from the model to Neo4j (bench/load): off by default.
        const provider = withQueryBatching(embeddingProviderFromConfig(config), {
          maxBatch: config.embedding.batchSize,
          cacheSize: QUERY_VECTOR_CACHE_SIZE,
          batch: config.embedding.queryBatching && (config.embedding.provider === 'local' || config.embedding.provider === 'hash'),
        });
        new Logger('Embeddings').log(`provider ${provider.name}, model ${provider.model}, ${provider.dimensions} dimensions`);
        return provider;
      },
    },
    {
      provide: CHAT_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ChatClientRef => {
        const client = createTextChatClient(config);
        new Logger('Chat').log(client ? `chat model ${client.provider} ${client.model}` : 'no chat model configured: ask answers with evidence only');
        return { client };
      },
    },
  ],
  exports: [EMBEDDING_PROVIDER, CHAT_CLIENT],
})
export class LlmModule implements OnModuleDestroy {
  constructor(@Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider) {}

  async onModuleDestroy(): Promise<void> {
    await this.embedder.close?.();
  }
}
