import { DynamicModule, Global, Inject, Logger, Module, OnModuleDestroy, Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { ChatClientRef, createTextChatClient } from './chat';
import { createEmbeddingProvider, EmbeddingProvider, withQueryBatching } from './embeddings';

/** Injection token of the configured EmbeddingProvider (EMBEDDING_PROVIDER picks which). */
export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');
/** Injection token of the answering chat model (a ChatClientRef; its client is null when none is configured). */
export const CHAT_CLIENT = Symbol('CHAT_CLIENT');
/** Distinct query texts whose vectors a process remembers (384 floats each: ~3 MB for 1,000). */
const QUERY_VECTOR_CACHE_SIZE = 1_000;

/** What the importing app decides about its models. */
export interface LlmModuleOptions {
  /** Threads of the local model when EMBEDDING_THREADS is unset (default: one per CPU). */
  defaultEmbeddingThreads?: number;
}

export function embeddingProviderFromConfig(config: AppConfig, options: LlmModuleOptions = {}): EmbeddingProvider {
  return createEmbeddingProvider({
    provider: config.embedding.provider,
    model: config.embedding.model,
    dimensions: config.embedding.dimensions,
    modelsDir: config.embedding.modelsDir,
    batchSize: config.embedding.batchSize,
    local: { intraOpNumThreads: config.embedding.threads ?? options.defaultEmbeddingThreads, maxBatchTokens: config.embedding.maxBatchTokens },
    gemini: { apiKey: config.gemini.apiKey, baseUrl: config.gemini.baseUrl },
    openai: { baseUrl: config.embedding.openai.baseUrl, apiKey: config.embedding.openai.apiKey, concurrency: config.embedding.openai.concurrency },
  });
}

function llmProviders(options: LlmModuleOptions): Provider[] {
  return [
    {
      provide: EMBEDDING_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // Repeat queries hit a cache, and concurrent searches share one model call (only local models
        // batch queries as documents: Gemini embeds the two differently). Batching is on by default
        // since the model runs off the event loop: measured side by side on 2 cores (bench/load), it
        // cut the API's CPU per search by a quarter; a batched query's vector is bit-identical to its
        // vector alone.
        const provider = withQueryBatching(embeddingProviderFromConfig(config, options), {
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
  ];
}

/**
 * Provides the configured embedding provider by token. Chat and rerank clients are built from the same
 * config by libs/rerank's provider factory, since only the reranker uses them. `forRoot` lets an app
 * set its own defaults (the API: one model thread).
 */
@Global()
@Module({
  providers: llmProviders({}),
  exports: [EMBEDDING_PROVIDER, CHAT_CLIENT],
})
export class LlmModule implements OnModuleDestroy {
  constructor(@Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider) {}

  static forRoot(options: LlmModuleOptions): DynamicModule {
    return { module: LlmModule, global: true, providers: llmProviders(options), exports: [EMBEDDING_PROVIDER, CHAT_CLIENT] };
  }

  async onModuleDestroy(): Promise<void> {
    await this.embedder.close?.();
  }
}
