import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddingProvider } from './embedding-provider.factory';
import { EmbeddingConfigError, EmbeddingProviderName } from './embedding-provider';
import { GeminiEmbeddingProvider } from './gemini-embedding.provider';
import { HashEmbeddingProvider } from './hash-embedding.provider';
import { defaultEmbeddingDimensions, LOCAL_MODEL_DIMENSIONS } from '@scopegraph/config';
import { LOCAL_EMBEDDING_MODELS, LocalModelNotInstalledError } from './local-models';

describe('createEmbeddingProvider', () => {
  it('builds the hash and gemini providers', () => {
    expect(createEmbeddingProvider({ provider: 'hash', dimensions: 32 })).toBeInstanceOf(HashEmbeddingProvider);
    const gemini = createEmbeddingProvider({ provider: 'gemini', dimensions: 768, gemini: { apiKey: 'k', baseUrl: 'http://127.0.0.1:1' } });
    expect(gemini).toBeInstanceOf(GeminiEmbeddingProvider);
    expect(gemini).toMatchObject({ name: 'gemini', model: 'gemini-embedding-001', dimensions: 768 });
  });

  it('accepts the upstream model name for the local model and caps the Gemini batch size', () => {
    expect(() => createEmbeddingProvider({ provider: 'local', model: 'all-MiniLM-L6-v2', dimensions: 768 })).toThrow(/384/);
    const gemini = createEmbeddingProvider({ provider: 'gemini', dimensions: 768, batchSize: 512, gemini: { apiKey: 'k' } });
    expect((gemini as GeminiEmbeddingProvider).batchSize).toBe(100);
    expect(() => createEmbeddingProvider({ provider: 'gemini', model: 'all-MiniLM-L6-v2', dimensions: 768, gemini: { apiKey: 'k' } })).toThrow(
      /EMBEDDING_MODEL="all-MiniLM-L6-v2" names a local model/,
    );
  });

  it('keeps the config table of local model sizes in step with the models, so EMBEDDING_MODEL alone sets the index size', () => {
    const names = Object.values(LOCAL_EMBEDDING_MODELS).flatMap((spec) => [spec.id, ...spec.aliases].map((name) => [name, spec.dimensions] as const));
    expect(Object.fromEntries(names)).toEqual(LOCAL_MODEL_DIMENSIONS);
    expect(defaultEmbeddingDimensions('local', 'all-mpnet-base-v2')).toBe(768);
    expect(defaultEmbeddingDimensions('local', undefined)).toBe(384);
    expect(defaultEmbeddingDimensions('gemini', 'all-mpnet-base-v2')).toBe(384);
  });

  it('names EMBEDDING_PROVIDER for an unknown provider', () => {
    expect(() => createEmbeddingProvider({ provider: 'cohere' as EmbeddingProviderName, dimensions: 384 })).toThrow(/EMBEDDING_PROVIDER="cohere"/);
  });

  it('names the variables an OpenAI-compatible provider still needs', () => {
    expect(() => createEmbeddingProvider({ provider: 'openai', dimensions: 384 })).toThrow(/EMBEDDING_OPENAI_BASE_URL/);
    expect(() => createEmbeddingProvider({ provider: 'openai', dimensions: 384, openai: { baseUrl: 'http://127.0.0.1:1/v1' } })).toThrow(/EMBEDDING_MODEL/);
  });

  it('names EMBEDDING_DIMENSIONS when the local model cannot produce that size', () => {
    expect(() => createEmbeddingProvider({ provider: 'local', dimensions: 768 })).toThrow(EmbeddingConfigError);
    expect(() => createEmbeddingProvider({ provider: 'local', dimensions: 768 })).toThrow(/EMBEDDING_DIMENSIONS=768.*384/);
    expect(() => createEmbeddingProvider({ provider: 'hash', dimensions: 0 })).toThrow(/EMBEDDING_DIMENSIONS/);
    expect(() => createEmbeddingProvider({ provider: 'gemini', dimensions: 5000, gemini: { apiKey: 'k' } })).toThrow(/EMBEDDING_DIMENSIONS=5000/);
  });

  it('names GEMINI_API_KEY when gemini is chosen without a key', () => {
    expect(() => createEmbeddingProvider({ provider: 'gemini', dimensions: 768 })).toThrow(/GEMINI_API_KEY/);
  });

  it('names EMBEDDING_MODEL for an unknown local model, and explains a missing model dir', () => {
    expect(() => createEmbeddingProvider({ provider: 'local', model: 'bge-huge', dimensions: 384 })).toThrow(/EMBEDDING_MODEL="bge-huge"/);
    const empty = mkdtempSync(join(tmpdir(), 'no-models-'));
    try {
      expect(() => createEmbeddingProvider({ provider: 'local', dimensions: 384, modelsDir: empty })).toThrow(LocalModelNotInstalledError);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
