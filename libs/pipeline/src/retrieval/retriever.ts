import { Injectable, Logger } from '@nestjs/common';
import { defaultPlan, GraphEdgeType, looksLikeIssue, Neighbor, RagClient, ScopeRecord, SEARCH_LIMITS, SearchHit, SearchRepository, SearchService } from '@scopegraph/search';
import type { EvidenceItem } from '../engine/state';
import { parseGraphQuery, RouteMode } from '../protocol/prefix';

export interface RetrievalResult {
  items: EvidenceItem[];
  /** Quality of the best evidence in [0, 1], the corrective retry's signal (see evidenceQuality). */
  bestScore: number;
  /** What actually ran (a GRAPH query whose scope is not found runs as hybrid). */
  mode: string;
  notes: string[];
}

const GRAPH_ROOT_CANDIDATES = 3;

/**
 * The pipeline's view of search: one retrieval per router mode (existing search modes, plus GRAPH),
 * graph expansion around hits, and targeted text fetch by id. Neo4j is reached only through libs/search.
 */
@Injectable()
export class Retriever {
  private readonly logger = new Logger(Retriever.name);

  constructor(
    private readonly rag: RagClient,
    private readonly search: SearchService,
    private readonly repo: SearchRepository,
  ) {}

  repositoryIds(): Promise<string[]> {
    return this.repo.repositoryIds();
  }

  async retrieve(mode: Exclude<RouteMode, 'direct'>, query: string, repository: string, topK: number): Promise<RetrievalResult> {
    if (mode === 'graph') return this.structural(query, repository, topK);
    // A question that is clearly an issue (a trace, code, a long report) goes whole to LOCALIZE.
    if (mode === 'hybrid' && looksLikeIssue(query).issue) {
      const plan = { ...defaultPlan('localize', query.slice(0, SEARCH_LIMITS.maxIssueLength)), filters: { repository }, limit: topK, sourceChars: 0 };
      const response = await this.search.execute(plan);
      return { items: response.results.map(hitItem), bestScore: evidenceQuality(response.results), mode: 'localize', notes: [`the question is an issue: LOCALIZE (${response.explain.localize?.chosenBy ?? ''})`, ...response.warnings] };
    }
    const q = this.rag.scope().inRepository(repository).limit(topK).truncateSource(0);
    const text = query.slice(0, MAX_QUERY_CHARS);
    if (mode === 'semantic') q.semanticSearchBySource(text);
    else if (mode === 'bm25') q.fullText(text);
    else if (mode === 'semantic_rerank') q.semanticRerank(text);
    else q.semanticSearchBySource(text).fullText(text).hybrid();
    const response = await q.execute();
    return { items: response.results.map(hitItem), bestScore: evidenceQuality(response.results), mode, notes: response.warnings };
  }

  /**
   * GRAPH route: the relationship question goes to the search's GRAPH mode (recognises "who calls X",
   * "which classes extend Y", "what does X call", "where is X used", "what overrides X"; resolves the
   * name, ambiguous names included; walks the relation's edges, class hierarchies several hops deep).
   * What that mode does not recognise but the router's short forms name ("members of X") is walked
   * here from the scope of that exact name; anything else falls back to hybrid, logged and noted.
   */
  private async structural(query: string, repository: string, topK: number): Promise<RetrievalResult> {
    const text = query.slice(0, MAX_QUERY_CHARS);
    const response = await this.search.execute({ ...defaultPlan('graph', text), filters: { repository }, limit: topK, sourceChars: 0 });
    const structural = response.explain.structural;
    if (structural && response.results.length > 0) {
      // The named scopes the answers hang from (an ambiguous name may resolve to several).
      const anchorIds = [...new Set(response.results.map((h) => h.via?.anchorId).filter((id): id is string => !!id))].slice(0, GRAPH_ROOT_CANDIDATES);
      const anchors = await this.repo.scopesById(anchorIds, 0);
      const roots: EvidenceItem[] = anchorIds.filter((id) => anchors.has(id)).map((id) => ({ ...scopeItem(anchors.get(id)!), score: 1, origin: 'graph-root' }));
      const answers = response.results.filter((h) => !anchorIds.includes(h.scope.id)).map(graphHitItem);
      const names = roots.map((r) => r.qualifiedName).join(', ') || structural.target;
      return {
        items: [...roots, ...answers],
        bestScore: 1,
        mode: 'graph',
        notes: [`GRAPH: ${structural.relation} of ${names} (${structural.edges.join('|')} ${structural.direction}, depth <= ${structural.maxDepth}, rule ${structural.rule}): ${answers.length} scopes`],
      };
    }
    return this.walkNamed(query, repository, topK);
  }

  /** The router's short forms the search does not recognise ("members of X"): the exact name, one hop. */
  private async walkNamed(query: string, repository: string, topK: number): Promise<RetrievalResult> {
    const parsed = parseGraphQuery(query);
    const fallback = async (why: string) => {
      this.logger.warn(`GRAPH route falls back to hybrid: ${why}`);
      const r = await this.retrieve('hybrid', query, repository, topK);
      return { ...r, notes: [...r.notes, `GRAPH route fell back to hybrid: ${why}`] };
    };
    if (!parsed) return fallback(`no relationship question and no scope name in ${JSON.stringify(query)}`);
    const lastPart = parsed.name.split('.').pop()!;
    const roots = await this.rag.scope().inRepository(repository).whereName(parsed.name).fullText(lastPart).limit(GRAPH_ROOT_CANDIDATES).truncateSource(0).execute();
    const root = roots.results[0];
    if (!root) return fallback(`no scope named ${JSON.stringify(parsed.name)}`);
    const neighbors = await this.search.neighborsOf([root.scope.id], { edges: parsed.edges, direction: parsed.direction, depth: 1, maxNodes: Math.max(topK, 1) }, 0);
    if (neighbors.length === 0) return fallback(`no ${parsed.relation} of ${root.scope.qualifiedName} in the graph`);
    // The answers are this route's hits: their texts are fetched and they are expanded like any hit.
    const items: EvidenceItem[] = [{ ...scopeItem(root.scope), score: 1, origin: 'graph-root' }, ...neighbors.map((n) => ({ ...neighborItem(n), origin: 'hit' as const }))];
    return { items, bestScore: 1, mode: 'graph', notes: [`GRAPH: ${parsed.relation} of ${root.scope.qualifiedName} (${parsed.edges.join('|')} ${parsed.direction}): ${neighbors.length} scopes`] };
  }

  async expand(seedIds: string[], edges: GraphEdgeType[], depth: number, maxNodes: number, direction: 'in' | 'out' | 'both' = 'both'): Promise<EvidenceItem[]> {
    if (seedIds.length === 0 || depth === 0) return [];
    const neighbors = await this.search.neighborsOf(seedIds, { edges, depth, maxNodes, direction }, 0);
    return neighbors.map(neighborItem);
  }

  /** Bodies by id (a lookup by identity, not another search), cut to `chars`. */
  async texts(ids: string[], chars: number): Promise<Map<string, string>> {
    const records = await this.repo.scopesById(ids, chars);
    return new Map([...records].map(([id, r]) => [id, r.source ?? '']));
  }
}

const MAX_QUERY_CHARS = 1_000;

/**
 * A number comparable across modes: the best semantic cosine when a semantic list ran, else 1 when a
 * keyword list found anything (BM25 scores have no fixed scale), else 0.
 */
export function evidenceQuality(hits: SearchHit[]): number {
  if (hits.length === 0) return 0;
  const cosines = hits.map((h) => h.scoreBreakdown.semantic?.score).filter((s): s is number => typeof s === 'number');
  return cosines.length > 0 ? Math.max(...cosines) : 1;
}

function scopeItem(s: ScopeRecord): EvidenceItem {
  return { id: s.id, qualifiedName: s.qualifiedName, kind: s.kind, path: s.path, startLine: s.startLine, endLine: s.endLine, signature: s.signature, score: null, origin: 'hit', via: null, text: null };
}

function hitItem(h: SearchHit): EvidenceItem {
  return { ...scopeItem(h.scope), score: h.score };
}

/**
 * A walked path read from its far end back to where the walk started (`-CALLS-> formatMoney` for a
 * caller of formatMoney), each arrow pointing the way its edge points: the text follows the evidence
 * it labels, so the hit comes first and the arrows must be flipped along with the order.
 */
const hops = (p: { edgeTypes: string[]; directions: Array<'in' | 'out'> }) =>
  p.edgeTypes.map((t, i) => (p.directions[i] === 'out' ? `<-${t}-` : `-${t}->`)).reverse().join(' ');

function neighborItem(n: Neighbor): EvidenceItem {
  return { ...scopeItem(n.scope), origin: 'neighbor', via: `${hops(n.path)} ${n.fromId}` };
}

/** A GRAPH answer: a hit (texts are fetched and it is expanded like any hit) that says how it relates to the named scope. */
function graphHitItem(h: SearchHit): EvidenceItem {
  return { ...hitItem(h), via: h.via ? `${h.via.relation} of ${h.via.anchorName}: ${hops(h.via.path)} ${h.via.anchorId}` : null };
}
