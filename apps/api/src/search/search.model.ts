import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { compileGlob, EDGE_TYPES, type GraphEdgeType, LANGUAGES, SCOPE_KINDS, SEARCH_LIMITS } from '@scopegraph/search';
import { JSONScalar } from '../graphql/json.scalar';
import { RerankJob, RerankOptionsInput } from '../rerank/rerank.model';
import { FileRollup } from './file-rollup.model';

export { FileRollup };

// ---- Enums --------------------------------------------------------------------------------------

export enum SearchModeEnum {
  SEMANTIC = 'semantic',
  BM25 = 'bm25',
  HYBRID = 'hybrid',
  SEMANTIC_RERANK = 'semantic_rerank',
  GRAPH = 'graph',
  LOCALIZE = 'localize',
}
registerEnumType(SearchModeEnum, {
  name: 'SearchMode',
  description:
    'SEMANTIC: vector index; BM25: full-text index; HYBRID: both fused by weighted RRF (a recognised relationship question is answered from the graph first); SEMANTIC_RERANK: widened vector pool re-ordered by keywords; GRAPH: a relationship question ("which classes extend X", "who calls X", "what does X call", "where is X imported/used", "what overrides X") answered from the graph; LOCALIZE: an issue (text, stack traces, logs, code) -> the functions and methods a fix most likely changes, each with its evidence, and their files (HYBRID chooses it for text that is clearly an issue)',
});

export enum DirectionEnum {
  OUT = 'out',
  IN = 'in',
  BOTH = 'both',
}
registerEnumType(DirectionEnum, { name: 'Direction', description: 'OUT follows edges, IN walks them backwards (callers), BOTH does either' });

/** The GraphQL enum is the ingest allow-list itself, so an unknown edge type never gets past parsing. */
export const EdgeTypeEnum = Object.fromEntries(EDGE_TYPES.map((t) => [t, t])) as { [K in GraphEdgeType]: K };
registerEnumType(EdgeTypeEnum, { name: 'EdgeType', description: 'Relationship types of the code graph (docs/graph-model.md)' });

// ---- Input --------------------------------------------------------------------------------------

const MAX_SOURCE_CHARS = 1_000_000;
export const DEFAULT_SOURCE_CHARS = 2_000;

/** A path glob that compiles; the message says what is wrong and where. */
function IsGlob() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isGlob',
      target: target.constructor,
      propertyName,
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          try {
            compileGlob(value);
            return true;
          } catch {
            return false;
          }
        },
        defaultMessage(args: ValidationArguments) {
          try {
            compileGlob(String(args.value));
            return `${args.property} must be a glob`;
          } catch (error) {
            return `${args.property}: ${(error as Error).message}`;
          }
        },
      },
    });
}

@InputType({ description: 'RRF weights (code-search defaults: semantic 2, bm25 3, since exact identifiers matter more than paraphrases; a question in plain words gets semantic 2, bm25 1 unless weights are given here); graph applies with graphSignal' })
export class SearchWeightsInput {
  @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) semantic?: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) bm25?: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) graph?: number;
}

@InputType({ description: 'Graph expansion around each hit' })
export class ExpandInput {
  @Field(() => Int, { nullable: true, description: '1-3 (default 1)' })
  @IsOptional() @IsInt() @Min(1) @Max(SEARCH_LIMITS.maxDepth)
  depth?: number;

  @Field(() => [EdgeTypeEnum], { nullable: true, description: 'Edge types to follow (default: all)' })
  @IsOptional() @IsArray() @ArrayMaxSize(EDGE_TYPES.length * 2) @IsIn(EDGE_TYPES, { each: true })
  edges?: GraphEdgeType[];

  @Field(() => DirectionEnum, { nullable: true, description: 'default BOTH' })
  @IsOptional() @IsEnum(DirectionEnum)
  direction?: DirectionEnum;

  @Field(() => Int, { nullable: true, description: `Neighbors in total, 1-${SEARCH_LIMITS.maxExpandNodes} (default 50)` })
  @IsOptional() @IsInt() @Min(1) @Max(SEARCH_LIMITS.maxExpandNodes)
  maxNodes?: number;
}

@InputType({ description: 'Rerank options (see RerankOptionsInput) plus the question the hits should answer' })
export class SearchRerankInput extends RerankOptionsInput {
  @Field({ nullable: true, description: 'The question for the LLM (default: the search text)' })
  question?: string;
}

@InputType()
export class SearchInput {
  @Field({ description: `What to look for, 1-${SEARCH_LIMITS.maxTextLength} characters (an issue for LOCALIZE: up to ${SEARCH_LIMITS.maxIssueLength}, cut to its signals' limits); code and punctuation are fine` })
  @IsString() @MaxLength(SEARCH_LIMITS.maxIssueLength) @Matches(/\S/, { message: 'text must not be empty' })
  text: string;

  @Field(() => SearchModeEnum, { nullable: true, defaultValue: SearchModeEnum.HYBRID })
  @IsOptional() @IsEnum(SearchModeEnum)
  mode?: SearchModeEnum;

  @Field(() => Int, { nullable: true, defaultValue: 10, description: `Results, 1-${SEARCH_LIMITS.maxTopK}` })
  @IsOptional() @IsInt() @Min(1) @Max(SEARCH_LIMITS.maxTopK)
  topK?: number;

  @Field({ nullable: true, description: 'Only this repository (by name); an unknown one is an error' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200)
  repository?: string;

  @Field({ nullable: true, description: 'Only paths containing this (case-sensitive)' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(SEARCH_LIMITS.maxFilterLength)
  pathContains?: string;

  @Field({ nullable: true, description: 'Only paths matching this glob: ** directories, * and ? within a segment, [a-z], {a,b}; no / = any directory' })
  @IsOptional() @IsString() @MaxLength(SEARCH_LIMITS.maxGlobLength) @IsGlob()
  pathGlob?: string;

  @Field({ nullable: true, description: `One of: ${LANGUAGES.join(', ')}` })
  @IsOptional() @IsIn(LANGUAGES)
  language?: string;

  @Field({ nullable: true, description: `One of: ${SCOPE_KINDS.join(', ')}` })
  @IsOptional() @IsIn(SCOPE_KINDS)
  kind?: string;

  @Field({ nullable: true, description: 'Exact name or qualified name (create, InvoiceService.create)' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(SEARCH_LIMITS.maxFilterLength)
  name?: string;

  @Field(() => SearchWeightsInput, { nullable: true })
  @IsOptional() @ValidateNested() @Type(() => SearchWeightsInput)
  weights?: SearchWeightsInput;

  @Field(() => Int, { nullable: true, description: `Candidates per list in HYBRID (default 150, at most ${SEARCH_LIMITS.maxCandidates})` })
  @IsOptional() @IsInt() @Min(1) @Max(SEARCH_LIMITS.maxCandidates)
  candidates?: number;

  @Field(() => Int, { nullable: true, description: 'RRF constant k (default 10)' })
  @IsOptional() @IsInt() @Min(1) @Max(10_000)
  rrfK?: number;

  @Field(() => Float, { nullable: true, description: 'SEMANTIC_RERANK: share of the keyword score, 0-1 (default 0.3)' })
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1)
  keywordWeight?: number;

  @Field({ nullable: true, defaultValue: true, description: 'HYBRID: answer a recognised relationship question from the graph first (explain.structural says so)' })
  @IsOptional() @IsBoolean()
  structural?: boolean;

  @Field({ nullable: true, defaultValue: true, description: 'HYBRID: hand text that is clearly an issue (a stack trace, several lines with code) to LOCALIZE (explain.localize.chosenBy says so)' })
  @IsOptional() @IsBoolean()
  autoLocalize?: boolean;

  @Field({ nullable: true, defaultValue: true, description: 'HYBRID and SEMANTIC_RERANK: re-order the fused top 30 by keyword, phrase and name evidence read from the candidates' })
  @IsOptional() @IsBoolean()
  rescore?: boolean;

  @Field({ nullable: true, defaultValue: false, description: 'Rank up hits connected to other hits (an extra RRF list, weight weights.graph)' })
  @IsOptional() @IsBoolean()
  graphSignal?: boolean;

  @Field(() => ExpandInput, { nullable: true })
  @IsOptional() @ValidateNested() @Type(() => ExpandInput)
  expand?: ExpandInput;

  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_SOURCE_CHARS, description: 'Cut each source to this many characters; null for all of it' })
  @IsOptional() @IsInt() @Min(0) @Max(MAX_SOURCE_CHARS)
  sourceChars?: number | null;

  @Field(() => SearchRerankInput, {
    nullable: true,
    description: 'Rerank the hits with the configured LLM reranker: the response carries the rerank job (watch it with rerankProgress)',
  })
  @IsOptional()
  rerank?: SearchRerankInput;
}

// ---- Output -------------------------------------------------------------------------------------

@ObjectType({ description: 'A scope: a file, class, function, method, SQL object...' })
export class Scope {
  @Field(() => ID) id: string;
  @Field() repoId: string;
  @Field() name: string;
  @Field() qualifiedName: string;
  @Field() kind: string;
  @Field() language: string;
  @Field() path: string;
  @Field(() => Int, { nullable: true }) startLine: number | null;
  @Field(() => Int, { nullable: true }) endLine: number | null;
  @Field(() => String, { nullable: true }) signature: string | null;
  @Field(() => String, { nullable: true }) docComment: string | null;
  @Field(() => String, { nullable: true }) source: string | null;
  @Field(() => Int, { description: 'Length of the whole source' }) sourceLength: number;
  @Field() sourceTruncated: boolean;
}

@ObjectType()
export class ListScore {
  @Field(() => Float, { description: "The list's own score (cosine in [0,1], or BM25)" }) score: number;
  @Field(() => Int, { description: '1-based rank in the list' }) rank: number;
  @Field(() => Float, { description: 'What it added to the final score' }) contribution: number;
}

@ObjectType()
export class KeywordScore extends ListScore {
  @Field(() => Float, { description: 'Keyword score before normalising by the pool maximum' }) raw: number;
}

@ObjectType()
export class GraphScore extends ListScore {
  @Field(() => Int, { description: 'Other candidates this scope is directly connected to' }) connections: number;
}

@ObjectType({ description: 'Second stage: what each piece of evidence added to the final score' })
export class RescoreScore {
  @Field(() => Float, { description: 'Share of the fused score (normalised by the best)' }) fused: number;
  @Field(() => Float, { description: 'Share of the keyword score over the candidate pool' }) keyword: number;
  @Field(() => Float, { description: 'Bonus for a phrase of the query found word for word' }) phrase: number;
  @Field(() => Float, { description: 'Bonus for a name the query mentions' }) name: number;
  @Field(() => Float, { description: 'Bonus for a name made of two or more words of a plain-words question' }) nameWords: number;
  @Field(() => Float, { description: 'Bonus because the enclosing class, function or file is a candidate too' }) container: number;
  @Field(() => Float, { description: 'Bonus for a code edge (calls, references, extends, implements, overrides) with another candidate' }) link: number;
}

@ObjectType()
export class ScoreBreakdown {
  @Field(() => ListScore, { nullable: true }) semantic?: ListScore;
  @Field(() => ListScore, { nullable: true }) bm25?: ListScore;
  @Field(() => KeywordScore, { nullable: true }) keyword?: KeywordScore;
  @Field(() => GraphScore, { nullable: true }) graph?: GraphScore;
  @Field(() => RescoreScore, { nullable: true }) rescore?: RescoreScore;
  @Field({ description: 'none | rrf | blend | graph (answered from the graph)' }) fusion: string;
  @Field(() => [String]) filtersApplied: string[];
}

@ObjectType({ description: 'How a neighbor was reached: node ids from the hit, edge types and walking directions per hop' })
export class GraphPath {
  @Field(() => [ID]) nodeIds: string[];
  @Field(() => [EdgeTypeEnum]) edgeTypes: GraphEdgeType[];
  @Field(() => [DirectionEnum]) directions: ('out' | 'in')[];
  @Field(() => [String], { nullable: 'itemsAndList', description: 'How each hop\'s edge was made: compiler, scip, name (the only declaration the name can mean) or heuristic (one of several candidates); null for containment and IMPORTS' })
  provenances?: (string | null)[];
}

@ObjectType()
export class Neighbor {
  @Field(() => Scope) scope: Scope;
  @Field(() => Int) depth: number;
  @Field(() => ID, { description: 'The scope the walk started from' }) fromId: string;
  @Field(() => GraphPath) path: GraphPath;
}

@ObjectType({ description: 'How a GRAPH answer is connected to the scope the question named' })
export class GraphVia {
  @Field({ description: 'subtypes | implementers | supertypes | callers | callees | importers | users | overriders' }) relation: string;
  @Field(() => ID, { description: 'The scope the question named' }) anchorId: string;
  @Field() anchorName: string;
  @Field(() => Int) depth: number;
  @Field(() => GraphPath, { description: 'From the named scope to this one' }) path: GraphPath;
  @Field({ nullable: true, description: 'The path has a hop the name-based resolver made (provenance name or heuristic): the answer rests on name matching' }) nameOnly?: boolean;
}

@ObjectType({ description: 'LOCALIZE: one piece of evidence for a hit' })
export class LocalizeEvidence {
  @Field({ description: 'frame | frame-neighbor | name | name-neighbor | member | overrider | phrase | code | path | prose | file-prior | file-sibling | function-match | top-neighbor' }) signal: string;
  @Field({ description: 'What the signal was: the frame, the name, the quoted message...' }) detail: string;
  @Field(() => Int, { description: "This hit's rank in the signal's list" }) rank: number;
  @Field(() => Float, { description: 'What it added to the fused score' }) contribution: number;
  @Field(() => String, { nullable: true, description: 'Spread over the graph: the edge travelled (CALLS, HAS_MEMBER, OVERRIDES)' }) edge?: string;
  @Field(() => String, { nullable: true, description: 'Spread over the graph: the scope it came from' }) from?: string;
}

@ObjectType()
export class SearchHit {
  @Field(() => Scope) scope: Scope;
  @Field(() => Float) score: number;
  @Field(() => Int) rank: number;
  @Field(() => ScoreBreakdown) scoreBreakdown: ScoreBreakdown;
  @Field(() => [Neighbor], { nullable: true, description: 'With expand' }) neighbors?: Neighbor[];
  @Field(() => GraphVia, { nullable: true, description: 'Answers to a relationship question: the relation and the connecting path' }) via?: GraphVia;
  @Field(() => [String], { nullable: true, description: 'The same scope (kind, name and source) also found at these paths; shown once' }) alsoAt?: string[];
  @Field(() => [LocalizeEvidence], { nullable: true, description: 'LOCALIZE: why this hit, one entry per signal that brought it' }) evidence?: LocalizeEvidence[];
}


@ObjectType({ description: 'Milliseconds per stage' })
export class SearchTimings {
  @Field(() => Float) filters: number;
  @Field(() => Float) embed: number;
  @Field(() => Float) semantic: number;
  @Field(() => Float) bm25: number;
  @Field(() => Float) fuse: number;
  @Field(() => Float) graph: number;
  @Field(() => Float, { description: 'Relationship question answered from the graph' }) structural: number;
  @Field(() => Float, { description: 'Second stage over the fused head' }) rescore: number;
  @Field(() => Float) fetch: number;
  @Field(() => Float) expand: number;
  @Field(() => Float, { description: 'LOCALIZE: signal extraction and the signal lists' }) localize: number;
  @Field(() => Float) total: number;
}

@ObjectType()
export class SearchResponse {
  @Field(() => [SearchHit]) results: SearchHit[];
  @Field(() => SearchTimings) timings: SearchTimings;
  @Field({ description: 'Filtered vector strategy used (exact-prefilter, index-filter, overfetch-postfilter, ...)' }) strategy: string;
  @Field(() => JSONScalar, { description: 'The executed plan: lists, strategy and why, Cypher files, parameters (no vectors)' }) explain: unknown;
  @Field(() => [String], { description: 'Degradations, e.g. a HYBRID query answered by its keyword list because embedding failed' }) warnings: string[];
  @Field(() => RerankJob, { nullable: true, description: 'With input.rerank: the started rerank; `result` is set when it finished at once' })
  rerank?: RerankJob | null;
  @Field(() => [FileRollup], { nullable: true, description: 'LOCALIZE: the files of the ranked functions, best first' }) files?: FileRollup[];
}

@ObjectType({ description: 'The values the search filters accept and the edge types of the graph, for clients that build filter menus' })
export class SearchVocabulary {
  @Field(() => [String]) kinds: string[];
  @Field(() => [String]) languages: string[];
  @Field(() => [EdgeTypeEnum]) edgeTypes: GraphEdgeType[];
}

@ObjectType()
export class Neighborhood {
  @Field(() => Scope) root: Scope;
  @Field(() => [Neighbor]) neighbors: Neighbor[];
  @Field({ description: 'The generated relationship pattern (allow-listed constants only)' }) pattern: string;
}
