import { observeModelCall } from '@scopegraph/observability';
import { EMBEDDING_PROVIDER_NAMES, EmbeddingConfigError, EmbeddingProvider, EmbeddingProviderName } from './embedding-provider';
import {
  DEFAULT_GEMINI_EMBEDDING_MODEL,
  GEMINI_MAX_BATCH_SIZE,
  GEMINI_MAX_DIMENSIONS,
  GeminiEmbeddingProvider,
  GeminiEmbeddingProviderOptions,
} from './gemini-embedding.provider';
import { HashEmbeddingProvider } from './hash-embedding.provider';
import { LocalEmbeddingProvider, LocalEmbeddingProviderOptions } from './local-embedding.provider';
import { DEFAULT_LOCAL_EMBEDDING_MODEL, getLocalModelSpec, LOCAL_EMBEDDING_MODELS } from './local-models';
import { OpenAiEmbeddingProvider, OpenAiEmbeddingProviderOptions } from './openai-embedding.provider';

/** Names of the settings as users see them, so errors say what to change. */
export const EMBEDDING_ENV = {
  provider: 'EMBEDDING_PROVIDER',
  model: 'EMBEDDING_MODEL',
  dimensions: 'EMBEDDING_DIMENSIONS',
  geminiApiKey: 'GEMINI_API_KEY',
  openaiBaseUrl: 'EMBEDDING_OPENAI_BASE_URL',
} as const;

export const DEFAULT_EMBEDDING_PROVIDER: EmbeddingProviderName = 'local';

export interface CreateEmbeddingProviderOptions {
  provider: EmbeddingProviderName;
  /** Local: a model id under the models dir; Gemini: the API model name. Ignored for hash. */
  model?: string;
  dimensions: number;
  modelsDir?: string;
  /** Texts per model run / per request (EMBEDDING_BATCH_SIZE); Gemini caps it at 100 per request. */
  batchSize?: number;
  gemini?: { apiKey?: string; baseUrl?: string } & Partial<Omit<GeminiEmbeddingProviderOptions, 'apiKey' | 'baseUrl' | 'dimensions' | 'model'>>;
  local?: Pick<LocalEmbeddingProviderOptions, 'batchSize' | 'intraOpNumThreads' | 'maxTokens' | 'maxBatchTokens'>;
  openai?: Partial<Omit<OpenAiEmbeddingProviderOptions, 'model' | 'dimensions'>>;
}

/**
 * Builds the configured provider, refusing combinations that could only fail later (or, worse,
 * write vectors of the wrong size into the index). Errors name the env var to change.
 */
export function createEmbeddingProvider(opts: CreateEmbeddingProviderOptions): EmbeddingProvider {
  return instrumentEmbeddings(buildEmbeddingProvider(opts));
}

/**
 * Counts and times every embedding call (scopegraph_llm_* series, kind "embed"). The instance's own
 * methods are wrapped, so it stays an instance of its class for callers that check.
 */
function instrumentEmbeddings(provider: EmbeddingProvider): EmbeddingProvider {
  const embedDocuments = provider.embedDocuments.bind(provider);
  const embedQuery = provider.embedQuery.bind(provider);
  provider.embedDocuments = (texts) => observeModelCall(provider.name, 'embed', () => embedDocuments(texts));
  provider.embedQuery = (text) => observeModelCall(provider.name, 'embed', () => embedQuery(text));
  return provider;
}

function buildEmbeddingProvider(opts: CreateEmbeddingProviderOptions): EmbeddingProvider {
  const { provider, dimensions } = opts;
  if (!EMBEDDING_PROVIDER_NAMES.includes(provider)) {
    throw new EmbeddingConfigError(
      `${EMBEDDING_ENV.provider}=${JSON.stringify(provider)} is not supported; use one of ${EMBEDDING_PROVIDER_NAMES.join(', ')} (default ${DEFAULT_EMBEDDING_PROVIDER}).`,
    );
  }
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new EmbeddingConfigError(`${EMBEDDING_ENV.dimensions} must be a positive integer, got ${JSON.stringify(dimensions)}.`);
  }

  switch (provider) {
    case 'local': {
      const modelId = opts.model ?? DEFAULT_LOCAL_EMBEDDING_MODEL;
      const spec = getLocalModelSpec(modelId);
      if (!spec) {
        throw new EmbeddingConfigError(
          `${EMBEDDING_ENV.model}=${JSON.stringify(modelId)} is not a local embedding model; known: ${Object.keys(LOCAL_EMBEDDING_MODELS).join(', ')}.`,
        );
      }
      if (spec.dimensions !== dimensions) {
        throw new EmbeddingConfigError(
          `${EMBEDDING_ENV.dimensions}=${dimensions} does not match ${EMBEDDING_ENV.provider}=local: model ${spec.id} produces ` +
            `${spec.dimensions}-dimensional vectors. Set ${EMBEDDING_ENV.dimensions}=${spec.dimensions}, or use ${EMBEDDING_ENV.provider}=gemini for other sizes.`,
        );
      }
      return new LocalEmbeddingProvider({ batchSize: opts.batchSize, ...opts.local, model: spec.id, modelsDir: opts.modelsDir });
    }
    case 'gemini': {
      const { apiKey, baseUrl, ...rest } = opts.gemini ?? {};
      if (!apiKey) {
        throw new EmbeddingConfigError(`${EMBEDDING_ENV.provider}=gemini needs ${EMBEDDING_ENV.geminiApiKey} to be set.`);
      }
      if (dimensions > GEMINI_MAX_DIMENSIONS) {
        throw new EmbeddingConfigError(
          `${EMBEDDING_ENV.dimensions}=${dimensions} is more than Gemini embeddings offer (at most ${GEMINI_MAX_DIMENSIONS}).`,
        );
      }
      if (opts.model && getLocalModelSpec(opts.model)) {
        throw new EmbeddingConfigError(
          `${EMBEDDING_ENV.model}=${JSON.stringify(opts.model)} names a local model, but ${EMBEDDING_ENV.provider}=gemini; ` +
            `set ${EMBEDDING_ENV.model}=${DEFAULT_GEMINI_EMBEDDING_MODEL} or leave it unset.`,
        );
      }
      const batchSize = opts.batchSize === undefined ? undefined : Math.min(opts.batchSize, GEMINI_MAX_BATCH_SIZE);
      return new GeminiEmbeddingProvider({ batchSize, ...rest, apiKey, baseUrl, model: opts.model, dimensions });
    }
    case 'openai': {
      const { baseUrl, ...rest } = opts.openai ?? {};
      if (!baseUrl) throw new EmbeddingConfigError(`${EMBEDDING_ENV.provider}=openai needs ${EMBEDDING_ENV.openaiBaseUrl} (e.g. http://127.0.0.1:11434/v1).`);
      if (!opts.model) throw new EmbeddingConfigError(`${EMBEDDING_ENV.provider}=openai needs ${EMBEDDING_ENV.model}: the model name the server knows.`);
      return new OpenAiEmbeddingProvider({ batchSize: opts.batchSize, ...rest, baseUrl, model: opts.model, dimensions });
    }
    case 'hash':
      return new HashEmbeddingProvider(dimensions);
  }
}
