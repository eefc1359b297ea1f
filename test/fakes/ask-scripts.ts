import type { GenerateHandler, GenerateReply, GenerateRequest } from './fake-gemini';
import type { OpenAiChatAnswer, OpenAiChatRequest } from './fake-model-apis';

/** The answering pipeline's model calls, told apart by their system prompt (libs/pipeline/src/engine/prompts.ts). */
export type AskCallKind = 'router' | 'answer' | 'history_summary' | 'evidence_summary' | 'translate_in' | 'translate_out' | 'reformulate';

const KINDS: Array<[RegExp, AskCallKind]> = [
  [/^You route a developer question/, 'router'],
  [/^You answer a developer question/, 'answer'],
  [/^Summarise a conversation/, 'history_summary'],
  [/^Condense code evidence/, 'evidence_summary'],
  [/^Translate the text into English/, 'translate_in'],
  [/^Translate the answer/, 'translate_out'],
  [/^A code search for a question found nothing/, 'reformulate'],
];

export function callKind(request: GenerateRequest): AskCallKind | 'unknown' {
  return KINDS.find(([re]) => re.test(request.system))?.[1] ?? 'unknown';
}

/** What one kind of call answers: text, a full reply, or a function of the request and how many of this kind came before. */
export type KindScript = string | GenerateReply | ((request: GenerateRequest, index: number) => string | GenerateReply);

/**
 * A scripted model for whole ask conversations: each call kind has its own script; calls are
 * recorded by kind (in order) so tests can assert what the pipeline asked, e.g. that a summary call
 * received only the new turns. An unscripted kind answers 503 (a test that forgot it fails loudly).
 */
export function askModel(scripts: Partial<Record<AskCallKind, KindScript>>): GenerateHandler & { calls: Array<{ kind: string; request: GenerateRequest }> } {
  const calls: Array<{ kind: string; request: GenerateRequest }> = [];
  const counts = new Map<string, number>();
  const handler = ((request: GenerateRequest) => {
    const kind = callKind(request);
    calls.push({ kind, request });
    const index = counts.get(kind) ?? 0;
    counts.set(kind, index + 1);
    const script = kind === 'unknown' ? undefined : scripts[kind];
    if (script === undefined) return { status: 503, message: `no script for ${kind} call` };
    const out = typeof script === 'function' ? script(request, index) : script;
    return typeof out === 'string' ? { text: out } : out;
  }) as GenerateHandler & { calls: Array<{ kind: string; request: GenerateRequest }> };
  handler.calls = calls;
  return handler;
}

/** The evidence ids the answer prompt showed the model (`[id] kind name (path)` lines). */
export function evidenceIds(request: GenerateRequest): string[] {
  const evidence = /<evidence>\n([\s\S]*?)\n<\/evidence>/.exec(request.text)?.[1] ?? '';
  return [...evidence.matchAll(/^\[([^\]\s]+)\] /gm)].map((m) => m[1]);
}

/**
 * The same scripted model behind the fake OpenAI-compatible server (`FakeOpenAiChat.reply`): the
 * system message is the prompt's system text, the other messages its user text. A scripted API error
 * becomes a thrown error, which that fake answers with a 400.
 */
export function openAiReply(model: GenerateHandler): (request: OpenAiChatRequest) => Promise<OpenAiChatAnswer> {
  return async (request) => {
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    const text = request.messages.filter((m) => m.role !== 'system').map((m) => m.content).join('\n');
    const out = await model({ model: request.model, text, system, body: request });
    if (out.status) throw new Error(out.message ?? `scripted error ${out.status}`);
    return { content: out.text ?? JSON.stringify(out.json ?? '') };
  };
}
