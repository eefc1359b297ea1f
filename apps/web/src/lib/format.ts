import { nameFromScopeId, relationshipText } from '@scopegraph/api-client';
// Pure formatting of API answers for display (unit-tested in format.spec.ts).
import type { GraphPath, GraphVia, ScoreBreakdown } from '../api/types';

/** One piece of a score breakdown, as a labelled chip. */
export interface BreakdownPart {
  list: 'semantic' | 'bm25' | 'keyword' | 'graph' | 'fusion' | 'rescore';
  label: string;
  /** Longer text for the tooltip. */
  title: string;
}

/** 4 significant digits, no exponent for the usual ranges; integers stay integers. */
export function num(value: number, digits = 4): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  const text = abs >= 1 ? value.toFixed(Math.max(0, digits - 1 - Math.floor(Math.log10(abs)))) : value.toPrecision(digits);
  return text.includes('.') && !text.includes('e') ? text.replace(/\.?0+$/, '') : text;
}

const LIST_TITLES = {
  semantic: 'vector index (cosine similarity)',
  bm25: 'full-text index (BM25)',
  keyword: 'keyword score over the candidate pool',
  graph: 'connections to other candidates',
} as const;

/**
 * Per list: its rank, its own score and what it added to the fused score; then the fusion method and
 * the second-stage (rescore) shares. Lists a hit was not found by are left out.
 */
export function breakdownParts(b: ScoreBreakdown): BreakdownPart[] {
  const parts: BreakdownPart[] = [];
  for (const list of ['semantic', 'bm25', 'keyword', 'graph'] as const) {
    const s = b[list];
    if (!s) continue;
    const extra = list === 'graph' && b.graph ? `, ${b.graph.connections} connections` : list === 'keyword' && b.keyword ? `, raw ${num(b.keyword.raw)}` : '';
    parts.push({
      list,
      label: `${list} #${s.rank} · ${num(s.score)} · +${num(s.contribution)}`,
      title: `${LIST_TITLES[list]}: rank ${s.rank}, score ${num(s.score, 6)}, added ${num(s.contribution, 6)} to the fused score${extra}`,
    });
  }
  parts.push({ list: 'fusion', label: `fusion ${b.fusion}`, title: fusionTitle(b.fusion) });
  if (b.rescore) {
    const r = b.rescore;
    parts.push({
      list: 'rescore',
      label: `rescore fused ${num(r.fused, 3)} · keyword ${num(r.keyword, 3)} · phrase ${num(r.phrase, 3)} · name ${num(r.name, 3)} · container ${num(r.container, 3)} · link ${num(r.link, 3)}`,
      title: 'second stage over the fused head: share of the fused score, keyword score over the pool, bonus for a phrase of the query, bonus for a name it mentions, bonus because its class, enclosing function or file is a candidate too, bonus for a code edge with another candidate',
    });
  }
  return parts;
}

function fusionTitle(fusion: string): string {
  switch (fusion) {
    case 'rrf':
      return 'weighted Reciprocal Rank Fusion of the lists';
    case 'blend':
      return 'vector score blended with the keyword score';
    case 'graph':
      return 'answered from the code graph (a relationship question)';
    default:
      return 'a single list, no fusion';
  }
}

/** `repo:path#Qualified.Name|kind` -> `Qualified.Name` (scope ids carry their name). */
export const nameFromId = nameFromScopeId;

/**
 * A walked path as text, arrows pointing the way the edges point:
 * `formatMoney <-CALLS- Invoice.describe`, `Invoice -EXTENDS-> BaseEntity`.
 */
export function pathText(path: GraphPath, name: (id: string) => string = nameFromId): string {
  let text = name(path.nodeIds[0] ?? '?');
  path.edgeTypes.forEach((type, i) => {
    const next = name(path.nodeIds[i + 1] ?? '?');
    // How the edge was made, when the server says: CALLS[scip], EXTENDS[name]...
    const how = path.provenances?.[i];
    const edge = how ? `${type}[${how}]` : type;
    text += path.directions[i]?.toUpperCase() === 'IN' ? ` <-${edge}- ${next}` : ` -${edge}-> ${next}`;
  });
  return text;
}

/** The hops of a walked path after its start: `<-CALLS- main <-DECLARES- ts/src/main.ts`. */
export function hopsText(path: GraphPath): string {
  return pathText(path).slice(nameFromId(path.nodeIds[0] ?? '?').length + 1);
}

/** How a GRAPH answer relates to the scope the question named. */
export function viaText(via: GraphVia): string {
  return `${via.relation} of ${via.anchorName}: ${relationshipText(via.path)}${via.nameOnly ? ' (rests on name matching)' : ''}`;
}

export function scopeLocation(scope: { path: string; startLine?: number | null; endLine?: number | null }): string {
  if (scope.startLine == null) return scope.path;
  return scope.endLine != null && scope.endLine !== scope.startLine ? `${scope.path}:${scope.startLine}-${scope.endLine}` : `${scope.path}:${scope.startLine}`;
}

/** Rank change from retrieval to rerank: `▲3`, `▼2` or `=`. */
export function movement(fromRank: number, toRank: number): string {
  if (fromRank === toRank) return '=';
  return fromRank > toRank ? `▲${fromRank - toRank}` : `▼${toRank - fromRank}`;
}

export function ms(value: number | null | undefined): string {
  if (value == null) return '–';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 100) return `${Math.round(value)} ms`;
  return `${num(value, 2)} ms`;
}

export function percent(done: number, total: number): number {
  if (total <= 0) return done > 0 ? 100 : 0;
  return Math.min(100, Math.round((done / total) * 100));
}

/** An answer with `[cite:<id>]` markers, split into text and citation pieces. */
export type AnswerPiece = { text: string } | { cite: string };

export function answerPieces(answer: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  const re = /\[cite:\s*([^\]\s]+)\s*\]/g;
  let last = 0;
  for (const m of answer.matchAll(re)) {
    if (m.index! > last) pieces.push({ text: answer.slice(last, m.index) });
    pieces.push({ cite: m[1] });
    last = m.index! + m[0].length;
  }
  if (last < answer.length) pieces.push({ text: answer.slice(last) });
  return pieces;
}

/** Globs typed one per line or separated by commas. */
export function globList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((g) => g.trim())
    .filter((g) => g.length > 0);
}

/** "12 s", "3 min 5 s" */
export function seconds(s: number | null | undefined): string {
  if (s == null) return '';
  if (s < 60) return `${Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** `2026-11-24 19:33` in the browser's time zone. */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A scope's source starts at its first token, so its first line has lost the indentation the rest
 * keeps (`create() {` above `    const x` and `  }`). When the last line closes a block, the first
 * line gets that line's indentation back, then the common indentation is removed.
 */
export function alignFirstLine(source: string): string {
  const lines = source.split('\n');
  if (lines.length < 2 || /^\s/.test(lines[0])) return source;
  const last = lines[lines.length - 1];
  const closing = /^(\s*)[}\])]/.exec(last);
  if (closing) lines[0] = closing[1] + lines[0];
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = Math.min(...indents);
  return common > 0 ? lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length))).join('\n') : lines.join('\n');
}

/** One edge of an impact path as the API gives it: `from` depends on `to`. */
export interface ImpactEdge {
  from: string;
  edge: string;
  to: string;
  resolver: string | null;
  via: string | null;
}

/** The impact's resolver names as the provenances relationshipText labels edges with. */
const RESOLVER_PROVENANCE: Record<string, string> = { precise: 'compiler', scip: 'scip', fast: 'name' };

/**
 * An impact path (from the dependent to the changed scope) as relationship text:
 * `run_app -CALLS[name]-> helper`, with a dispatch hop saying through which override it goes.
 */
export function impactPathText(path: ImpactEdge[]): string {
  if (path.length === 0) return '';
  const text = relationshipText({
    nodeIds: [path[0].from, ...path.map((e) => e.to)],
    edgeTypes: path.map((e) => e.edge),
    directions: path.map(() => 'out'),
    provenances: path.map((e) => (e.resolver ? (RESOLVER_PROVENANCE[e.resolver] ?? e.resolver) : null)),
  });
  const dispatch = path.filter((e) => e.via).map((e) => `${nameFromId(e.to)} overridden by ${nameFromId(e.via!)}`);
  return dispatch.length ? `${text} (dynamic dispatch: ${dispatch.join(', ')})` : text;
}

/** What an impact answer rests on, as plain sentences. */
export function coverageLines(c: { edges: number; nameOnlyEdges: number; preciseEdges: number; unresolvedSameName: number; unresolvedInReached: number; testsFound: boolean; truncated: boolean }): string[] {
  const s = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  return [
    c.edges === 0 ? 'No edge leads here: nothing in the graph depends on it.' : `${c.nameOnlyEdges} of ${s(c.edges, 'edge')} matched by name only (could point at the wrong target); ${c.preciseEdges} resolved by a compiler or index.`,
    `${s(c.unresolvedSameName, 'unresolved reference')} elsewhere with a matching name could also lead here (not shown).`,
    `${s(c.unresolvedInReached, 'unresolved or dynamic reference')} in the reached code.`,
    c.testsFound ? 'Tests were found among the dependents.' : 'No tests were found.',
    ...(c.truncated ? ['The node cap stopped the walk before the depth did: there is more.'] : []),
  ];
}
