import { TERMINAL_ACTIONS } from '../definition/pipeline-loader';
import type { ResolvedPipeline } from '../definition/pipeline.types';
import type { HistoryRepository } from '../history/history.repository';
import type { Retriever } from '../retrieval/retriever';
import { ACTION_HANDLERS, ActionContext } from './actions';
import type { ModelGateway } from './model-gateway';
import type { PipelineState, TraceStep } from './state';

/** A run that could not finish: an action failed, or the step graph did not end. */
export class PipelineRunError extends Error {
  constructor(
    message: string,
    readonly stepId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PipelineRunError';
  }
}

export interface EngineHooks {
  onStep?: (step: TraceStep) => void;
  onChunk?: (text: string) => void;
}

export interface EngineRun {
  trace: TraceStep[];
  totalMs: number;
  modelMs: number;
  /** From the start to the first streamed answer chunk (null: nothing streamed). */
  firstChunkMs: number | null;
}

/** A ceiling on executed steps: max_turn_loops bounds the answer loop; this catches any other cycle. */
const MAX_STEPS = 500;

/**
 * Runs a resolved pipeline from settings.entry_step_id: one handler per action, the next step chosen
 * deterministically (`on_<outcome>` when present, else `next`, else the run ends), every step traced.
 */
export class PipelineEngine {
  constructor(
    private readonly model: ModelGateway,
    private readonly retriever: Retriever,
    private readonly history: HistoryRepository,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  async run(pipeline: ResolvedPipeline, state: PipelineState, hooks: EngineHooks = {}): Promise<EngineRun> {
    const byId = new Map(pipeline.steps.map((s) => [s.id, s]));
    const trace: TraceStep[] = [];
    const started = this.clock();
    let modelMs = 0;
    let firstChunkMs: number | null = null;
    let current: TraceStep | null = null;
    const ctx: ActionContext = {
      pipeline,
      model: this.model,
      retriever: this.retriever,
      history: this.history,
      emitChunk: (text) => {
        if (!text) return;
        firstChunkMs ??= this.clock() - started;
        hooks.onChunk?.(text);
      },
      modelCall: async (prompt, onChunk) => {
        const t0 = this.clock();
        const account = (ms: number, call?: { attempts: number; inputTokens: number; outputTokens: number }) => {
          modelMs += ms;
          state.counters.modelCalls++;
          state.tokens.input += call?.inputTokens ?? 0;
          state.tokens.output += call?.outputTokens ?? 0;
          if (!current) return;
          current.modelMs += ms;
          current.modelCalls++;
          current.modelAttempts += call?.attempts ?? 0;
          current.inputTokens += call?.inputTokens ?? 0;
          current.outputTokens += call?.outputTokens ?? 0;
        };
        let call: Awaited<ReturnType<ModelGateway['call']>>;
        try {
          call = await this.model.call(prompt, onChunk);
        } catch (error) {
          // Time spent on a call that failed (retries, timeout) is model time too, not pipeline overhead.
          account(this.clock() - t0);
          throw error;
        }
        account(call.ms, call);
        return call.text;
      },
    };
    let stepId: string | undefined = pipeline.settings.entry_step_id;
    while (stepId !== undefined) {
      const step = byId.get(stepId);
      if (!step) throw new PipelineRunError(`step "${stepId}" does not exist`, stepId);
      if (++state.counters.steps > MAX_STEPS) throw new PipelineRunError(`more than ${MAX_STEPS} steps: the pipeline does not end`, stepId);
      const t0 = this.clock();
      current = { stepId: step.id, action: step.action, outcome: '', startedMs: round(t0 - started), ms: 0, modelMs: 0, modelCalls: 0, modelAttempts: 0, inputTokens: 0, outputTokens: 0, detail: {} };
      try {
        const result = await ACTION_HANDLERS[step.action](state, step, ctx);
        current.outcome = result.outcome;
        current.detail = result.detail ?? {};
      } catch (error) {
        throw new PipelineRunError(`step "${step.id}" (${step.action}) failed: ${(error as Error).message}`, step.id, { cause: error });
      }
      current.ms = round(this.clock() - t0);
      current.modelMs = round(current.modelMs);
      trace.push(current);
      hooks.onStep?.(current);
      stepId = step.branches[current.outcome] ?? step.next;
      // The loader checks that every outcome of a non-final step leads somewhere; an outcome it did not
      // know of must fail loudly rather than end the run unanswered.
      if (stepId === undefined && !TERMINAL_ACTIONS.has(step.action)) {
        throw new PipelineRunError(`step "${step.id}" (${step.action}) ended with outcome "${current.outcome}", which has no transition`, step.id);
      }
    }
    return { trace, totalMs: round(this.clock() - started), modelMs: round(modelMs), firstChunkMs: firstChunkMs === null ? null : round(firstChunkMs) };
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
