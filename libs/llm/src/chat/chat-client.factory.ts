import { AppConfig, ConfigError } from '@scopegraph/config';
import { TextChatClient } from './chat-stream';
import { GeminiChatClient } from './gemini-chat.client';
import { OpenAiCompatibleChatClient } from './openai-chat.client';

/** Answers are prose, not judgements: a little more freedom than the reranker's 0.1. */
const ANSWER_TEMPERATURE = 0.2;

/**
 * The chat model of the answering pipeline, or null when none is configured (ask then returns the
 * evidence with a message saying so). A choice that could only fail later is refused at boot.
 */
export function createTextChatClient(config: AppConfig): TextChatClient | null {
  const c = config.chat;
  const choice = c.provider !== 'auto' ? c.provider : config.gemini.apiKey ? 'gemini' : c.openai.baseUrl ? 'openai' : 'none';
  switch (choice) {
    case 'gemini':
      if (!config.gemini.apiKey) throw new ConfigError(['CHAT_PROVIDER=gemini needs GEMINI_API_KEY']);
      return new GeminiChatClient({ apiKey: config.gemini.apiKey, baseUrl: config.gemini.baseUrl, model: c.model ?? config.gemini.chatModel, temperature: ANSWER_TEMPERATURE });
    case 'openai':
      if (!c.openai.baseUrl) throw new ConfigError(['CHAT_PROVIDER=openai needs CHAT_OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)']);
      if (!c.model) throw new ConfigError(['CHAT_PROVIDER=openai needs CHAT_MODEL (the model name the server knows)']);
      return new OpenAiCompatibleChatClient({ baseUrl: c.openai.baseUrl, apiKey: c.openai.apiKey, model: c.model, temperature: ANSWER_TEMPERATURE });
    default:
      return null;
  }
}

/** Holder, because a DI provider cannot be null: `client` is null when no chat model is configured. */
export interface ChatClientRef {
  client: TextChatClient | null;
}
