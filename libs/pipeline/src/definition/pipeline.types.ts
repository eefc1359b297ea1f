/** The actions a step may name: one handler each in engine/actions.ts. */
export const PIPELINE_ACTIONS = [
  'translate_in_if_needed',
  'load_conversation_history',
  'check_context_budget',
  'call_model',
  'handle_prefix',
  'fetch_more_context',
  'expand_dependency_tree',
  'fetch_node_texts',
  'loop_guard',
  'persist_turn_and_finalize',
  'finalize',
] as const;
export type PipelineAction = (typeof PIPELINE_ACTIONS)[number];

/**
 * One step: an action, its parameters (`with`), and deterministic transitions: `on_<outcome>` when the
 * action's outcome has a branch, else `next`; neither means the run ends here.
 */
export interface PipelineStep {
  id: string;
  action: PipelineAction;
  next?: string;
  /** outcome -> step id, written `on_<outcome>: <step id>` in YAML. */
  branches: Record<string, string>;
  with: Record<string, unknown>;
}

export interface PipelineSettings {
  entry_step_id: string;
  max_context_tokens: number;
  max_history_tokens: number;
  max_turn_loops: number;
  graph_max_depth: number;
  graph_max_nodes: number;
  graph_edge_allowlist: string[];
  node_text_fetch_top_n: number;
  node_text_chars: number;
  retrieval_top_k: number;
  retrieval_modes: string[];
  /** Corrective retry: reformulate and retrieve again while the best hit scores below the threshold. */
  corrective: { threshold: number; max_retries: number };
  history_summarization_policy: string;
  [key: string]: unknown;
}

/** A pipeline after `extends` was resolved and merged. */
export interface ResolvedPipeline {
  name: string;
  /** The chain of files merged, root first. */
  lineage: string[];
  extends: string | null;
  settings: PipelineSettings;
  steps: PipelineStep[];
  warnings: PipelineIssue[];
}

export interface PipelineIssue {
  file: string;
  stepId?: string;
  field?: string;
  message: string;
}
