import type { EmbeddingProvider } from '@scopegraph/llm';

/**
 * An EmbeddingProvider that answers from vectors computed beforehand, so SearchService can be timed
 * with the query embedding left out while every other stage runs as in production. Asking for a
 * text it was not given is an error, never a silent embedding.
 */
export class PrecomputedEmbedder implements EmbeddingProvider {
  readonly name: EmbeddingProvider['name'];
  readonly model: string;
  readonly dimensions: number;
  private readonly vectors = new Map<string, number[]>();

  constructor(private readonly inner: EmbeddingProvider) {
    this.name = inner.name;
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  /** Embeds `text` now with the real provider and keeps the vector. */
  async add(text: string): Promise<number[]> {
    let v = this.vectors.get(text);
    if (!v) {
      v = await this.inner.embedQuery(text);
      this.vectors.set(text, v);
    }
    return v;
  }

  set(text: string, vector: number[]): void {
    this.vectors.set(text, vector);
  }

  async embedQuery(text: string): Promise<number[]> {
    const v = this.vectors.get(text);
    if (!v) throw new Error(`no precomputed vector for ${JSON.stringify(text.slice(0, 80))}`);
    return v;
  }

  async embedDocuments(): Promise<number[][]> {
    throw new Error('PrecomputedEmbedder only answers queries');
  }
}
