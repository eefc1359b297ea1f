import { useEffect, useRef, useState } from 'react';
import { request, subscribe, type Subscription } from '../api/client';
import type { ConsoleRerankProgressSubscription, ConsoleRerankResultQuery, ConsoleStartRerankMutation } from '../api/generated';
import { RERANK_PROGRESS, RERANK_RESULT, START_RERANK } from '../api/operations';
import { ApiError, asApiError } from '../api/errors';
import type { QueryFeedback, RerankHit, RerankSummary, SearchForm, SearchHit, SearchMode, SuggestedSearch } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { ProgressBar } from '../components/ProgressBar';
import { scopeLocation, movement, ms, num } from '../lib/format';
import { searchHref } from '../lib/router';
import { ScopeTitle } from './SearchPage';

export type RerankView = 'retrieval' | 'rerank';


export interface RerankState {
  jobId: string;
  done: number;
  total: number;
  completed: boolean;
  hits: RerankHit[];
  feedback: QueryFeedback | null;
  summary: RerankSummary | null;
}

export interface RerankOptions {
  batchSize: number;
  parallel: number;
  withSuggestions: boolean;
}

export interface Rerank {
  state: RerankState | null;
  error: ApiError | null;
  starting: boolean;
  start: (question: string, options: RerankOptions) => void;
}

/** A rerank of the current results: started by mutation, followed through rerankProgress. */
export function useRerank(form: SearchForm, results: SearchHit[]): Rerank {
  const [state, setState] = useState<RerankState | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [starting, setStarting] = useState(false);
  const sub = useRef<Subscription | null>(null);

  // A new search (new results) ends the old rerank's view.
  useEffect(() => {
    sub.current?.close();
    setState(null);
    setError(null);
    return () => sub.current?.close();
  }, [results]);

  const start = async (question: string, options: RerankOptions) => {
    sub.current?.close();
    setError(null);
    setStarting(true);
    try {
      const { startRerank: job } = await request<ConsoleStartRerankMutation>(START_RERANK, {
        input: {
          question,
          queryDescription: `${form.mode.toLowerCase()} search ${JSON.stringify(form.text)}${form.repository ? ` in ${form.repository}` : ''}`,
          scopeIds: results.map((r) => r.scope.id),
          retrievalScores: results.map((r) => r.score),
          options,
        },
      });
      const base: RerankState = { jobId: job.jobId, done: 0, total: job.total, completed: false, hits: [], feedback: null, summary: null };
      setState(base);
      if (job.status === 'COMPLETED') {
        // Finished at once (cached, skipped, or a local reranker): read the result.
        const { rerankResult: r } = await request<ConsoleRerankResultQuery>(RERANK_RESULT, { jobId: job.jobId });
        setState({ ...base, done: r.done, total: r.total, completed: true, hits: r.hits, feedback: r.feedback, summary: r });
        return;
      }
      sub.current = subscribe<ConsoleRerankProgressSubscription>(
        RERANK_PROGRESS,
        { jobId: job.jobId },
        ({ rerankProgress: p }) =>
          setState((s) => ({
            jobId: job.jobId,
            done: p.done,
            total: p.total,
            completed: p.kind === 'COMPLETED',
            hits: p.hits.length > 0 ? p.hits : (s?.hits ?? []),
            feedback: p.feedback ?? s?.feedback ?? null,
            summary: p.result ?? s?.summary ?? null,
          })),
        (e) => e && setError(e),
      );
    } catch (e) {
      setError(asApiError(e));
    } finally {
      setStarting(false);
    }
  };
  return { state, error, starting, start: (q, o) => void start(q, o) };
}

/** The rerank controls, its progress after every batch, and the model's feedback on the query. */
export function RerankBar({ rerank, form, results }: { rerank: Rerank; form: SearchForm; results: SearchHit[] }) {
  const [question, setQuestion] = useState(form.text);
  const [options, setOptions] = useState<RerankOptions>({ batchSize: 5, parallel: 5, withSuggestions: true });
  useEffect(() => setQuestion(form.text), [form.text]);
  const s = rerank.state;
  const running = s !== null && !s.completed;
  const batches = Math.ceil(results.length / Math.max(1, options.batchSize));
  return (
    <div className="panel rerank-bar">
      <div className="row">
        <span className="rerank-label">LLM rerank</span>
        <input className="grow" aria-label="rerank question" value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="the question the results should answer" />
        <label title="candidates per LLM request">
          batch
          <input className="narrow" type="number" min={1} max={50} aria-label="batch size" value={options.batchSize} onChange={(e) => setOptions({ ...options, batchSize: Number(e.target.value) })} />
        </label>
        <label title="batches in flight at once">
          parallel
          <input className="narrow" type="number" min={1} max={20} aria-label="parallel" value={options.parallel} onChange={(e) => setOptions({ ...options, parallel: Number(e.target.value) })} />
        </label>
        <label title="ask the model for query feedback and suggested searches">
          <input type="checkbox" checked={options.withSuggestions} onChange={(e) => setOptions({ ...options, withSuggestions: e.target.checked })} /> suggestions
        </label>
        <button className="btn primary" type="button" disabled={running || rerank.starting || !question.trim()} onClick={() => rerank.start(question, options)}>
          {running ? 'Reranking…' : `Rerank ${results.length} (${batches} batch${batches === 1 ? '' : 'es'})`}
        </button>
      </div>
      {s && (
        <div className="rerank-status">
          <ProgressBar done={s.done} total={s.total} state={s.completed ? 'done' : 'running'} label={`${s.done} / ${s.total} batches${s.completed ? ' · completed' : ''}`} />
          {s.summary && (
            <span className="muted small">
              {s.summary.reranker}
              {s.summary.model ? ` (${s.summary.model})` : ''} · {s.summary.llmCalls} model calls · {s.summary.cache.hits} of {s.summary.cache.hits + s.summary.cache.misses} batches from the cache · {ms(s.summary.durationMs)}
              {s.summary.fallbacks > 0 && <span className="warn-text"> · {s.summary.fallbacks} batches fell back to retrieval order</span>}
              {s.summary.notes.map((n) => ` · ${n}`)}
            </span>
          )}
        </div>
      )}
      <ErrorBox error={rerank.error} />
      {s?.feedback && <Feedback feedback={s.feedback} form={form} />}
    </div>
  );
}

export function RerankTabs({ state, view, setView }: { state: RerankState; view: RerankView; setView: (v: RerankView) => void }) {
  return (
    <div className="tabs" role="tablist">
      <button role="tab" aria-selected={view === 'retrieval'} className={view === 'retrieval' ? 'active' : ''} onClick={() => setView('retrieval')}>
        Retrieval order
      </button>
      <button role="tab" aria-selected={view === 'rerank'} className={view === 'rerank' ? 'active' : ''} onClick={() => setView('rerank')}>
        Reranked ({state.done}/{state.total} batches)
      </button>
    </div>
  );
}

/** The merged ranking so far: pending hits keep their retrieval place until their batch answers. */
export function RerankList({ state, results, selected, onSelect }: { state: RerankState; results: SearchHit[]; selected: string | null; onSelect: (id: string) => void }) {
  const byId = new Map(results.map((r) => [r.scope.id, r]));
  return (
    <ol className="results reranked" aria-label="reranked results">
      {(state.hits.length > 0 ? state.hits : pendingHits(results)).map((h) => (
        <RerankCard key={h.scopeId} hit={h} retrieved={byId.get(h.scopeId)} active={h.scopeId === selected} onSelect={() => onSelect(h.scopeId)} />
      ))}
    </ol>
  );
}

/** Before the first batch reports, the retrieval order with every hit pending. */
function pendingHits(results: SearchHit[]): RerankHit[] {
  return results.map((r) => ({
    scopeId: r.scope.id,
    rank: r.rank,
    score: r.score,
    scope: r.scope,
    scoreBreakdown: { retrieval: r.score, retrievalRank: r.rank, llm: null, llmReasoning: null, relevant: null, merged: r.score, scored: false, reranker: '', fallbackReason: 'pending', batch: null, cached: false },
  }));
}

function RerankCard({ hit, retrieved, active, onSelect }: { hit: RerankHit; retrieved?: SearchHit; active: boolean; onSelect: () => void }) {
  const b = hit.scoreBreakdown;
  const move = movement(b.retrievalRank, hit.rank);
  const pending = b.fallbackReason === 'pending';
  return (
    <li className={`card result${active ? ' active' : ''}${pending ? ' pending' : ''}`} onClick={onSelect} data-scope-id={hit.scopeId}>
      <div className="card-head">
        <span className="rank">{hit.rank}</span>
        <span className={`move ${move.startsWith('▲') ? 'up' : move.startsWith('▼') ? 'down' : ''}`} title={`retrieval rank ${b.retrievalRank}`}>
          {move}
        </span>
        <ScopeTitle scope={hit.scope} />
        <span className="score" title="merged score">
          {num(hit.score)}
        </span>
      </div>
      <div className="loc">{scopeLocation(retrieved?.scope ?? hit.scope)}</div>
      <div className="chips">
        <span className="chip chip-llm" title="the reranker's score on [0, 1]">
          llm {b.llm == null ? '–' : num(b.llm, 3)}
        </span>
        <span className="chip" title="retrieval score, normalised and merged">
          retrieval #{b.retrievalRank} · {num(b.retrieval)}
        </span>
        <span className="chip" title="merged score">
          merged {num(b.merged)}
        </span>
        {b.batch != null && <span className="chip">batch {b.batch + 1}</span>}
        {b.cached && <span className="chip">cached</span>}
        {b.fallbackReason && <span className={`chip ${pending ? 'chip-pending' : 'chip-warn'}`}>{pending ? 'waiting for its batch' : `fallback: ${b.fallbackReason}`}</span>}
      </div>
      {b.llmReasoning && <p className="reasoning">{b.llmReasoning}</p>}
    </li>
  );
}

function suggestionHref(q: SuggestedSearch, form: SearchForm): string {
  return searchHref({
    q: q.text,
    mode: q.mode.toUpperCase() as SearchMode,
    repo: q.filters.repository ?? form.repository,
    k: q.topK ?? form.topK,
    path: q.filters.pathContains,
    glob: q.filters.pathGlob,
    kind: q.filters.kinds[0],
    lang: q.filters.languages[0],
  });
}

function Feedback({ feedback, form }: { feedback: QueryFeedback; form: SearchForm }) {
  return (
    <div className="feedback" aria-label="query feedback">
      <span className={`quality q-${feedback.quality.toLowerCase()}`}>results: {feedback.quality.toLowerCase()}</span>
      {feedback.suggestions.map((s, i) => (
        <div key={i} className="suggestion">
          <span className="muted">{s.type.replace(/_/g, ' ')}</span> {s.description}
          {s.suggestedQuery && (
            <a className="btn small" href={suggestionHref(s.suggestedQuery, form)} title="run this search">
              ▶ {s.suggestedQuery.text} <span className="muted">· {s.suggestedQuery.mode}</span>
            </a>
          )}
        </div>
      ))}
    </div>
  );
}
