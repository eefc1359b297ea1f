import { useEffect, useRef, useState } from 'react';
import { request, subscribe, type Subscription } from '../api/client';
import type { ConsoleAskMutation, ConsoleAskProgressSubscription, ConsoleConversationQuery, ConsolePipelinesQuery } from '../api/generated';
import { ASK, ASK_PROGRESS, CONVERSATION, PIPELINES } from '../api/operations';
import { ApiError, asApiError } from '../api/errors';
import type { AskCitation, AskResult, AskStep, Repository } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { RepoSelect } from '../components/RepoSelect';
import { answerPieces, scopeLocation, ms } from '../lib/format';
import { scopeHref } from '../lib/router';
import { useQuery } from '../lib/use-query';

const SESSION_STORAGE = 'scopegraph.askSession';

function newSessionId(): string {
  return `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

interface Run {
  question: string;
  askId: string;
  steps: AskStep[];
  text: string;
  result: AskResult | null;
  failure: string | null;
}

export function AskPage({ params, repos }: { params: URLSearchParams; repos: Repository[] }) {
  const [repo, setRepo] = useState(params.get('repo') ?? '');
  useEffect(() => {
    if (!repo && repos.length > 0) setRepo(repos[0].id);
  }, [repos, repo]);
  const pipelines = useQuery<ConsolePipelinesQuery>(PIPELINES, {}, 'pipelines');
  const [pipeline, setPipeline] = useState('');
  const [english, setEnglish] = useState(true);
  const [question, setQuestion] = useState('');
  const [session, setSession] = useState(() => sessionStorage.getItem(SESSION_STORAGE) ?? newSessionId());
  useEffect(() => sessionStorage.setItem(SESSION_STORAGE, session), [session]);
  const [turnsNonce, setTurnsNonce] = useState(0);
  const conversation = useQuery<ConsoleConversationQuery>(CONVERSATION, { sessionId: session }, `${session}#${turnsNonce}`);
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const sub = useRef<Subscription | null>(null);
  useEffect(() => () => sub.current?.close(), []);

  const running = run !== null && run.result === null && run.failure === null && error === null;

  const submit = async (e: { preventDefault: () => void }) => {
    e.preventDefault();
    if (!question.trim() || !repo) return;
    sub.current?.close();
    setError(null);
    const asked = question.trim();
    try {
      const { ask } = await request<ConsoleAskMutation>(ASK, {
        input: { question: asked, repository: repo, sessionId: session, isEnglish: english, ...(pipeline ? { pipeline } : {}) },
      });
      setRun({ question: asked, askId: ask.id, steps: [], text: '', result: null, failure: null });
      setQuestion('');
      sub.current = subscribe<ConsoleAskProgressSubscription>(
        ASK_PROGRESS,
        { id: ask.id },
        ({ askProgress: ev }) =>
          setRun((r) => {
            if (!r) return r;
            if (ev.kind === 'STEP' && ev.step) return { ...r, steps: [...r.steps, ev.step] };
            if (ev.kind === 'CHUNK') return { ...r, text: r.text + (ev.text ?? '') };
            if (ev.kind === 'FINAL' && ev.result) return { ...r, result: ev.result, steps: ev.result.trace };
            if (ev.kind === 'ERROR') return { ...r, failure: ev.message ?? 'the run failed' };
            return r;
          }),
        (err) => {
          if (err) setError(err);
          setTurnsNonce((n) => n + 1);
        },
      );
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const turns = (conversation.data?.conversation?.turns ?? []).filter((t) => !run || run.result === null || t.questionOriginal !== run.question);
  const steps = run?.steps ?? [];

  return (
    <div className="page ask-page">
      <form className="panel ask-form" onSubmit={submit}>
        <div className="row">
          <RepoSelect repos={repos} value={repo} onChange={setRepo} />
          <label>
            pipeline
            <select aria-label="pipeline" value={pipeline} onChange={(e) => setPipeline(e.target.value)}>
              <option value="">default</option>
              {pipelines.data?.pipelines.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                  {p.extends ? ` (extends ${p.extends})` : ''}
                </option>
              ))}
            </select>
          </label>
          <label title="translate the question to English first and the answer back">
            <input type="checkbox" checked={!english} onChange={(e) => setEnglish(!e.target.checked)} /> not English
          </label>
          <span className="spacer" />
          <span className="muted small">
            conversation <code>{session}</code>
          </span>
          <button
            type="button"
            className="btn ghost small"
            onClick={() => {
              setSession(newSessionId());
              setRun(null);
            }}
          >
            New conversation
          </button>
        </div>
        <div className="row">
          <textarea
            className="grow"
            rows={2}
            aria-label="question"
            placeholder="Ask about the code: who calls formatMoney? how is an invoice created?"
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
            }}
          />
          <button className="btn primary" type="submit" disabled={running || !question.trim() || !repo}>
            {running ? 'Answering…' : 'Ask'}
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
      <ErrorBox error={conversation.error ?? pipelines.error} />
      <div className="split ask-split">
        <section className="conversation">
          {turns.map((t) => (
            <div key={t.seq} className="turn past">
              <div className="question">{t.questionOriginal}</div>
              <div className="answer">
                <AnswerText text={t.answer} citations={[]} />
              </div>
            </div>
          ))}
          {run && (
            <div className="turn current">
              <div className="question">{run.question}</div>
              <div className="panel answer" aria-label="answer" aria-busy={running}>
                {run.result ? <AnswerText text={run.result.answer} citations={run.result.citations} /> : <AnswerText text={run.text} citations={[]} streaming={running} />}
                {!run.text && !run.result && running && <span className="muted">thinking… {steps.length > 0 ? `(${steps[steps.length - 1].stepId})` : ''}</span>}
                {run.failure && <div className="error-box">{run.failure}</div>}
              </div>
              {run.result && <Citations result={run.result} />}
              {run.result && (
                <div className="muted small answer-meta">
                  pipeline {run.result.pipeline} · {run.result.model ?? 'no chat model'} · {run.result.modelCalls} model calls · evidence {run.result.evidenceTokens} tokens
                  {run.result.loops > 1 ? ` · ${run.result.loops} loops` : ''}
                  {run.result.retries > 0 ? ` · ${run.result.retries} retries` : ''}
                  {run.result.missing ? ` · missing: ${run.result.missing}` : ''}
                </div>
              )}
            </div>
          )}
          {!run && turns.length === 0 && (
            <div className="panel intro">
              <h2>Ask the code base</h2>
              <p className="muted">
                A pipeline routes the question to a search (semantic, keyword, hybrid or the graph), gathers evidence around the hits, and has the chat model answer
                with citations. Steps and the answer stream in as they happen; turns with the same conversation share history.
              </p>
            </div>
          )}
        </section>
        <aside className="panel trace" aria-label="step trace">
          <h3>
            Steps {run?.result ? <span className="aside">{ms(run.result.timings.totalMs)} in all, {ms(run.result.timings.modelMs)} waiting on the model</span> : null}
          </h3>
          {run?.result?.plan && (
            <div className="plan">
              route <strong>{run.result.plan.mode}</strong>: <code>{run.result.plan.query}</code>
              {run.result.plan.fallback && <span className="warn-text"> (fallback: {run.result.plan.fallback})</span>}
            </div>
          )}
          {steps.length === 0 && <p className="muted small">{running ? 'waiting for the worker…' : 'The trace of the next answer shows here.'}</p>}
          {steps.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th>step</th>
                  <th>outcome</th>
                  <th className="num">time</th>
                  <th>model</th>
                </tr>
              </thead>
              <tbody>
                {steps.map((st, i) => (
                  <StepRow key={`${st.stepId}-${i}`} step={st} />
                ))}
              </tbody>
            </table>
          )}
          {run?.result?.warnings.map((w) => (
            <div key={w} className="warning">
              {w}
            </div>
          ))}
        </aside>
      </div>
    </div>
  );
}

/** The answer with `[cite:id]` markers shown as numbered links to the cited scopes. */
export function AnswerText({ text, citations, streaming = false }: { text: string; citations: Pick<AskCitation, 'id' | 'qualifiedName'>[]; streaming?: boolean }) {
  const numbers = new Map(citations.map((c, i) => [c.id, i + 1]));
  const byId = new Map(citations.map((c) => [c.id, c]));
  return (
    <div className={`answer-text${streaming ? ' streaming' : ''}`}>
      {answerPieces(text).map((p, i) =>
        'text' in p ? (
          <span key={i}>{p.text}</span>
        ) : (
          <a key={i} className="cite" href={scopeHref(p.cite)} title={byId.get(p.cite)?.qualifiedName ?? p.cite}>
            [{numbers.get(p.cite) ?? '↗'}]
          </a>
        ),
      )}
    </div>
  );
}

function Citations({ result }: { result: AskResult }) {
  if (result.citations.length === 0) return <p className="muted small">{result.modelAvailable ? 'No citations.' : 'No chat model is configured: the evidence is listed instead.'}</p>;
  return (
    <div className="sources">
      <h3>Sources</h3>
      <ol className="citations" aria-label="citations">
        {result.citations.map((c) => (
          <li key={c.id}>
            <a href={scopeHref(c.id)}>{c.qualifiedName}</a> <span className="loc">{scopeLocation(c)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One traced step; a click shows what the step recorded (its detail). */
function StepRow({ step }: { step: AskStep }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr className="step" onClick={() => setOpen(!open)} title="show the step's detail">
        <td>
          <span className="step-id">{step.stepId}</span>
          <span className="step-action">{step.action}</span>
        </td>
        <td>{step.outcome}</td>
        <td className="num nowrap">{ms(step.ms)}</td>
        <td className="small nowrap">
          {step.modelCalls > 0 && (
            <>
              {step.modelCalls > 1 ? `${step.modelCalls} calls, ` : ''}
              {ms(step.modelMs)}
              <span className="step-action">
                {step.inputTokens}→{step.outputTokens} tokens
              </span>
            </>
          )}
        </td>
      </tr>
      {open && (
        <tr className="step-detail">
          <td colSpan={4}>
            <pre>{JSON.stringify(step.detail, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
