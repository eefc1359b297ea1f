import * as fs from 'node:fs';
import * as path from 'node:path';
import { EDGE_TYPES } from '@scopegraph/code-model';
import { SEARCH_LIMITS } from '@scopegraph/search';
import { parseDocument } from 'yaml';
import { PIPELINE_ACTIONS, PipelineAction, PipelineIssue, PipelineSettings, PipelineStep, ResolvedPipeline } from './pipeline.types';

/** One or more problems in pipeline files; each names the file, and the step and field when known. */
export class PipelineDefinitionError extends Error {
  constructor(readonly issues: PipelineIssue[]) {
    super(issues.map(formatIssue).join('; '));
    this.name = 'PipelineDefinitionError';
  }
}

export function formatIssue(i: PipelineIssue): string {
  return `${i.file}${i.stepId ? ` step "${i.stepId}"` : ''}${i.field ? ` field "${i.field}"` : ''}: ${i.message}`;
}

/** A pipeline file as written, before `extends` is resolved. */
export interface RawPipeline {
  file: string;
  name: string;
  extends: string | null;
  settings: Record<string, unknown>;
  steps: Array<PipelineStep & { file: string }>;
}

const ANY = 'any';
/** Parameters each action takes (`with:`) and their allowed values. */
const ACTION_PARAMS: Partial<Record<PipelineAction, Record<string, readonly unknown[] | typeof ANY>>> = {
  call_model: { prompt: ['router', 'answer', 'history_summary', 'evidence_summary'], stream: [true, false] },
  check_context_budget: { target: ['history', 'evidence'] },
  handle_prefix: { protocol: ['router', 'answer'] },
  expand_dependency_tree: { direction: ['in', 'out', 'both'] },
};
const STEP_KEYS = new Set(['id', 'action', 'next', 'with']);
/** Actions a run may end on (no `next`, no branch): the turn is answered by then. */
export const TERMINAL_ACTIONS: ReadonlySet<PipelineAction> = new Set(['finalize', 'persist_turn_and_finalize']);

/** The outcomes a step's handler can return (engine/actions.ts), by action and parameters. */
export function possibleOutcomes(step: Pick<PipelineStep, 'action' | 'with'>): string[] {
  switch (step.action) {
    case 'translate_in_if_needed':
      return ['skipped', 'ok', 'untranslated'];
    case 'load_conversation_history':
      return ['empty', 'ok'];
    case 'check_context_budget':
      return ['ok', 'over_limit'];
    case 'call_model':
      return step.with.prompt === 'history_summary' || step.with.prompt === 'evidence_summary' ? ['ok', 'truncated'] : ['ok', 'unavailable'];
    case 'handle_prefix':
      return step.with.protocol === 'router' ? ['direct', 'retrieve'] : ['answer', 'request'];
    case 'fetch_more_context':
      return ['ok', 'empty'];
    case 'loop_guard':
      return ['ok', 'exhausted'];
    case 'finalize':
      return ['ok', 'untranslated'];
    case 'persist_turn_and_finalize':
      return ['skipped', 'done'];
    default:
      return ['ok'];
  }
}
const TOP_KEYS = new Set(['name', 'extends', 'settings', 'steps']);
const NAME_RE = /^[A-Za-z0-9_.-]{1,100}$/;
const BRANCH_RE = /^on_[a-z0-9_]+$/;
export const MAX_PIPELINE_YAML_CHARS = 100_000;

/** Parses one file's text into its raw pipeline (structure checked; merge and graph checks come later). */
export function parsePipeline(text: string, file: string): RawPipeline {
  const issues: PipelineIssue[] = [];
  const fail = (message: string, field?: string, stepId?: string): never => {
    throw new PipelineDefinitionError([...issues, { file, field, stepId, message }]);
  };
  if (text.length > MAX_PIPELINE_YAML_CHARS) fail(`is longer than ${MAX_PIPELINE_YAML_CHARS} characters`);
  // yaml would print its warnings (an unknown tag...) to stderr through process.emitWarning; they are
  // the caller's to fix, so they fail the definition like errors do.
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: 'silent' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) fail(`is not valid YAML: ${problem.message.split('\n')[0]}`);
  // toJS throws (not records) for an alias without its anchor and for alias bombs.
  let root: { pipeline?: unknown } | null = null;
  try {
    root = doc.toJS() as { pipeline?: unknown } | null;
  } catch (error) {
    fail(`is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const p = root?.pipeline as Record<string, unknown> | undefined;
  if (!isRecord(p)) fail('must hold a mapping `pipeline:`', 'pipeline');
  const pipe = p as Record<string, unknown>;
  for (const key of Object.keys(pipe)) if (!TOP_KEYS.has(key)) issues.push({ file, field: `pipeline.${key}`, message: 'is not a known field (name, extends, settings, steps)' });
  if (typeof pipe.name !== 'string' || !NAME_RE.test(pipe.name)) fail('must be a name of letters, digits, _ . - (at most 100)', 'name');
  if (pipe.extends !== undefined && (typeof pipe.extends !== 'string' || !NAME_RE.test(pipe.extends))) fail('must name another pipeline', 'extends');
  if (pipe.settings !== undefined && !isRecord(pipe.settings)) fail('must be a mapping', 'settings');
  if (pipe.steps !== undefined && !Array.isArray(pipe.steps)) fail('must be a list of steps', 'steps');
  const steps: RawPipeline['steps'] = [];
  const seen = new Set<string>();
  for (const [i, raw] of ((pipe.steps as unknown[]) ?? []).entries()) {
    if (!isRecord(raw)) fail('must be a mapping with id and action', `steps[${i}]`);
    const s = raw as Record<string, unknown>;
    if (typeof s.id !== 'string' || !NAME_RE.test(s.id)) fail('must be a step id of letters, digits, _ . -', `steps[${i}].id`);
    const id = s.id as string;
    if (seen.has(id)) fail('is defined twice in this file', 'id', id);
    seen.add(id);
    if (!(PIPELINE_ACTIONS as readonly string[]).includes(s.action as string)) fail(`must be one of ${PIPELINE_ACTIONS.join(', ')}`, 'action', id);
    const branches: Record<string, string> = {};
    for (const [key, value] of Object.entries(s)) {
      if (STEP_KEYS.has(key)) continue;
      if (!BRANCH_RE.test(key)) fail('is not a step field (id, action, next, with, on_<outcome>)', key, id);
      if (typeof value !== 'string') fail('must name a step id', key, id);
      branches[key.slice('on_'.length)] = value as string;
    }
    if (s.next !== undefined && typeof s.next !== 'string') fail('must name a step id', 'next', id);
    if (s.with !== undefined && !isRecord(s.with)) fail('must be a mapping of parameters', 'with', id);
    const params = (s.with as Record<string, unknown>) ?? {};
    const allowed = ACTION_PARAMS[s.action as PipelineAction];
    for (const [key, value] of Object.entries(params)) {
      const values = allowed?.[key];
      if (!values) fail(`is not a parameter of ${s.action as string}${allowed ? ` (${Object.keys(allowed).join(', ')})` : ''}`, `with.${key}`, id);
      if (values !== ANY && !(values as readonly unknown[]).includes(value)) fail(`must be one of ${(values as readonly unknown[]).join(', ')}`, `with.${key}`, id);
    }
    steps.push({ id, action: s.action as PipelineAction, next: s.next as string | undefined, branches, with: (s.with as Record<string, unknown>) ?? {}, file });
  }
  if (issues.length > 0) throw new PipelineDefinitionError(issues);
  return { file, name: pipe.name as string, extends: (pipe.extends as string | undefined) ?? null, settings: (pipe.settings as Record<string, unknown>) ?? {}, steps };
}

/**
 * Resolves `extends` root first (multi-level; a cycle or a missing parent is refused), deep-merges
 * settings (child wins, nested mappings merged), merges steps by id (same id replaces, new id is
 * added), then validates the result.
 */
export function resolvePipeline(name: string, known: ReadonlyMap<string, RawPipeline>): ResolvedPipeline {
  const chain: RawPipeline[] = [];
  const visiting = new Set<string>();
  let current = known.get(name);
  if (!current) throw new PipelineDefinitionError([{ file: '<pipelines>', field: 'name', message: `no pipeline named ${JSON.stringify(name)}` }]);
  while (current) {
    if (visiting.has(current.name)) {
      const cycle = [...chain.map((c) => c.name), current.name].join(' -> ');
      throw new PipelineDefinitionError([{ file: chain[chain.length - 1].file, field: 'extends', message: `extends forms a cycle: ${cycle}` }]);
    }
    visiting.add(current.name);
    chain.push(current);
    if (current.extends === null) break;
    const parent = known.get(current.extends);
    if (!parent) throw new PipelineDefinitionError([{ file: current.file, field: 'extends', message: `extends unknown pipeline ${JSON.stringify(current.extends)}` }]);
    current = parent;
  }
  chain.reverse();
  let settings: Record<string, unknown> = {};
  const steps = new Map<string, PipelineStep & { file: string }>();
  for (const layer of chain) {
    settings = deepMerge(settings, layer.settings);
    for (const step of layer.steps) steps.set(step.id, step);
  }
  const leaf = chain[chain.length - 1];
  const warnings = validateResolved(leaf.file, settings, [...steps.values()]);
  return {
    name: leaf.name,
    lineage: chain.map((c) => c.name),
    extends: leaf.extends,
    settings: settings as PipelineSettings,
    steps: [...steps.values()].map(({ file: _f, ...s }) => s),
    warnings,
  };
}

const POSITIVE_INT_SETTINGS = ['max_context_tokens', 'max_history_tokens', 'graph_max_nodes', 'node_text_chars', 'retrieval_top_k'] as const;
const NON_NEGATIVE_INT_SETTINGS = ['max_turn_loops', 'graph_max_depth', 'node_text_fetch_top_n'] as const;

/** Errors (thrown) and warnings (returned: unreachable steps) of a merged pipeline. */
function validateResolved(file: string, settings: Record<string, unknown>, steps: Array<PipelineStep & { file: string }>): PipelineIssue[] {
  const issues: PipelineIssue[] = [];
  const ids = new Set(steps.map((s) => s.id));
  const entry = settings.entry_step_id;
  if (typeof entry !== 'string') issues.push({ file, field: 'settings.entry_step_id', message: 'is required and must name a step' });
  else if (!ids.has(entry)) issues.push({ file, field: 'settings.entry_step_id', message: `names no step (${JSON.stringify(entry)})` });
  for (const key of POSITIVE_INT_SETTINGS) {
    if (!Number.isInteger(settings[key]) || (settings[key] as number) < 1) issues.push({ file, field: `settings.${key}`, message: 'must be an integer >= 1' });
  }
  for (const key of NON_NEGATIVE_INT_SETTINGS) {
    if (!Number.isInteger(settings[key]) || (settings[key] as number) < 0) issues.push({ file, field: `settings.${key}`, message: 'must be an integer >= 0' });
  }
  if (!Array.isArray(settings.graph_edge_allowlist) || settings.graph_edge_allowlist.some((e) => typeof e !== 'string')) {
    issues.push({ file, field: 'settings.graph_edge_allowlist', message: 'must be a list of edge types' });
  } else {
    const unknown = settings.graph_edge_allowlist.filter((e) => !(EDGE_TYPES as readonly string[]).includes(e as string));
    if (settings.graph_edge_allowlist.length === 0 || unknown.length > 0) {
      issues.push({ file, field: 'settings.graph_edge_allowlist', message: `must list edge types of ${EDGE_TYPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}` });
    }
  }
  // What the search accepts: beyond these every retrieval or expansion of the run would be refused.
  const ceilings: Array<[string, number]> = [
    ['retrieval_top_k', SEARCH_LIMITS.maxTopK],
    ['graph_max_depth', SEARCH_LIMITS.maxDepth],
    ['graph_max_nodes', SEARCH_LIMITS.maxExpandNodes],
  ];
  for (const [key, max] of ceilings) {
    if (Number.isInteger(settings[key]) && (settings[key] as number) > max) issues.push({ file, field: `settings.${key}`, message: `must be at most ${max} (the search's limit)` });
  }
  const corrective = settings.corrective as { threshold?: unknown; max_retries?: unknown } | undefined;
  if (!isRecord(corrective) || typeof corrective.threshold !== 'number' || !Number.isInteger(corrective.max_retries) || (corrective.max_retries as number) < 0) {
    issues.push({ file, field: 'settings.corrective', message: 'must hold threshold (a number) and max_retries (an integer >= 0)' });
  }
  for (const step of steps) {
    if (step.next !== undefined && !ids.has(step.next)) issues.push({ file: step.file, stepId: step.id, field: 'next', message: `names no step (${JSON.stringify(step.next)})` });
    for (const [outcome, target] of Object.entries(step.branches)) {
      if (!ids.has(target)) issues.push({ file: step.file, stepId: step.id, field: `on_${outcome}`, message: `names no step (${JSON.stringify(target)})` });
    }
    // Deterministic and complete: every outcome leads somewhere, or the run would end unanswered.
    if (step.next === undefined && !TERMINAL_ACTIONS.has(step.action)) {
      for (const outcome of possibleOutcomes(step).filter((o) => !(o in step.branches))) {
        issues.push({ file: step.file, stepId: step.id, field: `on_${outcome}`, message: `is missing: ${step.action} can end with "${outcome}" and the step has no next` });
      }
    }
  }
  if (issues.length > 0) throw new PipelineDefinitionError(issues);
  const reachable = new Set<string>();
  const byId = new Map(steps.map((s) => [s.id, s]));
  const stack = [entry as string];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (reachable.has(id)) continue;
    reachable.add(id);
    const s = byId.get(id)!;
    for (const t of [s.next, ...Object.values(s.branches)]) if (t !== undefined) stack.push(t);
  }
  return steps.filter((s) => !reachable.has(s.id)).map((s) => ({ file: s.file, stepId: s.id, message: `is unreachable from entry step "${entry as string}"` }));
}

/** Every pipeline of a folder (`*.yaml`), resolved; any invalid file fails the whole load (boot). */
export function loadPipelineDir(dir: string): Map<string, ResolvedPipeline> {
  const raws = readRawPipelines(dir);
  const resolved = new Map<string, ResolvedPipeline>();
  const issues: PipelineIssue[] = [];
  for (const name of raws.keys()) {
    try {
      resolved.set(name, resolvePipeline(name, raws));
    } catch (error) {
      if (!(error instanceof PipelineDefinitionError)) throw error;
      issues.push(...error.issues);
    }
  }
  if (issues.length > 0) throw new PipelineDefinitionError(issues);
  return resolved;
}

export function readRawPipelines(dir: string): Map<string, RawPipeline> {
  const raws = new Map<string, RawPipeline>();
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
    const file = path.join(path.basename(dir), f);
    const raw = parsePipeline(fs.readFileSync(path.join(dir, f), 'utf8'), file);
    const twin = raws.get(raw.name);
    if (twin) throw new PipelineDefinitionError([{ file, field: 'name', message: `pipeline ${JSON.stringify(raw.name)} is also defined in ${twin.file}` }]);
    raws.set(raw.name, raw);
  }
  return raws;
}

/** Checks a pipeline given as YAML text against the shipped ones (which it may extend) without saving it. */
export function validatePipelineText(text: string, shipped: ReadonlyMap<string, RawPipeline>): ResolvedPipeline {
  const raw = parsePipeline(text, '<input>');
  const known = new Map(shipped);
  known.set(raw.name, raw);
  return resolvePipeline(raw.name, known);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Child wins; nested mappings merge recursively; lists and scalars are replaced whole. */
export function deepMerge(parent: Record<string, unknown>, child: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(child)) {
    out[key] = isRecord(value) && isRecord(out[key]) ? deepMerge(out[key] as Record<string, unknown>, value) : value;
  }
  return out;
}
