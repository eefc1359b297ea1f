import { Injectable, Logger } from '@nestjs/common';
import { GraphEdgeType, Neighbor, RagClient, ScopeRecord, SearchHit, SearchRepository, SearchService } from '@scopegraph/search';
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
   * GRAPH route: resolve the named scope by exact name, then walk the asked edge type and direction.
   * Kept in this one method so it can switch to a structural search mode of libs/search later.
   */
  private async structural(query: string, repository: string, topK: number): Promise<RetrievalResult> {
    const parsed = parseGraphQuery(query);
    const fallback = async (why: string) => {
      this.logger.warn(`GRAPH route falls back to hybrid: ${why}`);
      const r = await this.retrieve('hybrid', query, repository, topK);
      return { ...r, notes: [...r.notes, `GRAPH route fell back to hybrid: ${why}`] };
    };
    if (!parsed) return fallback(`no scope name in ${JSON.stringify(query)}`);
    const lastPart = parsed.name.split('.').pop()!;
    const roots = await this.rag.scope().inRepository(repository).whereName(parsed.name).fullText(lastPart).limit(GRAPH_ROOT_CANDIDATES).truncateSource(0).execute();
    const root = roots.results[0];
    if (!root) return fallback(`no scope named ${JSON.stringify(parsed.name)}`);
    const neighbors = await this.search.neighborsOf([root.scope.id], { edges: parsed.edges, direction: parsed.direction, depth: 1, maxNodes: Math.max(topK, 1) }, 0);
    const items: EvidenceItem[] = [{ ...scopeItem(root.scope), score: 1, origin: 'graph-root' }, ...neighbors.map(neighborItem)];
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

function neighborItem(n: Neighbor): EvidenceItem {
  const hop = n.path.edgeTypes.map((t, i) => (n.path.directions[i] === 'out' ? `-${t}->` : `<-${t}-`)).join(' ');
  return { ...scopeItem(n.scope), origin: 'neighbor', via: `${hop} ${n.fromId}` };
}
