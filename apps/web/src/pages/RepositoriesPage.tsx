import { type FormEvent, useEffect, useRef, useState } from 'react';
import { request, subscribe, type Subscription } from '../api/client';
import type { ConsoleDeleteMutation, ConsoleIndexMutation, ConsoleIndexProgressSubscription } from '../api/generated';
import { DELETE_REPOSITORY, INDEX_PROGRESS, INDEX_REPOSITORY } from '../api/operations';
import { ApiError, asApiError } from '../api/errors';
import type { IndexProgress, Repository } from '../api/types';
import { ErrorBox } from '../components/ErrorBox';
import { ProgressBar } from '../components/ProgressBar';
import { dateTime, globList, ms, seconds } from '../lib/format';
import { searchHref } from '../lib/router';

interface IndexRequest {
  path: string;
  name: string;
  include: string[];
  exclude: string[];
  excludeDocComments: boolean;
}

interface Job {
  jobId: string;
  name: string;
  progress: IndexProgress | null;
  error: ApiError | null;
}

const NAME_FROM_PATH = /([^/\\]+)[/\\]*$/;

export function RepositoriesPage({ repos, error, reload }: { repos: Repository[]; error: ApiError | null; reload: () => void }) {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [startError, setStartError] = useState<ApiError | null>(null);
  const [deleting, setDeleting] = useState<Repository | null>(null);
  const subs = useRef(new Map<string, Subscription>());
  useEffect(() => () => subs.current.forEach((s) => s.close()), []);

  const start = async (req: IndexRequest) => {
    setStartError(null);
    try {
      const { indexRepository } = await request<ConsoleIndexMutation>(INDEX_REPOSITORY, {
        input: { path: req.path, name: req.name, excludeDocComments: req.excludeDocComments, include: req.include, exclude: req.exclude },
      });
      const jobId = indexRepository.id;
      setJobs((list) => [{ jobId, name: req.name, progress: null, error: null }, ...list.filter((j) => j.name !== req.name)]);
      const update = (patch: Partial<Job>) => setJobs((list) => list.map((j) => (j.jobId === jobId ? { ...j, ...patch } : j)));
      subs.current.set(
        jobId,
        subscribe<ConsoleIndexProgressSubscription>(
          INDEX_PROGRESS,
          { jobId },
          ({ indexProgress }) => setJobs((list) => list.map((j) => (j.jobId === jobId ? { ...j, progress: mergeProgress(j.progress, indexProgress) } : j))),
          (e) => {
            if (e) update({ error: e });
            reload();
          },
        ),
      );
      return true;
    } catch (e) {
      setStartError(asApiError(e));
      return false;
    }
  };

  const remove = async (repo: Repository) => {
    await request<ConsoleDeleteMutation>(DELETE_REPOSITORY, { name: repo.name });
    setDeleting(null);
    setJobs((list) => list.filter((j) => j.name !== repo.name));
    reload();
  };

  return (
    <div className="page repos-page">
      <IndexForm onStart={start} error={startError} />
      {jobs.length > 0 && (
        <section className="jobs" aria-label="index jobs">
          {jobs.map((j) => (
            <JobCard key={j.jobId} job={j} />
          ))}
        </section>
      )}
      <section className="panel">
        <h3>Repositories</h3>
        <ErrorBox error={error} onRetry={reload} />
        {repos.length === 0 && !error && <p className="muted">Nothing indexed yet: index a folder above.</p>}
        {repos.length > 0 && (
          <table className="repos" aria-label="repositories">
            <thead>
              <tr>
                <th>name</th>
                <th>root path</th>
                <th className="num">files</th>
                <th className="num">scopes</th>
                <th className="num">edges</th>
                <th className="num">embedded</th>
                <th>indexed</th>
                <th>globs</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {repos.map((r) => (
                <tr key={r.id} data-repo={r.name}>
                  <td>
                    <a href={searchHref({ repo: r.name })}>
                      <strong>{r.name}</strong>
                    </a>
                  </td>
                  <td className="mono small path-cell" title={r.rootPath ?? undefined}>
                    {r.rootPath ?? '—'}
                  </td>
                  <td className="num">{r.files ?? '–'}</td>
                  <td className="num">{r.scopes ?? '–'}</td>
                  <td className="num">{r.edges ?? '–'}</td>
                  <td className="num">{r.embedded ?? '–'}</td>
                  <td className="small" title={r.indexError ?? undefined}>
                    {r.indexStatus === 'INDEXED' ? (r.indexedAt ? dateTime(r.indexedAt) : '–') : r.indexStatus === 'FAILED' ? 'failed: re-index to complete' : r.indexRun ? `indexing (${r.indexRun.phase}): ${r.indexRun.scopesWritten} scopes searchable, ${r.indexRun.embedded}${r.indexRun.toEmbed ? ` / ${r.indexRun.toEmbed}` : ''} embedded` : 'indexing…'}
                  </td>
                  <td className="mono small">
                    {r.include.map((g) => `+${g}`).join(' ')} {r.exclude.map((g) => `-${g}`).join(' ')}
                  </td>
                  <td className="actions">
                    <button className="btn small" disabled={r.rootPath === null} onClick={() => r.rootPath !== null && void start({ path: r.rootPath, name: r.name, include: r.include, exclude: r.exclude, excludeDocComments: false })}>
                      Re-index
                    </button>
                    <button className="btn small danger" onClick={() => setDeleting(r)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {deleting && <DeleteDialog repo={deleting} onCancel={() => setDeleting(null)} onConfirm={() => remove(deleting)} />}
    </div>
  );
}

function IndexForm({ onStart, error }: { onStart: (req: IndexRequest) => Promise<boolean>; error: ApiError | null }) {
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [nameEdited, setNameEdited] = useState(false);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [noDocs, setNoDocs] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const ok = await onStart({ path: path.trim(), name: name.trim(), include: globList(include), exclude: globList(exclude), excludeDocComments: noDocs });
    setBusy(false);
    if (ok) {
      setPath('');
      setName('');
      setNameEdited(false);
    }
  };
  return (
    <form className="panel index-form" onSubmit={submit} aria-label="index a repository">
      <h3>Index a repository</h3>
      <div className="fields">
        <label className="field wide">
          path on the server
          <input
            aria-label="path"
            className="mono"
            placeholder="/abs/path/to/repo (under INGEST_ALLOWED_ROOTS)"
            value={path}
            onChange={(e) => {
              setPath(e.target.value);
              if (!nameEdited) setName(NAME_FROM_PATH.exec(e.target.value.trim())?.[1] ?? '');
            }}
          />
        </label>
        <label className="field">
          name
          <input
            aria-label="name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameEdited(true);
            }}
          />
        </label>
        <label className="field">
          include globs the defaults skip
          <input aria-label="include globs" className="mono" placeholder="dist/**, vendor/**" value={include} onChange={(e) => setInclude(e.target.value)} />
        </label>
        <label className="field">
          exclude globs
          <input aria-label="exclude globs" className="mono" placeholder="src/legacy/, **/*.gen.ts" value={exclude} onChange={(e) => setExclude(e.target.value)} />
        </label>
      </div>
      <div className="row">
        <label>
          <input type="checkbox" checked={noDocs} onChange={(e) => setNoDocs(e.target.checked)} /> leave doc comments out
        </label>
        <span className="muted small">Re-indexing an indexed name is incremental: only changed files are parsed and embedded again.</span>
        <span className="spacer" />
        <button className="btn primary" type="submit" disabled={busy || !path.trim() || !name.trim()}>
          Index
        </button>
      </div>
      <ErrorBox error={error} />
    </form>
  );
}

/** The completion event carries the result but no counters: the last counters stay on show. */
function mergeProgress(previous: IndexProgress | null, next: IndexProgress): IndexProgress {
  if (!previous || next.result == null) return next;
  const { phase, result, failedReason, errors, recentErrors } = next;
  return { ...previous, phase, result, failedReason, errors: Math.max(errors, previous.errors), recentErrors: recentErrors.length ? recentErrors : previous.recentErrors };
}

function JobCard({ job }: { job: Job }) {
  const p = job.progress;
  const done = p?.phase === 'done';
  const failed = p?.phase === 'failed' || job.error !== null;
  const state = failed ? 'failed' : done ? 'done' : 'running';
  return (
    <div className={`panel job ${state}`} data-job={job.name}>
      <div className="job-head">
        <strong>{job.name}</strong>
        <span className={`phase phase-${p?.phase ?? 'waiting'}`}>{p?.phase ?? 'queued'}</span>
        {p?.etaSeconds != null && !done && <span className="muted small">about {seconds(p.etaSeconds)} left in this phase</span>}
        <span className="spacer" />
        {done && <a href={searchHref({ repo: job.name })}>search it →</a>}
      </div>
      <ProgressBar done={p?.filesParsed ?? 0} total={p?.filesTotal ?? 0} state={state} label={`files ${p ? p.filesParsed + p.filesReused : 0} / ${p?.filesTotal ?? '?'}${p?.filesReused ? ` (${p.filesReused} unchanged)` : ''}`} />
      {p && p.toEmbed > 0 && <ProgressBar done={p.embedded} total={p.toEmbed} state={state} label={`embedded ${p.embedded} / ${p.toEmbed}`} />}
      {p && (
        <div className="job-counts">
          <span>
            <strong>{p.scopes}</strong> scopes
          </span>
          <span>
            <strong>{p.edges}</strong> edges
          </span>
          <span className={p.errors > 0 ? 'warn-text' : ''}>
            <strong>{p.errors}</strong> errors
          </span>
        </div>
      )}
      {isIngestResult(p?.result) && <ResultSummary result={p.result} />}
      {p?.failedReason && <div className="error-box">{p.failedReason}</div>}
      {p && p.recentErrors.length > 0 && (
        <ul className="recent-errors">
          {p.recentErrors.map((e, i) => (
            <li key={i}>
              <code>{e.path}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
      <ErrorBox error={job.error} />
    </div>
  );
}

function DeleteDialog({ repo, onCancel, onConfirm }: { repo: Repository; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await onConfirm();
    } catch (err) {
      setError(asApiError(err));
      setBusy(false);
    }
  };
  return (
    <div className="modal-backdrop" onClick={onCancel}>
      <form className="modal" role="dialog" aria-label="delete repository" onClick={(e) => e.stopPropagation()} onSubmit={submit}>
        <h2>Delete {repo.name}?</h2>
        <p>
          This deletes the repository and everything indexed from it ({repo.files ?? 0} files, {repo.scopes ?? 0} scopes, {repo.edges ?? 0} edges). The files on disk
          stay. Type <strong>{repo.name}</strong> to confirm.
        </p>
        <input aria-label="confirm name" value={typed} onChange={(e) => setTyped(e.target.value)} autoFocus />
        <ErrorBox error={error} />
        <div className="modal-actions">
          <span className="spacer" />
          <button type="button" className="btn ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn danger" disabled={busy || typed !== repo.name}>
            Delete
          </button>
        </div>
      </form>
    </div>
  );
}

/** The parts of the worker's IngestResult the summary shows. */
interface IngestSummary {
  files: { indexed: number; parsed: number; reused: number; skipped: Record<string, number> };
  scopes: { total: number; added: number; changed: number; moved: number; deleted: number };
  edges: { total: number; added: number; removed: number; unresolved: number };
  embedded: number;
  embeddedThisRun: number;
  embeddingError?: string;
  timingsMs: Record<string, number>;
}

function isIngestResult(value: unknown): value is IngestSummary {
  return typeof value === 'object' && value !== null && 'scopes' in value && 'files' in value;
}

function ResultSummary({ result: r }: { result: IngestSummary }) {
  const skipped = Object.entries(r.files.skipped).filter(([, n]) => n > 0);
  // Top-level phases (walk, parse, resolve, write, embed); `embed.x` entries are parts of embed.
  const phases = Object.entries(r.timingsMs).filter(([k]) => !k.includes('.'));
  const total = phases.length ? phases.reduce((sum, [, v]) => sum + v, 0) : undefined;
  return (
    <dl className="result-summary" aria-label="index result">
      <dt>files</dt>
      <dd>
        {r.files.indexed} ({r.files.parsed} parsed, {r.files.reused} unchanged{skipped.length ? `; skipped ${skipped.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''})
      </dd>
      <dt>scopes</dt>
      <dd>
        {r.scopes.total} (added {r.scopes.added}, changed {r.scopes.changed}, moved {r.scopes.moved}, deleted {r.scopes.deleted})
      </dd>
      <dt>edges</dt>
      <dd>
        {r.edges.total} (added {r.edges.added}, removed {r.edges.removed}, unresolved {r.edges.unresolved})
      </dd>
      <dt>embedded</dt>
      <dd>
        {r.embedded} ({r.embeddedThisRun} this run){r.embeddingError && <span className="warn-text"> · {r.embeddingError}</span>}
      </dd>
      {total !== undefined && (
        <>
          <dt>took</dt>
          <dd title={phases.map(([k, v]) => `${k} ${ms(v)}`).join(', ')}>{ms(total)}</dd>
        </>
      )}
    </dl>
  );
}
