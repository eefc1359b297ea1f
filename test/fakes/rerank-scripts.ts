/**
 * Scripted "models" for rerank tests and the bench: given a prompt, which candidates it holds (read
 * back from the escaped candidate lines) and what the model answers about them.
 */
import { readPromptCandidates } from '@scopegraph/rerank';
import type { GenerateHandler, GenerateReply, GenerateRequest } from './fake-gemini';

export interface PromptCandidate {
  /** The prompt's local id (`s1`, ...). */
  id: string;
  name: string;
  kind: string;
  file: string;
  signature: string | null;
  source: string;
}

export function promptCandidates(text: string): PromptCandidate[] {
  return readPromptCandidates(text) as unknown as PromptCandidate[];
}

/** The question as the prompt carries it (JSON-decoded). */
export function promptQuestion(text: string): string {
  const m = /^Question \(a JSON string\): (.*)$/m.exec(text);
  return m ? (JSON.parse(m[1]) as string) : '';
}

export interface ScoreScript {
  /** A score for each candidate (any JSON: numbers, strings like "high", null, ...). */
  score: (c: PromptCandidate, request: GenerateRequest) => unknown;
  reasoning?: (c: PromptCandidate) => string;
  /** Added as the `feedback` block when the prompt asks for it. */
  feedback?: unknown;
}

/** A pointwise judge: {"evaluations": [...]} for every candidate of the prompt. */
export function pointwiseJudge(script: ScoreScript): GenerateHandler {
  return (request) => ({ json: pointwiseAnswer(request, script) });
}

export function pointwiseAnswer(request: GenerateRequest, script: ScoreScript): Record<string, unknown> {
  const evaluations = promptCandidates(request.text).map((c) => {
    const score = script.score(c, request);
    return { id: c.id, relevant: typeof score === 'number' ? score >= 0.5 : true, score, reasoning: script.reasoning?.(c) ?? `judged ${c.name}` };
  });
  const asksFeedback = /"feedback"/.test(request.text);
  return { evaluations, ...(asksFeedback && script.feedback ? { feedback: script.feedback } : {}) };
}

/** A listwise judge: candidates ordered by `key` (higher first). */
export function listwiseJudge(key: (c: PromptCandidate) => number): GenerateHandler {
  return (request): GenerateReply => ({
    json: { ranking: [...promptCandidates(request.text)].sort((a, b) => key(b) - key(a)).map((c) => ({ id: c.id, reasoning: `ranked ${c.name}` })) },
  });
}

/** Number at the end of a name (`fn42` -> 42), the seeded scopes' index. */
export function indexOf(c: { name: string }): number {
  return Number(/(\d+)$/.exec(c.name)?.[1] ?? NaN);
}

/** The user text of a recorded generateContent request body. */
export function requestText(body: unknown): string {
  const contents = (body as { contents?: Array<{ parts?: Array<{ text?: string }> }> })?.contents ?? [];
  return contents.map((c) => (c.parts ?? []).map((p) => p.text ?? '').join('')).join('\n');
}

/** Most requests in flight at once among these (a hung request counts as never finished). */
export function peakConcurrency(requests: Array<{ receivedAt: number; respondedAt?: number }>): number {
  const edges = requests.flatMap((r) => [
    [r.receivedAt, 1],
    [r.respondedAt ?? Number.POSITIVE_INFINITY, -1],
  ]);
  // Ends before starts at the same instant: a slot freed and reused in the same ms is not overlap.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, delta] of edges) peak = Math.max(peak, (now += delta));
  return peak;
}
