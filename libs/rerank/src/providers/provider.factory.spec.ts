import { loadConfig } from '@scopegraph/config';
import { chooseProvider, createRerankProvider } from './provider.factory';

const NO_FILE = '/nonexistent/.env';
const config = (env: Record<string, string>) => loadConfig({ NEO4J_PASSWORD: 'pw', ...env }, NO_FILE);

describe('rerank provider choice', () => {
  it('auto: gemini with a key, else openai, cohere, voyage as configured, else the local reranker', () => {
    expect(chooseProvider(config({}))).toBe('local');
    expect(chooseProvider(config({ VOYAGE_API_KEY: 'v' }))).toBe('voyage');
    expect(chooseProvider(config({ VOYAGE_API_KEY: 'v', COHERE_API_KEY: 'c' }))).toBe('cohere');
    expect(chooseProvider(config({ COHERE_API_KEY: 'c', RERANK_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }))).toBe('openai');
    expect(chooseProvider(config({ COHERE_API_KEY: 'c', GEMINI_API_KEY: 'g' }))).toBe('gemini');
    expect(chooseProvider(config({ GEMINI_API_KEY: 'g', RERANK_PROVIDER: 'local' }))).toBe('local');
  });

  it('builds each provider with its model', () => {
    expect(createRerankProvider(config({}))).toMatchObject({ name: 'local-keyword', kind: 'local' });
    expect(createRerankProvider(config({ GEMINI_API_KEY: 'g', GEMINI_CHAT_MODEL: 'gemini-x' }))).toMatchObject({ name: 'gemini', model: 'gemini-x', kind: 'llm' });
    expect(createRerankProvider(config({ GEMINI_API_KEY: 'g', RERANK_MODEL: 'gemini-y' }))).toMatchObject({ model: 'gemini-y' });
    expect(createRerankProvider(config({ RERANK_OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', RERANK_MODEL: 'qwen2.5' }))).toMatchObject({ name: 'openai', model: 'qwen2.5' });
    expect(createRerankProvider(config({ COHERE_API_KEY: 'c' }))).toMatchObject({ name: 'cohere', model: 'rerank-v3.5', kind: 'cross-encoder' });
    expect(createRerankProvider(config({ VOYAGE_API_KEY: 'v' }))).toMatchObject({ name: 'voyage', model: 'rerank-2.5', feedback: false });
  });

  it('refuses at boot a provider without what it needs, naming the variable and never a secret', () => {
    expect(() => createRerankProvider(config({ RERANK_PROVIDER: 'gemini' }))).toThrow(/GEMINI_API_KEY/);
    expect(() => createRerankProvider(config({ RERANK_PROVIDER: 'openai' }))).toThrow(/RERANK_OPENAI_BASE_URL/);
    expect(() => createRerankProvider(config({ RERANK_PROVIDER: 'openai', RERANK_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }))).toThrow(/RERANK_MODEL/);
    expect(() => createRerankProvider(config({ RERANK_PROVIDER: 'cohere' }))).toThrow(/COHERE_API_KEY/);
    expect(() => createRerankProvider(config({ RERANK_PROVIDER: 'voyage' }))).toThrow(/VOYAGE_API_KEY/);
    expect(() => config({ RERANK_PROVIDER: 'magic' })).toThrow(/RERANK_PROVIDER/);
    expect(() => config({ COHERE_API_KEY: ' ' })).not.toThrow();
    expect(JSON.stringify(createRerankProvider(config({ COHERE_API_KEY: 'secret-cohere-key' })))).not.toContain('secret-cohere-key');
  });
});
