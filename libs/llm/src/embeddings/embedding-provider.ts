export type EmbeddingProviderName = 'local' | 'gemini' | 'openai' | 'hash';

export const EMBEDDING_PROVIDER_NAMES: readonly EmbeddingProviderName[] = ['local', 'gemini', 'openai', 'hash'];

/**
 * One way of turning text into vectors. Every implementation returns L2-normalised vectors of
 * exactly `dimensions` numbers, so callers may compare them with cosine or dot product alike.
 */
export interface EmbeddingProvider {
  readonly name: EmbeddingProviderName;
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in the same order; throws rather than return a short or empty vector. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
  /** Frees native resources (ONNX session) or sockets; the provider is unusable afterwards. */
  close?(): Promise<void>;
}

/** Raised for every embedding failure, so callers can tell it apart from their own bugs. */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

/** Raised when configuration (env vars, factory options) cannot produce a working provider. */
export class EmbeddingConfigError extends EmbeddingError {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingConfigError';
  }
}
