import * as path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, projectRoot } from '@scopegraph/config';
import { CHAT_CLIENT, ChatClientRef } from '@scopegraph/llm';
import { AskJobData, JOB_ID_KIND, JobLostError, JobName, QueueName, QueueService } from '@scopegraph/queue';
import { AskEventsService } from './ask-events.service';
import type { AskEvent, AskRequest, AskResult, AskStatus } from './ask.types';
import { loadPipelineDir, RawPipeline, readRawPipelines, validatePipelineText } from './definition/pipeline-loader';
import type { ResolvedPipeline } from './definition/pipeline.types';
import { PipelineEngine } from './engine/engine';
import { ModelGateway } from './engine/model-gateway';
import { initialState, PipelineState } from './engine/state';
import { ConversationRecord, HistoryRepository } from './history/history.repository';
import { AskInputError, AskNotFoundError } from './pipeline.errors';
import { Retriever } from './retrieval/retriever';

export const ASK_LIMITS = { maxQuestionChars: 4_000, maxSessionIdChars: 200 } as const;
const ASK_ID_RE = /^ask[0-9a-f]{24}$/;
const SESSION_RE = /^[A-Za-z0-9_.:-]+$/;
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * Asking a question: `start` validates and enqueues (never waits on a model); the worker's `run`
 * executes the named pipeline and publishes every step, answer chunk and the final result; `watch`
 * serves them to any API replica. Pipelines are read and validated once, at boot.
 */
@Injectable()
export class AskService {
  private readonly logger = new Logger(AskService.name);
  private readonly raws: Map<string, RawPipeline>;
  private readonly pipelines: Map<string, ResolvedPipeline>;
  private readonly engine: PipelineEngine;
  private readonly gateway: ModelGateway;

  constructor(
    private readonly queues: QueueService,
    private readonly events: AskEventsService,
    private readonly retriever: Retriever,
    private readonly history: HistoryRepository,
    @Inject(CHAT_CLIENT) chat: ChatClientRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const dir = path.join(projectRoot(), 'pipelines');
    this.raws = readRawPipelines(dir);
    this.pipelines = loadPipelineDir(dir);
    if (!this.pipelines.has(config.ask.defaultPipeline)) throw new Error(`ASK_DEFAULT_PIPELINE names no pipeline in pipelines/ (${config.ask.defaultPipeline})`);
    for (const p of this.pipelines.values()) for (const w of p.warnings) this.logger.warn(`pipeline ${p.name}: ${w.file} step "${w.stepId}" ${w.message}`);
    this.gateway = new ModelGateway(
      chat.client,
      { maxAttempts: config.rerank.maxAttempts, baseDelayMs: config.rerank.retryBaseMs, maxDelayMs: Math.max(config.rerank.retryBaseMs, MAX_RETRY_DELAY_MS) },
      config.ask.modelTimeoutMs,
    );
    this.engine = new PipelineEngine(this.gateway, retriever, history);
  }

  list(): ResolvedPipeline[] {
    return [...this.pipelines.values()];
  }

  /** Throws PipelineDefinitionError (issues name file, step, field) when the YAML is not a valid pipeline. */
  validate(yaml: string): ResolvedPipeline {
    return validatePipelineText(yaml, this.raws);
  }

  async start(request: AskRequest, owner: string | null = null): Promise<{ id: string }> {
    const question = request.question?.trim() ?? '';
    if (!question) throw new AskInputError('question must not be empty', 'question');
    if (question.length > ASK_LIMITS.maxQuestionChars) throw new AskInputError(`question must be at most ${ASK_LIMITS.maxQuestionChars} characters`, 'question');
    const sessionId = request.sessionId ?? null;
    if (sessionId !== null && (sessionId.length > ASK_LIMITS.maxSessionIdChars || !SESSION_RE.test(sessionId))) {
      throw new AskInputError(`sessionId must be 1-${ASK_LIMITS.maxSessionIdChars} letters, digits, _ . : -`, 'sessionId');
    }
    const pipeline = request.pipeline ?? this.config.ask.defaultPipeline;
    if (!this.pipelines.has(pipeline)) throw new AskInputError(`unknown pipeline ${JSON.stringify(pipeline)}; known: ${[...this.pipelines.keys()].join(', ')}`, 'pipeline');
    if (!(await this.retriever.repositoryIds()).includes(request.repository)) throw new AskInputError(`unknown repository ${JSON.stringify(request.repository)}`, 'repository');
    const askId = await this.queues.newJobId(JOB_ID_KIND[JobName.ASK]);
    const data: AskJobData = { askId, question, repository: request.repository, sessionId, isEnglish: request.isEnglish ?? true, pipeline, owner };
    // One attempt: a rerun would stream the answer twice; a failure is published as an error event.
    await this.queues.add(JobName.ASK, data, { jobId: askId, attempts: 1 });
    return { id: askId };
  }

  async exists(askId: string): Promise<boolean> {
    return ASK_ID_RE.test(askId) && (await this.queues.getJob(QueueName.ASK, askId)) !== undefined;
  }

  /** Where an ask stands (for clients that poll instead of subscribing). */
  async status(askId: string): Promise<AskStatus> {
    const status = ASK_ID_RE.test(askId) ? await this.events.status(askId) : null;
    if (!status) throw new AskNotFoundError(askId);
    return status;
  }

  async watch(askId: string): Promise<AsyncGenerator<AskEvent>> {
    if (!(await this.exists(askId))) throw ASK_ID_RE.test(askId) && (await this.queues.issuedBeforeDataLoss(askId)) ? new JobLostError(`ask "${askId}"`) : new AskNotFoundError(askId);
    return this.events.watch(askId);
  }

  /** Worker side: runs the pipeline and publishes its progress; the final result is also the job's return value. */
  async run(data: AskJobData): Promise<AskResult> {
    const pipeline = this.pipelines.get(data.pipeline);
    const out = this.events.publisher(data.askId);
    if (!pipeline) {
      await out.publish({ kind: 'error', message: `unknown pipeline ${data.pipeline}` });
      throw new AskInputError(`unknown pipeline ${data.pipeline}`, 'pipeline');
    }
    const state = initialState(data, this.gateway.available);
    try {
      // Progress events are not awaited; one Redis did not take is logged (subscribers catch up on the
      // final state from the replay log and the job), never left to crash the worker as an unhandled rejection.
      const progressLost = (e: Error) => this.logger.warn(`ask ${data.askId}: a progress event was not published: ${e.message}`);
      const run = await this.engine.run(pipeline, state, {
        onStep: (step) => void out.publish({ kind: 'step', step }).catch(progressLost),
        onChunk: (text) => void out.publish({ kind: 'chunk', text }).catch(progressLost),
      });
      const result = this.result(pipeline, state, run);
      await out.publish({ kind: 'final', result });
      return result;
    } catch (error) {
      this.logger.error(`ask ${data.askId} failed: ${(error as Error).message}`);
      await out.publish({ kind: 'error', message: (error as Error).message });
      throw error;
    }
  }

  async conversation(sessionId: string): Promise<ConversationRecord | null> {
    if (!SESSION_RE.test(sessionId) || sessionId.length > ASK_LIMITS.maxSessionIdChars) throw new AskInputError('sessionId is not a valid session id', 'sessionId');
    return this.history.conversation(sessionId);
  }

  private result(pipeline: ResolvedPipeline, state: PipelineState, run: Awaited<ReturnType<PipelineEngine['run']>>): AskResult {
    return {
      askId: state.input.askId,
      pipeline: pipeline.name,
      question: state.questionOriginal,
      questionEn: state.questionEn,
      answer: state.answer ?? state.answerEn ?? '',
      answerEn: state.answerEn ?? '',
      citations: state.citations,
      inventedCitations: state.inventedCitations,
      plan: state.plan,
      attempts: state.attempts,
      loops: state.counters.loops,
      retries: state.counters.retries,
      missing: state.missing,
      evidence: state.evidence.map(({ text, ...e }) => ({ ...e, hasText: text !== null })),
      modelAvailable: this.gateway.available,
      model: this.gateway.client ? `${this.gateway.client.provider}/${this.gateway.client.model}` : null,
      warnings: state.warnings,
      history: { summaryVersion: state.history.summaryVersion, summaryUpTo: state.history.summaryUpTo, resummarized: state.history.resummarized, tokens: state.history.tokens },
      evidenceTokens: state.evidenceTokens,
      evidenceSummarized: state.evidenceSummarized,
      tokens: state.tokens,
      modelCalls: state.counters.modelCalls,
      timings: { totalMs: run.totalMs, modelMs: run.modelMs, overheadMs: Math.round((run.totalMs - run.modelMs) * 10) / 10, firstChunkMs: run.firstChunkMs },
      trace: run.trace,
    };
  }
}
