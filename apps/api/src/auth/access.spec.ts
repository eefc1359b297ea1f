import { loadConfig } from '@scopegraph/config';
import { browserRefusal, decideAccess, principalOf, roleForKey } from './access';
import { rateKey, rateTracker } from './rate-limit.guard';
import { maySee, patternMatches, repositoriesInArgs } from './scope';

const NO_FILE = '/nonexistent/.env';
const config = (env: Record<string, string> = {}) => loadConfig({ NEO4J_PASSWORD: 'pw', ...env }, NO_FILE);

describe('repository scopes', () => {
  it('matches names and * / ? globs, and walks arguments for repository names at any input depth', () => {
    expect(patternMatches('team-*', 'team-api')).toBe(true);
    expect(patternMatches('team-*', 'other')).toBe(false);
    expect(patternMatches('a?c', 'abc')).toBe(true);
    expect(patternMatches('a.c', 'abc')).toBe(false);
    expect(maySee({ role: 'read', keyId: 'k', repositories: ['a'] }, 'b')).toBe(false);
    expect(maySee({ role: 'read', keyId: 'env:read' }, 'b')).toBe(true);
    expect(repositoriesInArgs({ input: { repository: 'x', filters: { repositories: ['y', 'z'] } }, name: 'n' }, ['name'])).toEqual(['x', 'y', 'z', 'n']);
    expect(repositoriesInArgs({ input: { name: 'n' } }, ['name'])).toEqual([]);
  });
});

describe('access rules', () => {
  it('maps keys to roles: the single API_KEY is admin; with API_ADMIN_KEY it only reads', () => {
    expect(roleForKey(config(), undefined)).toBe('admin');
    expect(roleForKey(config({ API_KEY: 'k1' }), 'k1')).toBe('admin');
    expect(roleForKey(config({ API_KEY: 'k1', API_ADMIN_KEY: 'k2' }), 'k1')).toBe('read');
    expect(roleForKey(config({ API_KEY: 'k1', API_ADMIN_KEY: 'k2' }), 'k2')).toBe('admin');
    expect(roleForKey(config({ API_ADMIN_KEY: 'k2' }), 'k1')).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(roleForKey(config({ API_KEY: 'k1' }), undefined)).toMatchObject({ status: 401 });
  });

  it('on loopback accepts loopback Hosts and Origins only, plus listed origins', () => {
    const c = config({ API_ALLOWED_ORIGINS: 'https://console.example/' });
    const h = (host: string, origin?: string) => browserRefusal(c, { host, ...(origin ? { origin } : {}) });
    expect(h('127.0.0.1:4000')).toBeUndefined();
    expect(h('localhost:4000', 'http://localhost:4000')).toBeUndefined();
    expect(h('localhost:4000', 'http://127.0.0.1:4000')).toBeUndefined();
    expect(h('localhost:4000', 'http://localhost:5173')).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // Public documents (the Neo4j Browser guide) may be fetched by a local page on another port.
    expect(browserRefusal(c, { host: 'localhost:4000', origin: 'http://localhost:7474' }, true)).toBeUndefined();
    expect(h('[::1]:4000', 'http://[::1]:4000')).toBeUndefined();
    expect(h('localhost:4000', 'https://console.example')).toBeUndefined();
    expect(h('evil.example:4000')).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(h('localhost:4000', 'http://evil.example')).toMatchObject({ status: 403 });
    expect(h('localhost:4000', 'null')).toMatchObject({ status: 403 });
    expect(h('localhost:4000', 'http://localhost.evil.example')).toMatchObject({ status: 403 });
  });

  it('beyond loopback accepts any Host but only same-origin pages', () => {
    const c = config({ API_HOST: '0.0.0.0', API_KEY: 'k1' });
    expect(browserRefusal(c, { host: 'search.internal:4000', origin: 'http://search.internal:4000' })).toBeUndefined();
    expect(browserRefusal(c, { host: 'search.internal:4000', origin: 'http://localhost:4000' })).toMatchObject({ status: 403 });
    expect(decideAccess(c, { host: 'search.internal:4000' })).toMatchObject({ status: 401 });
    expect(decideAccess(c, { host: 'search.internal:4000' }, { apiKey: 'k1' })).toBe('admin');
  });

  it('rate-limits by the configured key that matched, else by address: an unchecked key is no principal', () => {
    expect(principalOf(config(), 'admin')).toBeUndefined();
    expect(principalOf(config({ API_KEY: 'k1', API_ADMIN_KEY: 'k2' }), 'read')).toBe('key:read');
    expect(rateTracker({ ip: '10.0.0.7' })).toBe('ip:10.0.0.7');
    expect(rateTracker({ principal: 'key:read', ip: '10.0.0.7' })).toBe('key:read');
    expect(rateKey(rateTracker({ ip: '10.0.0.7' }))).toBe(rateKey(rateTracker({ ip: '10.0.0.7' })));
  });
});
