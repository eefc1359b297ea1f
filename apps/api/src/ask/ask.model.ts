import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ASK_LIMITS, MAX_PIPELINE_YAML_CHARS } from '@scopegraph/pipeline';
import { JSONScalar } from '../graphql/json.scalar';

export enum AskEventKindGql {
  STEP = 'step',
  CHUNK = 'chunk',
  FINAL = 'final',
  ERROR = 'error',
}
registerEnumType(AskEventKindGql, { name: 'AskEventKind', description: 'STEP: a pipeline step ran; CHUNK: answer text as it is generated; FINAL: the result; ERROR: the run failed' });

@InputType()
export class AskInput {
  @Field({ description: `The question (at most ${ASK_LIMITS.maxQuestionChars} characters)` })
  @IsString() @MaxLength(ASK_LIMITS.maxQuestionChars) @Matches(/\S/, { message: 'question must not be empty' })
  question: string;

  @Field({ description: 'Repository id (as indexed)' })
  @IsString() @MinLength(1) @MaxLength(200)
  repository: string;

  @Field({ nullable: true, description: 'Conversation id: turns with the same id share history' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(ASK_LIMITS.maxSessionIdChars) @Matches(/^[A-Za-z0-9_.:-]+$/, { message: 'sessionId may hold letters, digits, _ . : - only' })
  sessionId?: string;

  @Field({ nullable: true, description: 'false: the question is translated to English first and the answer back (default true)' })
  @IsOptional() @IsBoolean()
  isEnglish?: boolean;

  @Field({ nullable: true, description: 'Pipeline name (see `pipelines`); default ASK_DEFAULT_PIPELINE' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100)
  pipeline?: string;
}

@ObjectType()
export class AskJob {
  @Field(() => ID) id: string;
}

@ObjectType()
export class AskStep {
  @Field() stepId: string;
  @Field() action: string;
  @Field() outcome: string;
  @Field(() => Float, { description: 'Start, ms after the run began' }) startedMs: number;
  @Field(() => Float) ms: number;
  @Field(() => Float, { description: 'Time spent waiting on the model in this step' }) modelMs: number;
  @Field(() => Int) modelCalls: number;
  @Field(() => Int, { description: 'HTTP attempts behind the model calls: more than modelCalls when the shared retry policy retried' }) modelAttempts: number;
  @Field(() => Int, { description: 'As reported by the model API' }) inputTokens: number;
  @Field(() => Int) outputTokens: number;
  @Field(() => JSONScalar) detail: unknown;
}

@ObjectType()
export class AskCitation {
  @Field() id: string;
  @Field() path: string;
  @Field(() => Int, { nullable: true }) startLine: number | null;
  @Field(() => Int, { nullable: true }) endLine: number | null;
  @Field() qualifiedName: string;
}

@ObjectType()
export class AskPlan {
  @Field({ description: 'semantic, semantic_rerank, bm25, hybrid, graph or direct' }) mode: string;
  @Field() query: string;
  @Field(() => String, { nullable: true, description: 'Why the router output was not used (the fallback is hybrid on the question)' }) fallback: string | null;
}

@ObjectType()
export class AskTimings {
  @Field(() => Float) totalMs: number;
  @Field(() => Float) modelMs: number;
  @Field(() => Float, { description: 'totalMs - modelMs: the pipeline’s own time' }) overheadMs: number;
  @Field(() => Float, { nullable: true }) firstChunkMs: number | null;
}

@ObjectType()
export class AskResultGql {
  @Field() askId: string;
  @Field() pipeline: string;
  @Field() question: string;
  @Field() questionEn: string;
  @Field() answer: string;
  @Field() answerEn: string;
  @Field(() => [AskCitation]) citations: AskCitation[];
  @Field(() => [String], { description: 'Cited ids that were not in the evidence (dropped)' }) inventedCitations: string[];
  @Field(() => AskPlan, { nullable: true }) plan: AskPlan | null;
  @Field(() => JSONScalar, { description: 'Every retrieval, corrective retries included' }) attempts: unknown;
  @Field(() => Int) loops: number;
  @Field(() => Int) retries: number;
  @Field(() => String, { nullable: true }) missing: string | null;
  @Field(() => JSONScalar) evidence: unknown;
  @Field() modelAvailable: boolean;
  @Field(() => String, { nullable: true }) model: string | null;
  @Field(() => [String]) warnings: string[];
  @Field(() => JSONScalar) history: unknown;
  @Field(() => Int) evidenceTokens: number;
  @Field() evidenceSummarized: boolean;
  @Field(() => JSONScalar) tokens: unknown;
  @Field(() => Int) modelCalls: number;
  @Field(() => AskTimings) timings: AskTimings;
  @Field(() => [AskStep]) trace: AskStep[];
}

@ObjectType()
export class AskProgress {
  @Field() askId: string;
  @Field(() => Int) seq: number;
  @Field(() => AskEventKindGql) kind: AskEventKindGql;
  @Field(() => AskStep, { nullable: true }) step?: AskStep;
  @Field(() => String, { nullable: true, description: 'CHUNK: the next piece of the answer' }) text?: string;
  @Field(() => AskResultGql, { nullable: true }) result?: AskResultGql;
  @Field(() => String, { nullable: true }) message?: string;
}

export enum AskStatusGql {
  RUNNING = 'running',
  COMPLETED = 'completed',
  FAILED = 'failed',
}
registerEnumType(AskStatusGql, { name: 'AskStatus' });

@ObjectType()
export class AskState {
  @Field() askId: string;
  @Field(() => AskStatusGql) status: AskStatusGql;
  @Field({ description: 'The answer streamed so far (the whole answer once COMPLETED)' }) answerSoFar: string;
  @Field(() => Int, { description: 'Pipeline steps executed so far' }) steps: number;
  @Field(() => AskResultGql, { nullable: true, description: 'Once COMPLETED' }) result: AskResultGql | null;
  @Field(() => String, { nullable: true, description: 'Why it FAILED' }) message: string | null;
}

@ObjectType()
export class ConversationTurn {
  @Field(() => Int) seq: number;
  @Field() questionOriginal: string;
  @Field() questionEn: string;
  @Field() answerEn: string;
  @Field() answer: string;
  @Field() createdAt: string;
}

@ObjectType()
export class ConversationSummary {
  @Field() text: string;
  @Field(() => Int) version: number;
  @Field(() => Int, { description: 'The last turn the summary covers' }) upToSeq: number;
}

@ObjectType()
export class Conversation {
  @Field() sessionId: string;
  @Field(() => String, { nullable: true }) repository: string | null;
  @Field(() => [ConversationTurn]) turns: ConversationTurn[];
  @Field(() => ConversationSummary, { nullable: true }) summary: ConversationSummary | null;
}

@ObjectType()
export class PipelineStepGql {
  @Field() id: string;
  @Field() action: string;
  @Field(() => String, { nullable: true }) next?: string;
  @Field(() => JSONScalar, { description: 'outcome -> step id' }) branches: unknown;
  @Field(() => JSONScalar) with: unknown;
}

@ObjectType('Pipeline')
export class PipelineGql {
  @Field() name: string;
  @Field(() => String, { nullable: true }) extends: string | null;
  @Field(() => [String], { description: 'Pipelines merged, root first' }) lineage: string[];
  @Field(() => JSONScalar) settings: unknown;
  @Field(() => [PipelineStepGql]) steps: PipelineStepGql[];
  @Field(() => [PipelineIssueGql]) warnings: PipelineIssueGql[];
}

@ObjectType('PipelineIssue')
export class PipelineIssueGql {
  @Field() file: string;
  @Field(() => String, { nullable: true }) stepId?: string;
  @Field(() => String, { nullable: true }) field?: string;
  @Field() message: string;
}

@ObjectType()
export class PipelineValidation {
  @Field() valid: boolean;
  @Field(() => PipelineGql, { nullable: true }) pipeline: PipelineGql | null;
  @Field(() => [PipelineIssueGql]) errors: PipelineIssueGql[];
}

export const MAX_VALIDATE_CHARS = MAX_PIPELINE_YAML_CHARS;
