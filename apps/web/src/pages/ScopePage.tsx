import { useMemo, useState } from 'react';
import type { ConsoleImpactQuery, ConsoleNeighborhoodQuery, ConsoleScopeQuery, Direction } from '../api/generated';
import { IMPACT, NEIGHBORHOOD, SCOPE_QUERY } from '../api/operations';
import type { Vocabulary } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { Graph } from '../components/Graph';
import { ImpactView } from '../components/ImpactView';
import { SourceView } from '../components/SourceView';
import { hopsText, scopeLocation } from '../lib/format';
import { kindColor } from '../lib/kinds';
import { scopeHref, searchHref } from '../lib/router';
import { useQuery } from '../lib/use-query';
import { ScopeTitle } from './SearchPage';

const MAX_NODES = 40;
/** "Usually changes with it" on request: the API computes it only when asked. */
const CHANGE_SUGGESTIONS = 10;

export function ScopePage({ id, vocabulary }: { id: string; vocabulary: Vocabulary | null }) {
  const scope = useQuery<ConsoleScopeQuery>(SCOPE_QUERY, { id }, id);
  const [depth, setDepth] = useState(1);
  const [direction, setDirection] = useState<Direction>('BOTH');
  const [edges, setEdges] = useState<string[]>([]);
  const vars = useMemo(() => ({ id, depth, direction, maxNodes: MAX_NODES, ...(edges.length ? { edges } : {}) }), [id, depth, direction, edges]);
  const hood = useQuery<ConsoleNeighborhoodQuery>(NEIGHBORHOOD, vars, JSON.stringify(vars));
  const s = scope.data?.scope;
  const n = hood.data?.neighborhood;
  const open = (target: string) => (location.hash = scopeHref(target));
  const toggleEdge = (t: string) => setEdges((list) => (list.includes(t) ? list.filter((x) => x !== t) : [...list, t]));
  const [impactDepth, setImpactDepth] = useState(2);
  const [withSuggestions, setWithSuggestions] = useState(false);
  const repoId = scope.data?.scope?.repoId ?? '';
  const impactVars = useMemo(
    () => ({ input: { repository: repoId, scopeIds: [id], depth: impactDepth, ...(withSuggestions ? { changesWith: CHANGE_SUGGESTIONS } : {}) } }),
    [repoId, id, impactDepth, withSuggestions],
  );
  const impact = useQuery<ConsoleImpactQuery>(IMPACT, impactVars, JSON.stringify(impactVars), !repoId);
  const kinds = useMemo(() => [...new Set(n ? [n.root.kind, ...n.neighbors.map((x) => x.scope.kind)] : [])], [n]);

  return (
    <div className="page scope-page">
      <ErrorBox error={scope.error} onRetry={scope.reload} />
      {scope.data && !s && <div className="panel empty">No scope with id <code>{id}</code> (it may have been re-indexed or deleted).</div>}
      {s && (
        <div className="panel scope-head">
          <h1>
            <ScopeTitle scope={s} href={false} />
          </h1>
          <div className="loc">
            {scopeLocation(s)} · repository <a href={searchHref({ repo: s.repoId })}>{s.repoId}</a> · <span className="muted">{s.id}</span>
          </div>
          {s.signature && <code className="signature">{s.signature}</code>}
          {s.docComment && <p className="doc">{s.docComment}</p>}
        </div>
      )}
      <div className="split scope-split">
        <div className="scope-left">
          <section className="panel source-panel">
            <h3>Source</h3>
            {s?.source != null ? <SourceView source={s.source} language={s.language} startLine={s.startLine} truncated={s.sourceTruncated} /> : <p className="muted">{scope.loading ? 'Loading…' : 'No source stored.'}</p>}
          </section>
          {n && n.neighbors.length > 0 && (
            <section className="panel">
              <h3>
                Neighbours <span className="aside">{n.neighbors.length} within depth {depth}</span>
              </h3>
              <table className="neighbors" aria-label="neighbours">
                <thead>
                  <tr>
                    <th>scope</th>
                    <th>depth</th>
                    <th>reached from here by</th>
                  </tr>
                </thead>
                <tbody>
                  {n.neighbors.map((x) => (
                    <tr key={`${x.scope.id}|${x.fromId}`}>
                      <td>
                        <a href={scopeHref(x.scope.id)}>{x.scope.qualifiedName}</a> <span className={`kind kind-${x.scope.kind}`}>{x.scope.kind}</span>
                      </td>
                      <td>{x.depth}</td>
                      <td className="mono small">{hopsText(x.path)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {s && (
            <section className="panel impact-panel">
              <div className="graph-head">
                <h3>Impact: what depends on it</h3>
                <label>
                  depth
                  <select aria-label="impact depth" value={impactDepth} onChange={(e) => setImpactDepth(Number(e.target.value))}>
                    {[1, 2, 3, 4].map((d) => (
                      <option key={d}>{d}</option>
                    ))}
                  </select>
                </label>
              </div>
              <ErrorBox error={impact.error} onRetry={impact.reload} />
              {impact.loading && !impact.data && <p className="muted">Loading…</p>}
              {impact.data && <ImpactView impact={impact.data.impact} onAskChangesWith={() => setWithSuggestions(true)} />}
            </section>
          )}
        </div>
        <section className="panel graph-panel">
          <div className="graph-head">
            <h3>Neighbourhood</h3>
            <label>
              depth
              <select aria-label="depth" value={depth} onChange={(e) => setDepth(Number(e.target.value))}>
                {[1, 2, 3].map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <label>
              direction
              <select aria-label="direction" value={direction} onChange={(e) => setDirection(e.target.value as Direction)}>
                <option value="BOTH">both</option>
                <option value="OUT">outgoing</option>
                <option value="IN">incoming</option>
              </select>
            </label>
          </div>
          <div className="edge-filter" aria-label="edge types">
            {vocabulary?.edgeTypes.map((t) => (
              <label key={t} className={`chip toggle${edges.includes(t) ? ' on' : ''}`}>
                <input type="checkbox" checked={edges.includes(t)} onChange={() => toggleEdge(t)} />
                {t}
              </label>
            ))}
            <span className="muted small">{edges.length ? '' : 'all edge types'}</span>
          </div>
          <ErrorBox error={hood.error} onRetry={hood.reload} />
          {n && n.neighbors.length > 0 && <Graph neighborhood={n} onOpen={open} />}
          {n && n.neighbors.length === 0 && <p className="empty">No neighbours with these settings.</p>}
          {n && (
            <div className="legend">
              {kinds.map((k) => (
                <span key={k}>
                  <i style={{ background: kindColor(k) }} />
                  {k}
                </span>
              ))}
              <span className="muted small">click a node to open it · drag to move · scroll to zoom</span>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
