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

type ScoreEntries = Array<{ index?: unknown; relevance_score?: unknown }>;

/** What differs between the cross-encoder rerank APIs: where they live, the request body, where the scores are. */
interface CrossEncoderApi {
  provider: 'cohere' | 'voyage';
  label: string;
  keyVariable: string;
  defaultBaseUrl: string;
  defaultModel: string;
  path: string;
  body(model: string, query: string, documents: string[]): unknown;
  scores(answer: unknown): ScoreEntries | undefined;
  missing: string;
}

/** Cohere's `POST /v2/rerank`: `{model, query, documents, top_n}` -> `{results: [{index, relevance_score}]}`. */
const COHERE_API: CrossEncoderApi = {
  provider: 'cohere',
  label: 'Cohere',
  keyVariable: 'COHERE_API_KEY',
  defaultBaseUrl: DEFAULT_COHERE_BASE_URL,
  defaultModel: DEFAULT_COHERE_RERANK_MODEL,
  path: '/v2/rerank',
  body: (model, query, documents) => ({ model, query, documents, top_n: documents.length }),
  scores: (answer) => (answer as { results?: ScoreEntries } | null)?.results,
  missing: 'the answer has no results array',
};

/** Voyage's `POST /v1/rerank`: `{query, documents, model, truncation}` -> `{data: [{index, relevance_score}]}`. */
const VOYAGE_API: CrossEncoderApi = {
  provider: 'voyage',
  label: 'Voyage',
  keyVariable: 'VOYAGE_API_KEY',
  defaultBaseUrl: DEFAULT_VOYAGE_BASE_URL,
  defaultModel: DEFAULT_VOYAGE_RERANK_MODEL,
  path: '/v1/rerank',
  body: (model, query, documents) => ({ query, documents, model, truncation: true }),
  scores: (answer) => (answer as { data?: ScoreEntries } | null)?.data,
  missing: 'the answer has no data array',
};

/** One client for every cross-encoder rerank API: bearer key, JSON POST, scores by document index. */
class HttpCrossEncoderClient implements CrossEncoderRerankClient {
  readonly provider: 'cohere' | 'voyage';
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(
    private readonly api: CrossEncoderApi,
    options: CrossEncoderClientOptions,
  ) {
    if (!options.apiKey) throw new Error(`${new.target.name} needs an API key (${api.keyVariable})`);
    this.provider = api.provider;
    this.apiKey = options.apiKey;
    this.model = options.model ?? api.defaultModel;
    this.url = `${(options.baseUrl ?? api.defaultBaseUrl).replace(/\/+$/, '')}${api.path}`;
    Object.defineProperty(this, 'apiKey', { enumerable: false });
  }

  async rerank(query: string, documents: string[], signal?: AbortSignal): Promise<CrossEncoderScore[]> {
    const what = `${this.api.label} rerank`;
    const answer = await observeModelCall(this.provider, 'rerank', () => postJson(this.url, this.api.body(this.model, query, documents), { authorization: `Bearer ${this.apiKey}` }, signal, `${what} (model ${this.model})`));
    return scoresFrom(this.api.scores(answer), `${what}: ${this.api.missing}`);
  }
}

export class CohereRerankClient extends HttpCrossEncoderClient {
  constructor(options: CrossEncoderClientOptions) {
    super(COHERE_API, options);
  }
}

export class VoyageRerankClient extends HttpCrossEncoderClient {
  constructor(options: CrossEncoderClientOptions) {
    super(VOYAGE_API, options);
  }
}

/** Keeps well-formed entries; the caller decides what missing or out-of-range indices mean. */
function scoresFrom(entries: ScoreEntries | undefined, missing: string): CrossEncoderScore[] {
  if (!Array.isArray(entries)) throw new ModelCallError(missing, 'http', 200);
  return entries
    .filter((e) => Number.isInteger(e?.index) && typeof e?.relevance_score === 'number')
    .map((e) => ({ index: e.index as number, relevanceScore: e.relevance_score as number }));
}
