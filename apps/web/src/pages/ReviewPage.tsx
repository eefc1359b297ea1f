import { useRef, useState } from 'react';
import { request } from '../api/client';
import { ApiError, asApiError } from '../api/errors';
import type { ConsoleReviewChangeQuery } from '../api/generated';
import { REVIEW_CHANGE } from '../api/operations';
import type { Repository } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { CoChangedList, ImpactView, SuggestionList } from '../components/ImpactView';
import { RepoSelect } from '../components/RepoSelect';
import { scopeLocation } from '../lib/format';
import { scopeHref } from '../lib/router';
import { AnswerText } from './AskPage';

type Review = ConsoleReviewChangeQuery['reviewChange'];
const CHANGES = ['added', 'modified', 'removed'] as const;

/** A pasted diff (or two refs) reviewed: changed scopes, impact, partners left alone, tests, the written review. */
export function ReviewPage({ params, repos }: { params: URLSearchParams; repos: Repository[] }) {
  const [repo, setRepo] = useState(params.get('repo') ?? '');
  const [source, setSource] = useState<'diff' | 'refs'>('diff');
  const [diff, setDiff] = useState('');
  const [base, setBase] = useState('');
  const [head, setHead] = useState('');
  const [depth, setDepth] = useState(2);
  const [written, setWritten] = useState(true);
  const [review, setReview] = useState<Review | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const ready = repo && (source === 'diff' ? diff.trim() : base.trim() && head.trim());

  const submit = async (e: { preventDefault: () => void }) => {
    e.preventDefault();
    if (!ready) return;
    abort.current?.abort();
    const mine = (abort.current = new AbortController());
    setBusy(true);
    setError(null);
    setReview(null);
    const input = { repository: repo, depth, writtenReview: written, ...(source === 'diff' ? { diff } : { base: base.trim(), head: head.trim() }) };
    try {
      const data = await request<ConsoleReviewChangeQuery>(REVIEW_CHANGE, { input }, mine.signal);
      if (!mine.signal.aborted) setReview(data.reviewChange);
    } catch (err) {
      if (!mine.signal.aborted) setError(asApiError(err));
    } finally {
      if (!mine.signal.aborted) setBusy(false);
    }
  };

  return (
    <div className="page review-page">
      <form className="panel review-form" aria-label="review a change" onSubmit={submit}>
        <div className="row">
          <RepoSelect repos={repos} value={repo} onChange={setRepo} />
          <label>
            <input type="radio" name="source" checked={source === 'diff'} onChange={() => setSource('diff')} /> pasted diff
          </label>
          <label>
            <input type="radio" name="source" checked={source === 'refs'} onChange={() => setSource('refs')} /> two git refs
          </label>
          <label>
            impact depth
            <select aria-label="impact depth" value={depth} onChange={(e) => setDepth(Number(e.target.value))}>
              {[1, 2, 3, 4].map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          </label>
          <label title="a short review by the chat model, citing scopes (when one is configured)">
            <input type="checkbox" aria-label="written review" checked={written} onChange={(e) => setWritten(e.target.checked)} /> written review
          </label>
        </div>
        {source === 'diff' ? (
          <textarea className="grow mono" rows={10} aria-label="diff" placeholder="Paste a unified diff (git diff) against the indexed tree" value={diff} onChange={(e) => setDiff(e.target.value)} />
        ) : (
          <div className="row">
            <input aria-label="base ref" placeholder="base (e.g. main~1)" value={base} onChange={(e) => setBase(e.target.value)} />
            <input aria-label="head ref" placeholder="head (e.g. main)" value={head} onChange={(e) => setHead(e.target.value)} />
          </div>
        )}
        <div className="row">
          <span className="spacer" />
          <button className="btn primary" type="submit" disabled={busy || !ready}>
            {busy ? 'Reviewing…' : 'Review'}
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
      {review && <ReviewResult review={review} />}
    </div>
  );
}

function ReviewResult({ review }: { review: Review }) {
  const w = review.writtenReview;
  return (
    <div className="review-result">
      {w && (
        <section className="panel" aria-label="written review">
          <h3>
            Written review {w.model && <span className="aside">{w.model}</span>}
          </h3>
          {w.status === 'written' && w.text ? (
            <>
              <AnswerText text={w.text} citations={w.citations} />
              <ol className="citations" aria-label="review citations">
                {w.citations.map((c) => (
                  <li key={c.id}>
                    <a href={scopeHref(c.id)}>{c.qualifiedName}</a> <span className="loc">{scopeLocation(c)}</span>
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <p className="warning review-unavailable">{w.reason}</p>
          )}
          {w.warnings.map((x) => (
            <div key={x} className="warning">
              {x}
            </div>
          ))}
        </section>
      )}
      <section className="panel" aria-label="changed scopes">
        <h3>
          Changed scopes <span className="aside">{review.files.length} file{review.files.length === 1 ? '' : 's'}</span>
        </h3>
        {CHANGES.map((change) => {
          const list = review.changedScopes.filter((s) => s.change === change);
          return (
            <div key={change} className={`changed changed-${change}`} aria-label={change}>
              <h4>
                {change} <span className="aside">{list.length} scope{list.length === 1 ? '' : 's'}</span>
              </h4>
              <ul>
                {list.map((s) => (
                  <li key={s.graphId} data-scope-id={s.graphId}>
                    <span className={`kind kind-${s.kind}`}>{s.kind}</span> {s.inGraph ? <a href={scopeHref(s.graphId)}>{s.qualifiedName}</a> : <span>{s.qualifiedName}</span>} <span className="loc">{scopeLocation(s)}</span>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
        <ul className="files small" aria-label="files">
          {review.files.map((f) => (
            <li key={f.path}>
              {f.path} ({f.change} +{f.linesAdded} −{f.linesDeleted}
              {f.isTest ? ', test' : ''}
              {f.parsed ? '' : ', not parsed: its scopes are unknown'})
            </li>
          ))}
        </ul>
      </section>
      <SuggestionList title="Usually changes with this, left alone here" label="change suggestions" items={review.changeSuggestions} empty="Nothing linked to, near or changing with the changed code was left alone." panel />
      <CoChangedList title="History alone: changed together before, left alone here" label="co-change partners left alone" items={review.coChangeMissing} empty="No co-change partner left alone (or no history read)." panel />
      <section className="panel" aria-label="tests">
        <h3>Tests</h3>
        {review.tests.length === 0 ? (
          <p className="warning">No test covering the changed code was found.</p>
        ) : (
          <ul>
            {review.tests.map((t) => (
              <li key={`${t.path}#${t.qualifiedName}`}>
                {t.qualifiedName ?? t.path} <span className="loc">{t.path}</span> <span className="muted small">{t.how}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel">
        <h3>Impact</h3>
        {review.impact ? <ImpactView impact={review.impact} /> : <p className="muted">No changed scope is in the graph yet: no impact to compute.</p>}
      </section>
      {review.warnings.map((x) => (
        <div key={x} className="warning">
          {x}
        </div>
      ))}
    </div>
  );
}
