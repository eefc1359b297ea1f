import { CoChangeRule, coChangeRanking, fuseRanked } from '@scopegraph/history';
import type { ScopeRef } from './scope-ref';

/**
 * "What else changes with these scopes": static edges, the same file's functions by line distance and
 * history's co-change rules, fused by reciprocal rank with co-change at half weight. The combination
 * was chosen on the older half of test commits of four real histories and held out on the newer half
 * (bench/impact/README.md): static alone 0.231 recall@10, this 0.620.
 */
export const CHANGE_SUGGESTIONS = {
  weights: { static: 1, sameFile: 1, coChange: 0.5 },
  /** Rules weaker than these are noise on the measured histories. */
  minSupport: 2,
  minConfidence: 0.1,
  /** Dependents of the walk that count as static candidates (depth 1 callers, depth 2 their callers). */
  maxDependentDepth: 2,
  rrfK: 60,
  /** Rows per source the graph returns (same-file: per asked scope). */
  perSource: 50,
  kinds: ['function', 'method'],
};

export type SuggestionSourceKind = 'static' | 'same-file' | 'co-change';

/** Why one scope is suggested, per list that ranked it (rank is 1-based within that list). */
export interface SuggestionSource {
  kind: SuggestionSourceKind;
  rank: number;
  /** static: how many asked scopes it shares an edge with (0: reached only as a dependent). */
  links: number | null;
  /** static: depth in the impact walk when reached as a dependent, 1 when linked directly. */
  depth: number | null;
  /** same-file: lines between its start and the nearest asked scope's start. */
  lineDistance: number | null;
  /** co-change: commits (of those read) that changed it with an asked scope, the strongest rule's. */
  support: number | null;
  /** co-change: 1 - Π(1 - confidence) over the asked scopes' rules to it. */
  confidence: number | null;
  /** same-file / co-change: the asked scopes it is near or changes with. */
  with: string[];
}

export interface ChangeSuggestion {
  scope: ScopeRef;
  /** The fused reciprocal-rank score: only the order means anything. */
  score: number;
  sources: SuggestionSource[];
}

/** One candidate row of cypher/impact/change-partners.cypher, or of a caller's own co-change rules. */
export interface PartnerRow extends ScopeRef {
  source: SuggestionSourceKind;
  links: number | null;
  query: string | null;
  distance: number | null;
  support: number | null;
  confidence: number | null;
}

/**
 * Ranks the candidates. `query` is what was asked (never suggested), `dependents` the impact walk's
 * reached scopes with their depth.
 */
export function rankChangeSuggestions(query: string[], rows: PartnerRow[], dependents: { scope: ScopeRef; depth: number }[], limit: number): ChangeSuggestion[] {
  const C = CHANGE_SUGGESTIONS;
  const asked = new Set(query);
  const refs = new Map<string, ScopeRef>();
  const keep = (s: ScopeRef) => !asked.has(s.id) && C.kinds.includes(s.kind);
  const ref = (r: ScopeRef): ScopeRef => ({ id: r.id, name: r.name, qualifiedName: r.qualifiedName, kind: r.kind, path: r.path, startLine: r.startLine ?? null, endLine: r.endLine ?? null });

  // Static: linked directly (more asked scopes first), then dependents by depth; ties by id.
  const staticScore = new Map<string, { score: number; links: number; depth: number }>();
  for (const r of rows) {
    if (r.source !== 'static' || !keep(r)) continue;
    refs.set(r.id, ref(r));
    staticScore.set(r.id, { score: 10 + Number(r.links ?? 0), links: Number(r.links ?? 0), depth: 1 });
  }
  for (const d of dependents) {
    if (d.depth > C.maxDependentDepth || !keep(d.scope) || staticScore.has(d.scope.id)) continue;
    refs.set(d.scope.id, d.scope);
    staticScore.set(d.scope.id, { score: 10 - d.depth, links: 0, depth: d.depth });
  }
  const staticList = [...staticScore.entries()].sort((a, b) => b[1].score - a[1].score || cmp(a[0], b[0])).map(([id]) => id);

  // Same file: nearest asked scope's line distance.
  const near = new Map<string, { distance: number; with: Set<string> }>();
  for (const r of rows) {
    if (r.source !== 'same-file' || !keep(r)) continue;
    refs.set(r.id, ref(r));
    const d = Number(r.distance ?? 0);
    const prev = near.get(r.id);
    if (!prev || d < prev.distance) near.set(r.id, { distance: d, with: new Set([r.query ?? '']) });
    else if (d === prev.distance) prev.with.add(r.query ?? '');
  }
  const sameFileList = [...near.entries()].sort((a, b) => a[1].distance - b[1].distance || cmp(a[0], b[0])).map(([id]) => id);

  // Co-change: history's rules, combined over the asked scopes (noisy-or).
  const rules = new Map<string, CoChangeRule[]>();
  const ruleInfo = new Map<string, { support: number; with: Set<string> }>();
  for (const r of rows) {
    if (r.source !== 'co-change' || !keep(r) || !r.query) continue;
    const support = Number(r.support ?? 0);
    const confidence = Number(r.confidence ?? 0);
    if (support < C.minSupport || confidence < C.minConfidence) continue;
    refs.set(r.id, ref(r));
    rules.set(r.query, [...(rules.get(r.query) ?? []), { to: r.id, support, confidence }]);
    const info = ruleInfo.get(r.id) ?? { support: 0, with: new Set<string>() };
    info.support = Math.max(info.support, support);
    info.with.add(r.query);
    ruleInfo.set(r.id, info);
  }
  const coQuery = [...rules.keys()];
  const coList = coChangeRanking(coQuery, rules, { minSupport: C.minSupport, minConfidence: C.minConfidence, combine: 'noisyOr' }).filter((id) => !asked.has(id));
  const coConfidence = new Map<string, number>();
  for (const q of coQuery) for (const r of rules.get(q)!) coConfidence.set(r.to, 1 - (1 - (coConfidence.get(r.to) ?? 0)) * (1 - r.confidence));

  const fused = fuseRanked(
    [
      { ids: staticList, weight: C.weights.static },
      { ids: sameFileList, weight: C.weights.sameFile },
      { ids: coList, weight: C.weights.coChange },
    ],
    C.rrfK,
  ).slice(0, limit);
  const rankIn = (list: string[]) => new Map(list.map((id, i) => [id, i + 1]));
  const [staticRank, sameRank, coRank] = [rankIn(staticList), rankIn(sameFileList), rankIn(coList)];
  return fused.map((id) => {
    const sources: SuggestionSource[] = [];
    const none = { links: null, depth: null, lineDistance: null, support: null, confidence: null, with: [] as string[] };
    const st = staticScore.get(id);
    if (st) sources.push({ ...none, kind: 'static', rank: staticRank.get(id)!, links: st.links, depth: st.depth });
    const sf = near.get(id);
    if (sf) sources.push({ ...none, kind: 'same-file', rank: sameRank.get(id)!, lineDistance: sf.distance, with: [...sf.with].sort() });
    const co = ruleInfo.get(id);
    if (co) sources.push({ ...none, kind: 'co-change', rank: coRank.get(id)!, support: co.support, confidence: round3(coConfidence.get(id)!), with: [...co.with].sort() });
    let score = 0;
    if (st) score += C.weights.static / (C.rrfK + staticRank.get(id)!);
    if (sf) score += C.weights.sameFile / (C.rrfK + sameRank.get(id)!);
    if (co) score += C.weights.coChange / (C.rrfK + coRank.get(id)!);
    return { scope: refs.get(id)!, score: Math.round(score * 1e6) / 1e6, sources };
  });
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;
