import type { ConsoleImpactQuery } from '../api/generated';
import { coverageLines, impactPathText, scopeLocation } from '../lib/format';
import { scopeHref } from '../lib/router';

export type Impact = ConsoleImpactQuery['impact'];
type CoChanged = Impact['coChanged'][number];

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * An impact answer: what depends on the scopes, depth by depth with each path's edges, how far to
 * trust it (coverage in plain words), and what history says changes with them. All text goes
 * through React's escaping: names and paths come from the indexed code.
 */
export function ImpactView({ impact }: { impact: Impact }) {
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
      <CoChangedList title="Usually changes with it" label="co-changed" items={impact.coChanged} empty={impact.history === 'git' ? 'No scope changes with it often enough in the history read.' : impact.history === 'none' ? 'No history: the repository is not a git checkout.' : 'History not read yet.'} />
    </div>
  );
}

export function CoChangedList({ title, label, items, empty, panel = false }: { title: string; label: string; items: CoChanged[]; empty: string; panel?: boolean }) {
  return (
    <section aria-label={label} className={panel ? 'panel' : undefined}>
      {panel ? <h3>{title}</h3> : <h4>{title}</h4>}
      {items.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ul className="cochanged">
          {items.map((c) => (
            <li key={c.scope.id} data-scope-id={c.scope.id}>
              <a href={scopeHref(c.scope.id)}>{c.scope.qualifiedName}</a> <span className="loc">{scopeLocation(c.scope)}</span>{' '}
              <span className="muted small">
                {pct(c.confidence)} of {c.support} commit{c.support === 1 ? '' : 's'} ({c.level})
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
