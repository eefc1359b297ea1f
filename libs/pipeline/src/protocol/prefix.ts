import type { GraphEdgeType } from '@scopegraph/search';

/** Router prefixes and the retrieval each one stands for (`direct`: no retrieval). */
export const ROUTER_PREFIXES = {
  SEMANTIC: 'semantic',
  SEMANTIC_RERANK: 'semantic_rerank',
  BM25: 'bm25',
  HYBRID: 'hybrid',
  DIRECT: 'direct',
  GRAPH: 'graph',
} as const;
export type RouteMode = (typeof ROUTER_PREFIXES)[keyof typeof ROUTER_PREFIXES];

export interface RetrievalPlan {
  mode: RouteMode;
  query: string;
  /** Set when the router's output was not usable and the deterministic fallback was chosen. */
  fallback: string | null;
}

const ROUTER_LINE_RE = /^\[(SEMANTIC_RERANK|SEMANTIC|BM25|HYBRID|DIRECT|GRAPH):\]\s*(.*)$/;

/**
 * Strict: exactly one non-empty line, starting with exactly one known prefix; every mode but DIRECT
 * needs a query. Anything else is malformed and gets the fallback: hybrid on the question itself.
 */
export function parseRouterOutput(output: string | null, question: string): RetrievalPlan {
  const fallback = (reason: string): RetrievalPlan => ({ mode: 'hybrid', query: question, fallback: reason });
  if (output === null) return fallback('no chat model configured');
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length !== 1) return fallback(`router output must be exactly one line, got ${lines.length}`);
  const m = ROUTER_LINE_RE.exec(lines[0]);
  if (!m) return fallback(`router output has no known prefix: ${JSON.stringify(lines[0].slice(0, MAX_QUOTED))}`);
  const mode = ROUTER_PREFIXES[m[1] as keyof typeof ROUTER_PREFIXES];
  const query = m[2].trim();
  if (mode === 'direct') return { mode, query: query || question, fallback: null };
  if (!query) return fallback(`router chose ${m[1]} without a query`);
  if (ROUTER_LINE_RE.test(query)) return fallback('router output holds more than one prefix');
  return { mode, query, fallback: null };
}

export type AnswerOutput =
  | { kind: 'answer'; text: string; malformed: boolean }
  | { kind: 'request'; text: string };

export const ANSWER_PREFIX = '[Answer:]';
export const REQUEST_PREFIX = '[Requesting data on:]';
const MAX_QUOTED = 120;

/**
 * `[Answer:] ...` or `[Requesting data on:] ...`. Output with neither is shown as the answer but
 * flagged malformed (visible in the result), never silently trusted as a protocol marker.
 */
export function parseAnswerOutput(output: string): AnswerOutput {
  const text = output.trim();
  if (text.startsWith(REQUEST_PREFIX)) {
    const request = text.slice(REQUEST_PREFIX.length).trim();
    // A request for nothing is no request; the marker itself is protocol, never shown.
    return request ? { kind: 'request', text: request } : { kind: 'answer', text: '', malformed: true };
  }
  if (text.startsWith(ANSWER_PREFIX)) return { kind: 'answer', text: text.slice(ANSWER_PREFIX.length).trim(), malformed: false };
  return { kind: 'answer', text, malformed: true };
}

/**
 * Lets streamed answer chunks through once the output is known to be an answer: holds them until
 * the prefix is decided, drops `[Answer:]` itself, and streams nothing of a follow-up request. With
 * the evidence ids, a `[cite:<id>]` marker is held until it closes and dropped when the id was not in
 * the evidence, so the stream never shows a citation the final answer drops. `end()` flushes.
 */
export class AnswerStreamGate {
  private buffer = '';
  private state: 'undecided' | 'answer' | 'request' = 'undecided';
  private started = false;
  private readonly out: (text: string) => void;
  private readonly citations?: CitationStreamFilter;

  constructor(emit: (text: string) => void, evidenceIds?: ReadonlySet<string>) {
    this.citations = evidenceIds ? new CitationStreamFilter(evidenceIds, emit) : undefined;
    this.out = this.citations ? (t) => this.citations!.push(t) : emit;
  }

  push(chunk: string): void {
    if (this.state === 'answer') return this.answerText(chunk);
    if (this.state === 'request') return;
    this.buffer += chunk;
    const head = this.buffer.trimStart();
    if (head.startsWith(ANSWER_PREFIX)) {
      this.state = 'answer';
      this.answerText(head.slice(ANSWER_PREFIX.length));
    } else if (head.startsWith(REQUEST_PREFIX)) {
      this.state = 'request';
    } else if (!ANSWER_PREFIX.startsWith(head) && !REQUEST_PREFIX.startsWith(head)) {
      // Neither prefix can still come: a malformed answer is shown as it is.
      this.state = 'answer';
      this.answerText(this.buffer);
    }
  }

  /** Answer text, without the blank between the prefix and the first word (however the chunks fall). */
  private answerText(text: string): void {
    const piece = this.started ? text : text.trimStart();
    if (!piece) return;
    this.started = true;
    this.out(piece);
  }

  /** The model finished: whatever is still held (an unfinished marker) goes out as text. */
  end(): void {
    this.citations?.end();
  }
}

const CITE_OPEN = '[cite:';
/** A marker longer than this is not a citation: its text is let through. */
const MAX_CITE_MARKER_CHARS = 300;
const CITE_MARKER_RE = /^\[cite:\s*([^\]\s]+)\s*\]/;
const CITE_PARTIAL_RE = /^\[cite:\s*[^\]\s]*\s*$/;

/** Streams text while removing `[cite:<id>]` markers whose id is not in `ids` (same rule as checkCitations). */
export class CitationStreamFilter {
  private held = '';

  constructor(
    private readonly ids: ReadonlySet<string>,
    private readonly emit: (text: string) => void,
  ) {}

  push(chunk: string): void {
    let rest = this.held + chunk;
    let out = '';
    this.held = '';
    for (;;) {
      const i = rest.indexOf('[');
      if (i < 0) {
        out += rest;
        break;
      }
      out += rest.slice(0, i);
      rest = rest.slice(i);
      const marker = CITE_MARKER_RE.exec(rest);
      if (marker) {
        if (this.ids.has(marker[1])) out += marker[0];
        rest = rest.slice(marker[0].length);
        continue;
      }
      const mayBecomeMarker = rest.length < MAX_CITE_MARKER_CHARS && (CITE_OPEN.startsWith(rest) || CITE_PARTIAL_RE.test(rest));
      if (mayBecomeMarker) {
        this.held = rest;
        break;
      }
      out += '[';
      rest = rest.slice(1);
    }
    if (out) this.emit(out);
  }

  end(): void {
    if (this.held) this.emit(this.held);
    this.held = '';
  }
}

export interface GraphQuestion {
  name: string;
  relation: string;
  edges: GraphEdgeType[];
  direction: 'in' | 'out' | 'both';
}

/** Relation words the router may use (and people do): which edges to walk, and which way. */
const RELATIONS: Array<{ re: RegExp; relation: string; edges: GraphEdgeType[]; direction: 'in' | 'out' }> = [
  { re: /^(?:callers of|who calls|what calls|calls to|callers)\b/i, relation: 'callers', edges: ['CALLS'], direction: 'in' },
  { re: /^(?:callees of|what does .+? call|called by|callees)\b/i, relation: 'callees', edges: ['CALLS'], direction: 'out' },
  { re: /^(?:subclasses of|what extends|who extends|classes extending|subclasses|extended by)\b/i, relation: 'subclasses', edges: ['EXTENDS'], direction: 'in' },
  { re: /^(?:superclasses of|base class(?:es)? of|parents of|superclasses|what does .+? extend)\b/i, relation: 'superclasses', edges: ['EXTENDS'], direction: 'out' },
  { re: /^(?:implementations of|what implements|who implements|implementers of|implementations)\b/i, relation: 'implementations', edges: ['IMPLEMENTS'], direction: 'in' },
  { re: /^(?:usages of|who uses|what uses|references to|users of|usages|references)\b/i, relation: 'usages', edges: ['CALLS', 'REFERENCES', 'EXTENDS', 'IMPLEMENTS'], direction: 'in' },
  { re: /^(?:members of|members)\b/i, relation: 'members', edges: ['HAS_MEMBER'], direction: 'out' },
  { re: /^(?:importers of|who imports|what imports)\b/i, relation: 'importers', edges: ['IMPORTS'], direction: 'in' },
];

const IDENT_RE = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;

/**
 * `[GRAPH:] callers of InvoiceService.create` and the like: the named scope and the edges to walk.
 * The name is the last identifier of the query; with no known relation word, reference edges both ways.
 */
export function parseGraphQuery(query: string): GraphQuestion | null {
  const text = query.trim().replace(/[?!.]+$/, '');
  const names = text.replace(/\(\)/g, '').match(IDENT_RE) ?? [];
  const rel = RELATIONS.find((r) => r.re.test(text));
  const candidates = rel ? names.filter((n) => !/^(?:of|who|what|does|do|calls?|call|to|by|extends?|implements?|uses?|members|importers|imports?|callers|callees|subclasses|superclasses|implementations|usages|references|users|parents|base|class|classes|extending|extend|the)$/i.test(n)) : names;
  const name = candidates[candidates.length - 1];
  if (!name) return null;
  if (!rel) return { name, relation: 'related', edges: ['CALLS', 'REFERENCES', 'EXTENDS', 'IMPLEMENTS', 'IMPORTS'], direction: 'both' };
  return { name, relation: rel.relation, edges: rel.edges, direction: rel.direction };
}

export interface CitationCheck {
  /** Cited ids that were in the evidence, in order of first citation. */
  valid: string[];
  /** Cited ids that were not: dropped from the answer's citations, and counted. */
  invented: string[];
  /** The answer with the invented citation markers removed. */
  text: string;
}

const CITE_RE = /\[cite:\s*([^\]\s]+)\s*\]/g;

/** Citations are written `[cite:<scope id>]`; only ids that were in the evidence survive. */
export function checkCitations(answer: string, evidenceIds: ReadonlySet<string>): CitationCheck {
  const valid: string[] = [];
  const invented: string[] = [];
  const text = answer.replace(CITE_RE, (marker, id: string) => {
    if (evidenceIds.has(id)) {
      if (!valid.includes(id)) valid.push(id);
      return marker;
    }
    if (!invented.includes(id)) invented.push(id);
    return '';
  });
  return { valid, invented, text: text.replace(/[ \t]{2,}/g, ' ') };
}
