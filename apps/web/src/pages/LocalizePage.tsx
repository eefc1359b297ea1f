import { type FormEvent, useMemo, useState } from 'react';
import { LOCALIZE } from '../api/operations';
import type { ConsoleLocalizeQuery } from '../api/generated';
import type { Repository } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { RepoSelect } from '../components/RepoSelect';
import { scopeHref } from '../lib/router';
import { useQuery } from '../lib/use-query';

/** Paste an issue (text, stack traces, logs): the functions a fix most likely changes, with why. */
export function LocalizePage({ repos }: { repos: Repository[] }) {
  const [text, setText] = useState('');
  const [repository, setRepository] = useState(repos[0]?.name ?? '');
  const [submitted, setSubmitted] = useState<{ text: string; repository: string } | null>(null);
  const input = useMemo(() => (submitted ? { text: submitted.text, mode: 'LOCALIZE', topK: 20, sourceChars: 0, repository: submitted.repository } : {}), [submitted]);
  const answer = useQuery<ConsoleLocalizeQuery>(LOCALIZE, { input }, JSON.stringify(input), !submitted);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() && (repository || repos[0])) setSubmitted({ text, repository: repository || repos[0].name });
  };
  const data = answer.data?.search;
  return (
    <div className="localize-page">
      <form onSubmit={submit} className="card">
        <textarea aria-label="issue" rows={12} className="grow" placeholder="Paste an issue: title, description, stack trace, log, code" value={text} onChange={(e) => setText(e.target.value)} />
        <div className="row">
          <RepoSelect repos={repos} value={repository || repos[0]?.name || ''} onChange={setRepository} />
          <button className="btn" type="submit" disabled={!text.trim()}>
            Localize
          </button>
        </div>
      </form>
      <ErrorBox error={answer.error} onRetry={answer.reload} />
      {answer.loading && submitted && <p>localizing…</p>}
      {data && (
        <div className="localize-results">
          {data.warnings.map((w) => (
            <p key={w} className="warning">
              {w}
            </p>
          ))}
          <ol className="results" aria-label="functions">
            {data.results.map((hit) => (
              <li key={hit.scope.id} className="card result" data-scope-id={hit.scope.id}>
                <a href={scopeHref(hit.scope.id)}>{hit.scope.qualifiedName}</a> <span className="kind">{hit.scope.kind}</span>{' '}
                <span className="path">
                  {hit.scope.path}:{hit.scope.startLine}-{hit.scope.endLine}
                </span>{' '}
                <span className="score">{hit.score.toFixed(3)}</span>
                <ul className="evidence" aria-label="evidence">
                  {(hit.evidence ?? []).map((e, i) => (
                    <li key={i}>
                      <b>{e.signal}</b> {e.detail}
                      {e.edge ? ` [${e.edge}]` : ''}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          {data.files && data.files.length > 0 && (
            <ol className="files" aria-label="files">
              {data.files.slice(0, 10).map((f) => (
                <li key={f.path}>
                  {f.path} <span className="score">{f.score.toFixed(3)}</span> ({f.functions.slice(0, 3).join(', ')})
                </li>
              ))}
            </ol>
          )}
          <p className="muted">{data.timings.total.toFixed(0)} ms</p>
        </div>
      )}
    </div>
  );
}
