// Names for the parts of the answers to ./operations.ts the console passes around, taken from the types
// generated from the API's schema (./generated.ts, npm run codegen) so they cannot drift from it. The
// console may import no server code (.dependency-cruiser.cjs). SearchForm is the console's own.
import type {
  ConsoleAskProgressSubscription,
  ConsoleIndexProgressSubscription,
  ConsoleNeighborhoodQuery,
  ConsoleRepositoriesQuery,
  ConsoleRerankProgressSubscription,
  ConsoleSearchQuery,
  ConsoleVocabularyQuery,
  SearchMode,
} from './generated';

export type { SearchMode };

type Item<T> = T extends ReadonlyArray<infer U> ? U : never;

export type SearchResponse = ConsoleSearchQuery['search'];
export type SearchHit = Item<SearchResponse['results']>;
export type ScoreBreakdown = SearchHit['scoreBreakdown'];
export type GraphVia = NonNullable<SearchHit['via']>;
export type GraphPath = GraphVia['path'];

/** The search form's fields, as the URL and the inputs hold them. */
export interface SearchForm {
  text: string;
  mode: SearchMode;
  repository: string;
  topK: number;
  pathContains: string;
  pathGlob: string;
  kind: string;
  language: string;
}

export type Repository = Item<ConsoleRepositoriesQuery['repositories']>;
export type Vocabulary = ConsoleVocabularyQuery['searchVocabulary'];

type RerankProgress = ConsoleRerankProgressSubscription['rerankProgress'];
export type RerankHit = Item<RerankProgress['hits']>;
export type QueryFeedback = NonNullable<RerankProgress['feedback']>;
export type SuggestedSearch = NonNullable<Item<QueryFeedback['suggestions']>['suggestedQuery']>;
export type RerankSummary = NonNullable<RerankProgress['result']>;

export type Neighborhood = NonNullable<ConsoleNeighborhoodQuery['neighborhood']>;

type AskEvent = ConsoleAskProgressSubscription['askProgress'];
export type AskStep = NonNullable<AskEvent['step']>;
export type AskResult = NonNullable<AskEvent['result']>;
export type AskCitation = Item<AskResult['citations']>;

export type IndexProgress = ConsoleIndexProgressSubscription['indexProgress'];
