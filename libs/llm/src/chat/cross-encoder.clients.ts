import { observeModelCall } from '@scopegraph/observability';
import { ModelCallError, postJson } from './model-call.error';

/** One document's relevance as a cross-encoder rerank API returns it. */
export interface CrossEncoderScore {
  /** Position of the document in the request. */
  index: number;
  relevanceScore: number;
}

export interface CrossEncoderRerankClient {
  readonly provider: 'cohere' | 'voyage';
  readonly model: string;
  rerank(query: string, documents: string[], signal?: AbortSignal): Promise<CrossEncoderScore[]>;
}

export interface CrossEncoderClientOptions {
  apiKey: string;
  /** Root URL without the version segment; tests point it at a fake. */
  baseUrl?: string;
  model?: string;
}

export const DEFAULT_COHERE_BASE_URL = 'https://api.cohere.com';
export const DEFAULT_COHERE_RERANK_MODEL = 'rerank-v3.5';
export const DEFAULT_VOYAGE_BASE_URL = 'https://api.voyageai.com';
export const DEFAULT_VOYAGE_RERANK_MODEL = 'rerank-2.5';

/** Cohere's `POST /v2/rerank`: `{model, query, documents, top_n}` -> `{results: [{index, relevance_score}]}`. */
export class CohereRerankClient implements CrossEncoderRerankClient {
  readonly provider = 'cohere' as const;
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(options: CrossEncoderClientOptions) {
    if (!options.apiKey) throw new Error('CohereRerankClient needs an API key (COHERE_API_KEY)');
    this.apiKey = options.apiKey;
    this.model = options.model ?? DEFAULT_COHERE_RERANK_MODEL;
    this.url = `${(options.baseUrl ?? DEFAULT_COHERE_BASE_URL).replace(/\/+$/, '')}/v2/rerank`;
    Object.defineProperty(this, 'apiKey', { enumerable: false });
  }

  async rerank(query: string, documents: string[], signal?: AbortSignal): Promise<CrossEncoderScore[]> {
    const answer = (await observeModelCall(this.provider, 'rerank', () =>
      postJson(
      this.url,
      { model: this.model, query, documents, top_n: documents.length },
      { authorization: `Bearer ${this.apiKey}` },
      signal,
      `Cohere rerank (model ${this.model})`,
    ))) as { results?: Array<{ index?: unknown; relevance_score?: unknown }> };
    return scoresFrom(answer?.results, 'Cohere rerank: the answer has no results array');
  }
}

/** Voyage's `POST /v1/rerank`: `{query, documents, model, truncation}` -> `{data: [{index, relevance_score}]}`. */
export class VoyageRerankClient implements CrossEncoderRerankClient {
  readonly provider = 'voyage' as const;
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(options: CrossEncoderClientOptions) {
    if (!options.apiKey) throw new Error('VoyageRerankClient needs an API key (VOYAGE_API_KEY)');
    this.apiKey = options.apiKey;
    this.model = options.model ?? DEFAULT_VOYAGE_RERANK_MODEL;
    this.url = `${(options.baseUrl ?? DEFAULT_VOYAGE_BASE_URL).replace(/\/+$/, '')}/v1/rerank`;
    Object.defineProperty(this, 'apiKey', { enumerable: false });
  }

  async rerank(query: string, documents: string[], signal?: AbortSignal): Promise<CrossEncoderScore[]> {
    const answer = (await observeModelCall(this.provider, 'rerank', () =>
      postJson(
      this.url,
      { query, documents, model: this.model, truncation: true },
      { authorization: `Bearer ${this.apiKey}` },
      signal,
      `Voyage rerank (model ${this.model})`,
    ))) as { data?: Array<{ index?: unknown; relevance_score?: unknown }> };
    return scoresFrom(answer?.data, 'Voyage rerank: the answer has no data array');
  }
}

/** Keeps well-formed entries; the caller decides what missing or out-of-range indices mean. */
function scoresFrom(entries: Array<{ index?: unknown; relevance_score?: unknown }> | undefined, missing: string): CrossEncoderScore[] {
  if (!Array.isArray(entries)) throw new ModelCallError(missing, 'http', 200);
  return entries
    .filter((e) => Number.isInteger(e?.index) && typeof e?.relevance_score === 'number')
    .map((e) => ({ index: e.index as number, relevanceScore: e.relevance_score as number }));
}
