import type { ConsoleHealthQuery, ConsoleRepositoriesQuery, ConsoleVocabularyQuery } from './api/generated';
import { HEALTH, REPOSITORIES, VOCABULARY } from './api/operations';
import { ErrorBox } from './components/ErrorBox';
import { KeyDialogProvider, useApiKey, useAskForKey } from './components/KeyDialog';
import { RateBanner } from './components/RateBanner';
import { parseRoute, useHash } from './lib/router';
import { useQuery } from './lib/use-query';
import { AskPage } from './pages/AskPage';
import { LocalizePage } from './pages/LocalizePage';
import { RepositoriesPage } from './pages/RepositoriesPage';
import { ReviewPage } from './pages/ReviewPage';
import { ScopePage } from './pages/ScopePage';
import { SearchPage } from './pages/SearchPage';

export function App() {
  return (
    <KeyDialogProvider>
      <Console />
    </KeyDialogProvider>
  );
}

const NAV: Array<[string, string, string]> = [
  ['search', '#/search', 'Search'],
  ['ask', '#/ask', 'Ask'],
  ['localize', '#/localize', 'Localize'],
  ['review', '#/review', 'Review'],
  ['repositories', '#/repositories', 'Repositories'],
];

function Console() {
  const route = parseRoute(useHash());
  const repos = useQuery<ConsoleRepositoriesQuery>(REPOSITORIES, {}, 'repositories');
  const vocabulary = useQuery<ConsoleVocabularyQuery>(VOCABULARY, {}, 'vocabulary');
  const list = repos.data?.repositories ?? [];
  const vocab = vocabulary.data?.searchVocabulary ?? null;
  return (
    <>
      <header className="topbar">
        <a className="brand" href="#/search">
          <img src="/favicon.svg" alt="" width={22} height={22} />
          scopegraph
        </a>
        <nav>
          {NAV.map(([page, href, label]) => (
            <a key={page} href={href} className={route.page === page ? 'active' : ''}>
              {label}
            </a>
          ))}
        </nav>
        <span className="spacer" />
        <Health />
        <KeyButton />
      </header>
      <main>
        <RateBanner />
        {route.page !== 'repositories' && <ErrorBox error={repos.error ?? vocabulary.error} onRetry={() => (repos.reload(), vocabulary.reload())} />}
        {route.page === 'search' && <SearchPage params={route.params} repos={list} vocabulary={vocab} />}
        {route.page === 'ask' && <AskPage params={route.params} repos={list} />}
        {route.page === 'localize' && <LocalizePage repos={list} />}
        {route.page === 'review' && <ReviewPage params={route.params} repos={list} />}
        {route.page === 'scope' && <ScopePage key={route.id} id={route.id} vocabulary={vocab} />}
        {route.page === 'repositories' && <RepositoriesPage repos={list} error={repos.error} reload={repos.reload} />}
      </main>
    </>
  );
}

function Health() {
  const health = useQuery<ConsoleHealthQuery>(HEALTH, {}, 'health');
  const state = health.error ? (health.error.needsKey ? 'no-access' : 'down') : health.data ? (health.data.health.ok ? 'ok' : 'degraded') : 'unknown';
  const title = health.error ? `${health.error.code}: ${health.error.message}` : state === 'ok' ? 'Neo4j, Redis and the queues answer' : state;
  return (
    <button className={`health health-${state}`} title={title} onClick={health.reload}>
      <i /> {state === 'ok' ? 'healthy' : state.replace('-', ' ')}
    </button>
  );
}

function KeyButton() {
  const key = useApiKey();
  const askForKey = useAskForKey();
  return (
    <button className="btn ghost key-button" onClick={() => askForKey()} title="the API key this tab sends">
      <KeyIcon /> {key ? 'key set' : 'API key'}
    </button>
  );
}

function KeyIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="7.5" cy="15.5" r="4.5" />
      <path d="m10.7 12.3 9.3-9.3m-3 3 3 3m-6 0 2 2" />
    </svg>
  );
}
