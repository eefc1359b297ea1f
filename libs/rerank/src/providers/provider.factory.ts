import { AppConfig, ConfigError } from '@scopegraph/config';
import {
  CohereRerankClient,
  DEFAULT_COHERE_RERANK_MODEL,
  DEFAULT_VOYAGE_RERANK_MODEL,
  GeminiChatClient,
  OpenAiCompatibleChatClient,
  VoyageRerankClient,
} from '@scopegraph/llm';
import { CrossEncoderProvider } from './cross-encoder.provider';
import { LlmJudgeProvider } from './llm-judge.provider';
import { LocalKeywordProvider } from './local-keyword.provider';
import { RerankProvider } from './rerank-provider';

export type ProviderChoice = Exclude<AppConfig['rerank']['provider'], 'auto'>;

/** `auto`: Gemini when a key is set, else the first other provider configured, else the local reranker. */
export function chooseProvider(config: AppConfig): ProviderChoice {
  const r = config.rerank;
  if (r.provider !== 'auto') return r.provider;
  if (config.gemini.apiKey) return 'gemini';
  if (r.openai.baseUrl) return 'openai';
  if (r.cohere.apiKey) return 'cohere';
  if (r.voyage.apiKey) return 'voyage';
  return 'local';
}

/**
 * Builds the configured reranker, refusing at boot a choice that could only fail later; the error
 * names the variable to set (and never a secret's value).
 */
export function createRerankProvider(config: AppConfig): RerankProvider {
  const r = config.rerank;
  const choice = chooseProvider(config);
  const need = (ok: unknown, message: string) => {
    if (!ok) throw new ConfigError([message]);
  };
  switch (choice) {
    case 'gemini':
      need(config.gemini.apiKey, 'RERANK_PROVIDER=gemini needs GEMINI_API_KEY');
      return new LlmJudgeProvider(new GeminiChatClient({ apiKey: config.gemini.apiKey!, baseUrl: config.gemini.baseUrl, model: r.model ?? config.gemini.chatModel }));
    case 'openai':
      need(r.openai.baseUrl, 'RERANK_PROVIDER=openai needs RERANK_OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)');
      need(r.model, 'RERANK_PROVIDER=openai needs RERANK_MODEL (the model name the server knows)');
      return new LlmJudgeProvider(new OpenAiCompatibleChatClient({ baseUrl: r.openai.baseUrl!, apiKey: r.openai.apiKey, model: r.model! }));
    case 'cohere':
      need(r.cohere.apiKey, 'RERANK_PROVIDER=cohere needs COHERE_API_KEY');
      return new CrossEncoderProvider(new CohereRerankClient({ apiKey: r.cohere.apiKey!, baseUrl: r.cohere.baseUrl, model: r.model ?? DEFAULT_COHERE_RERANK_MODEL }));
    case 'voyage':
      need(r.voyage.apiKey, 'RERANK_PROVIDER=voyage needs VOYAGE_API_KEY');
      return new CrossEncoderProvider(new VoyageRerankClient({ apiKey: r.voyage.apiKey!, baseUrl: r.voyage.baseUrl, model: r.model ?? DEFAULT_VOYAGE_RERANK_MODEL }));
    case 'local':
      return new LocalKeywordProvider();
  }
}
