import type { ScopeRecord } from '../search.types';
import { fileRollup, nameSpellings, proseQuery } from './localizer';
import { extractSignals } from './signals';

const scope = (path: string, qualifiedName: string) => ({ repoId: 'r', path, qualifiedName }) as ScopeRecord;

describe('LOCALIZE helpers', () => {
  it('files ranked by their best function; more ranked functions only break a tie', () => {
    const files = fileRollup([
      { scope: scope('a.py', 'f'), score: 0.5 },
      { scope: scope('b.py', 'g'), score: 0.4 },
      { scope: scope('b.py', 'h'), score: 0.39 },
      { scope: scope('c.py', 'i'), score: 0.4 },
    ]);
    expect(files.map((f) => [f.path, f.rank])).toEqual([['a.py', 1], ['b.py', 2], ['c.py', 3]]);
    expect(files[1].functions).toEqual(['g', 'h']);
  });

  it('dotted mentions are looked up whole, then by their last two and last parts', () => {
    expect(nameSpellings('requests.sessions.Session.request').map((s) => s.name)).toEqual(['requests.sessions.Session.request', 'Session.request', 'request']);
  });

  it('the prose query keeps the title, the prose and the strongest names within the query limit', () => {
    const q = proseQuery(extractSignals(`Session.request drops the timeout\n${'words '.repeat(400)}\nsee \`merge_environment_settings\``), 1_000);
    expect(q.length).toBeLessThanOrEqual(1_000);
    expect(q.startsWith('Session.request drops the timeout')).toBe(true);
    expect(q).toMatch(/merge_environment_settings/);
  });
});
