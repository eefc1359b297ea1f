import type { ConsoleImpactQuery } from '../api/generated';
import { coverageLines, impactPathText, scopeLocation } from '../lib/format';
import { scopeHref } from '../lib/router';

export type Impact = ConsoleImpactQuery['impact'];
type CoChanged = Impact['coChanged'][number];
type Suggestion = Impact['changesWith'][number];

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * An impact answer: what depends on the scopes, depth by depth with each path's edges, how far to
 * trust it (coverage in plain words), and what history says changes with them. All text goes
 * through React's escaping: names and paths come from the indexed code.
 */
export function ImpactView({ impact, onAskChangesWith }: { impact: Impact; onAskChangesWith?: () => void }) {
  const count = impact.levels.reduce((n, l) => n + l.scopes.length, 0);
  return (
    <div className="impact" aria-label="impact">
      <div className="impact-coverage" aria-label="coverage">
        <h4>
          Coverage <span className="aside">· {count} dependent scope{count === 1 ? '' : 's'} within depth {impact.depth}</span>
        </h4>
        <ul>
          {coverageLines(impact.coverage).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      {impact.levels.length === 0 && <p className="empty">Nothing depends on it within depth {impact.depth}.</p>}
      {impact.levels.map((level) => (
        <section key={level.depth} className="impact-level" aria-label={`depth ${level.depth}`} data-depth={level.depth}>
          <h4>
            Depth {level.depth} <span className="aside">{level.scopes.length} scope{level.scopes.length === 1 ? '' : 's'}</span>
          </h4>
          <ul className="impact-scopes">
            {level.scopes.map((s) => (
              <li key={s.scope.id} data-scope-id={s.scope.id}>
                <span className="relation">{s.relation}</span>
                {s.isTest && <span className="chip test-chip">test</span>} <a href={scopeHref(s.scope.id)}>{s.scope.qualifiedName}</a> <span className="loc">{scopeLocation(s.scope)}</span>
                <div className="impact-path mono small">{impactPathText(s.path)}</div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {impact.importers.length > 0 && (
        <section aria-label="importers">
          <h4>Importing files</h4>
          <ul className="impact-importers small">
            {impact.importers.map((i) => (
              <li key={`${i.path}|${i.imports}`}>
                {i.path}
                {i.isTest ? ' (test)' : ''} imports {i.imports}
              </li>
            ))}
          </ul>
        </section>
      )}
      {impact.changesWithStatus === 'computed' ? (
        <SuggestionList title="Usually changes with it" label="changes with" items={impact.changesWith} empty="No function or method is linked to it, near it in its file, or changes with it in the history read." />
      ) : (
        // Opt-in: the suggestions cost a hub about as much as the walk, so they are read on request.
        <section aria-label="changes with">
          <h4>Usually changes with it</h4>
          {onAskChangesWith ? (
            <button type="button" onClick={onAskChangesWith}>
              Show what usually changes with it
            </button>
          ) : (
            <p className="muted small">Not asked for.</p>
          )}
        </section>
      )}
      <CoChangedList title="History alone: changes with it, no static edge" label="co-changed" items={impact.coChanged} empty={impact.history === 'git' ? 'No scope changes with it often enough in the history read.' : impact.history === 'none' ? 'No history: the repository is not a git checkout.' : 'History not read yet.'} />
    </div>
  );
}

export function CoChangedList({ title, label, items, empty, panel = false }: { title: string; label: string; items: CoChanged[]; empty: string; panel?: boolean }) {
  const detail = (c: CoChanged) => `${pct(c.confidence)} of ${c.support} commit${c.support === 1 ? '' : 's'} (${c.level})`;
  return <ScopeList title={title} label={label} items={items} empty={empty} panel={panel} detail={detail} />;
}

/** Why a scope is suggested, in words: each list that ranked it (static edges, same file, history). */
export function suggestionWhy(s: Suggestion): string {
  return s.sources
    .map((x) => {
      if (x.kind === 'static') return x.links ? `linked to ${x.links} asked scope${x.links === 1 ? '' : 's'}` : `dependent at depth ${x.depth}`;
      if (x.kind === 'same-file') return `same file, ${x.lineDistance} line${x.lineDistance === 1 ? '' : 's'} away`;
      return `changed with it: ${pct(x.confidence ?? 0)} of ${x.support}+ commits`;
    })
    .join(' · ');
}

export function SuggestionList({ title, label, items, empty, panel = false }: { title: string; label: string; items: Suggestion[]; empty: string; panel?: boolean }) {
  return <ScopeList title={title} label={label} items={items} empty={empty} panel={panel} detail={suggestionWhy} sources={(c) => c.sources.map((x) => x.kind).join(' ')} />;
}

/** A titled list of scopes, each with a line saying why it is there. */
function ScopeList<T extends { scope: Impact['targets'][number] }>(props: { title: string; label: string; items: T[]; empty: string; panel: boolean; detail: (item: T) => string; sources?: (item: T) => string }) {
  const { title, label, items, empty, panel, detail, sources } = props;
  return (
    <section aria-label={label} className={panel ? 'panel' : undefined}>
      {panel ? <h3>{title}</h3> : <h4>{title}</h4>}
      {items.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ul className="cochanged">
          {items.map((c) => (
            <li key={c.scope.id} data-scope-id={c.scope.id} data-sources={sources?.(c)}>
              <a href={scopeHref(c.scope.id)}>{c.scope.qualifiedName}</a> <span className="loc">{scopeLocation(c.scope)}</span> <span className="muted small">{detail(c)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
