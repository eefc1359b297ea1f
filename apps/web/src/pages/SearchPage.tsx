import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { ConsoleSearchQuery } from '../api/generated';
import { SEARCH } from '../api/operations';
import type { Repository, SearchForm, SearchHit, SearchMode, SearchResponse, Vocabulary } from '../api/types';
import { BreakdownChips, BreakdownTable } from '../components/Breakdown';
import { ErrorBox } from '../components/ErrorBox';
import { SourceView } from '../components/SourceView';
import { RepoSelect } from '../components/RepoSelect';
import { breakdownParts, ms, scopeLocation, viaText } from '../lib/format';
import { scopeHref, searchHref } from '../lib/router';
import { useQuery } from '../lib/use-query';
import { RerankBar, RerankList, RerankTabs, type RerankView, useRerank } from './RerankPanel';

export const MODES: Array<[SearchMode, string]> = [
  ['HYBRID', 'hybrid (vector + BM25, RRF)'],
  ['SEMANTIC', 'semantic (vector)'],
  ['BM25', 'keyword (BM25)'],
  ['SEMANTIC_RERANK', 'semantic + keyword rescore'],
  ['GRAPH', 'graph (relationship question)'],
];
const DEFAULT_TOP_K = 20;
const MAX_TOP_K = 100;

export function formFromParams(p: URLSearchParams): SearchForm {
  const mode = (p.get('mode') ?? 'HYBRID').toUpperCase() as SearchMode;
  return {
    text: p.get('q') ?? '',
    mode: MODES.some(([m]) => m === mode) ? mode : 'HYBRID',
    repository: p.get('repo') ?? '',
    topK: Math.min(MAX_TOP_K, Math.max(1, Number(p.get('k')) || DEFAULT_TOP_K)),
    pathContains: p.get('path') ?? '',
    pathGlob: p.get('glob') ?? '',
    kind: p.get('kind') ?? '',
    language: p.get('lang') ?? '',
  };
}

export function hrefFromForm(f: SearchForm): string {
  return searchHref({ q: f.text, mode: f.mode, repo: f.repository, k: f.topK, path: f.pathContains, glob: f.pathGlob, kind: f.kind, lang: f.language });
}

function searchInput(f: SearchForm): Record<string, unknown> {
  return {
    text: f.text,
    mode: f.mode,
    topK: f.topK,
    ...(f.repository ? { repository: f.repository } : {}),
    ...(f.pathContains ? { pathContains: f.pathContains } : {}),
    ...(f.pathGlob ? { pathGlob: f.pathGlob } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.language ? { language: f.language } : {}),
  };
}

export function SearchPage({ params, repos, vocabulary }: { params: URLSearchParams; repos: Repository[]; vocabulary: Vocabulary | null }) {
  const query = params.toString();
  const submitted = useMemo(() => formFromParams(new URLSearchParams(query)), [query]);
  const [form, setForm] = useState<SearchForm>(submitted);
  const [nonce, setNonce] = useState(0);
  useEffect(() => setForm(submitted), [submitted]);

  const input = useMemo(() => searchInput(submitted), [submitted]);
  const search = useQuery<ConsoleSearchQuery>(SEARCH, { input }, `${JSON.stringify(input)}#${nonce}`, !submitted.text.trim());
  const results = useMemo(() => search.data?.search.results ?? [], [search.data]);
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => setSelected(results[0]?.scope.id ?? null), [search.data]);

  const rerank = useRerank(submitted, results);
  const [view, setView] = useState<RerankView>('retrieval');
  useEffect(() => setView(rerank.state ? 'rerank' : 'retrieval'), [rerank.state?.jobId]);

  const set = <K extends keyof SearchForm>(k: K, v: SearchForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.text.trim()) return;
    const href = hrefFromForm(form);
    if (href === location.hash) setNonce((n) => n + 1);
    else location.hash = href;
  };

  const hit = results.find((r) => r.scope.id === selected) ?? null;
  const response = search.data?.search;

  return (
    <div className="page search-page">
      <form className="panel search-form" onSubmit={submit} role="search">
        <div className="row">
          <input className="grow big" type="search" placeholder="Search code: a question, words or identifiers (e.g. who calls formatMoney)" aria-label="search text" value={form.text} onChange={(e) => set('text', e.target.value)} autoFocus />
          <select aria-label="mode" value={form.mode} onChange={(e) => set('mode', e.target.value as SearchMode)}>
            {MODES.map(([m, label]) => (
              <option key={m} value={m}>
                {label}
              </option>
            ))}
          </select>
          <RepoSelect repos={repos} value={form.repository} onChange={(v) => set('repository', v)} any />
          <button className="btn primary" type="submit" disabled={!form.text.trim()}>
            Search
          </button>
        </div>
        <div className="row filters">
          <label>
            path contains <input aria-label="path contains" value={form.pathContains} onChange={(e) => set('pathContains', e.target.value)} placeholder="src/services" />
          </label>
          <label>
            path glob <input aria-label="path glob" value={form.pathGlob} onChange={(e) => set('pathGlob', e.target.value)} placeholder="**/*.ts" />
          </label>
          <AnyOf label="kind" value={form.kind} values={vocabulary?.kinds} onChange={(v) => set('kind', v)} />
          <AnyOf label="language" value={form.language} values={vocabulary?.languages} onChange={(v) => set('language', v)} />
          <label>
            top
            <input aria-label="top k" className="count" type="number" min={1} max={MAX_TOP_K} value={form.topK} onChange={(e) => set('topK', Number(e.target.value))} />
          </label>
        </div>
      </form>

      <ErrorBox error={search.error} onRetry={search.reload} />

      {!submitted.text.trim() && !search.error && <Intro />}

      {response && results.length > 0 && <RerankBar rerank={rerank} form={submitted} results={results} />}
      {response && (
        <div className="split">
          <section className="results-col">
            <div className="summary-line">
              <strong>{response.results.length}</strong> results · {submitted.mode.toLowerCase()} · vectors: {response.strategy} · {ms(response.timings.total)}
              <details className="explain">
                <summary>plan</summary>
                <Timings response={response} />
                <pre>{JSON.stringify(response.explain, null, 2)}</pre>
              </details>
            </div>
            {response.warnings.map((w) => (
              <div key={w} className="warning">
                {w}
              </div>
            ))}
            {rerank.state && <RerankTabs state={rerank.state} view={view} setView={setView} />}
            {rerank.state && view === 'rerank' ? (
              <RerankList state={rerank.state} results={results} selected={selected} onSelect={setSelected} />
            ) : (
              <ol className="results" aria-label="results">
                {results.map((r) => (
                  <ResultCard key={r.scope.id} hit={r} active={r.scope.id === selected} onSelect={() => setSelected(r.scope.id)} />
                ))}
              </ol>
            )}
            {results.length === 0 && <div className="empty">No results. Try another mode, fewer filters, or other words.</div>}
          </section>
          <aside className="preview-col">{hit && <Preview hit={hit} />}</aside>
        </div>
      )}
      {search.loading && !response && <div className="loading">Searching…</div>}
    </div>
  );
}

/** A filter with "any" first, then the values the API accepts. */
function AnyOf({ label, value, values = [], onChange }: { label: string; value: string; values?: string[]; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">any</option>
        {values.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  );
}

function Intro() {
  const examples: Array<[string, SearchMode]> = [
    ['create an invoice', 'HYBRID'],
    ['who calls formatMoney', 'GRAPH'],
    ['parse a source file into scopes', 'SEMANTIC'],
  ];
  return (
    <div className="panel intro">
      <h2>Search the code graph</h2>
      <p className="muted">
        Hybrid search fuses a vector list and a BM25 list by rank (RRF); each result shows what every list contributed. GRAPH answers relationship questions
        (who calls X, what extends Y) from the graph itself. Rerank the results with the configured LLM and watch the ranking change batch by batch.
      </p>
      <div className="examples">
        {examples.map(([q, mode]) => (
          <a key={q} className="chip link" href={searchHref({ q, mode })}>
            {q} <span className="muted">· {mode.toLowerCase()}</span>
          </a>
        ))}
      </div>
    </div>
  );
}

function Timings({ response }: { response: SearchResponse }) {
  const t = response.timings;
  const stages: Array<[string, number]> = [
    ['embed', t.embed],
    ['semantic', t.semantic],
    ['bm25', t.bm25],
    ['fuse', t.fuse],
    ['structural', t.structural],
    ['rescore', t.rescore],
    ['fetch', t.fetch],
  ];
  return (
    <div className="timings">
      {stages
        .filter(([, v]) => v > 0)
        .map(([k, v]) => (
          <span key={k}>
            {k} {ms(v)}
          </span>
        ))}
    </div>
  );
}

export function ScopeTitle({ scope, href = true }: { scope: { id: string; qualifiedName: string; kind: string; language?: string }; href?: boolean }) {
  return (
    <span className="scope-title">
      {href ? (
        <a className="scope-name" href={scopeHref(scope.id)} onClick={(e) => e.stopPropagation()}>
          {scope.qualifiedName}
        </a>
      ) : (
        <span className="scope-name">{scope.qualifiedName}</span>
      )}
      <span className={`kind kind-${scope.kind}`}>{scope.kind}</span>
      {scope.language && <span className="lang">{scope.language}</span>}
    </span>
  );
}

function ResultCard({ hit, active, onSelect }: { hit: SearchHit; active: boolean; onSelect: () => void }) {
  return (
    <li className={`card result${active ? ' active' : ''}`} onClick={onSelect} data-scope-id={hit.scope.id}>
      <div className="card-head">
        <span className="rank">{hit.rank}</span>
        <ScopeTitle scope={hit.scope} />
        <span className="score" title="final score">
          {hit.score.toFixed(4)}
        </span>
      </div>
      <div className="loc">{scopeLocation(hit.scope)}</div>
      {hit.scope.signature && <code className="signature">{hit.scope.signature}</code>}
      {hit.via && <div className="via">{viaText(hit.via)}</div>}
      <BreakdownChips breakdown={hit.scoreBreakdown} />
      {hit.alsoAt && hit.alsoAt.length > 0 && <div className="also-at">also at {hit.alsoAt.join(', ')}</div>}
    </li>
  );
}

function Preview({ hit }: { hit: SearchHit }) {
  const b = hit.scoreBreakdown;
  const lists = breakdownParts(b).filter((p) => p.list !== 'fusion' && p.list !== 'rescore');
  return (
    <div className="panel preview" aria-label="preview">
      <div className="preview-head">
        <ScopeTitle scope={hit.scope} />
        <a className="btn small" href={scopeHref(hit.scope.id)}>
          Open scope & graph →
        </a>
      </div>
      <div className="loc">{scopeLocation(hit.scope)}</div>
      {hit.scope.docComment && <p className="doc">{hit.scope.docComment}</p>}
      {lists.length > 0 ? (
        <BreakdownTable breakdown={b} score={hit.score} />
      ) : (
        <p className="muted small">{b.fusion === 'graph' ? 'Answered from the code graph, not from a ranked list (scored by distance from the named scope).' : 'No list scores for this hit.'}</p>
      )}
      {hit.via && <div className="via">structural path: {viaText(hit.via)}</div>}
      {b.filtersApplied.length > 0 && <div className="muted small">filters: {b.filtersApplied.join(' · ')}</div>}
      {hit.alsoAt && hit.alsoAt.length > 0 && (
        <div className="also-at">
          The same scope (kind, name and source) is also at:
          <ul>
            {hit.alsoAt.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {hit.scope.source != null && <SourceView source={hit.scope.source} language={hit.scope.language} startLine={hit.scope.startLine} maxLines={60} truncated={hit.scope.sourceTruncated} />}
    </div>
  );
}
