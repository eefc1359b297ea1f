import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@scopegraph/config';
import { ReferenceResolver } from './reference-resolver';

const NO_FILE = '/nonexistent/.env';

describe('the Python checker phase in effect', () => {
  let dir: string;
  let ty: string;
  const resolvers: ReferenceResolver[] = [];
  const resolver = (env: Record<string, string>) => {
    const r = new ReferenceResolver(loadConfig({ NEO4J_PASSWORD: 'pw', INGEST_PY_TY_PATH: ty, ...env }, NO_FILE));
    resolvers.push(r);
    return r;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'py-phase-'));
    // An executable at the configured path is all the choice of checker looks at (nothing is started here).
    ty = path.join(dir, 'ty');
    fs.writeFileSync(ty, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  });
  afterAll(async () => {
    await Promise.all(resolvers.map((r) => r.onModuleDestroy()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keys the stored resolution by the checker that answers, so a switch of checker re-resolves', () => {
    const key = (env: Record<string, string>) => resolver(env).contextKey(dir, ['a.py']);
    expect(key({ INGEST_PY_CHECKER: 'ty' })).not.toBe(key({ INGEST_PY_CHECKER: 'pyright' }));
    expect(key({ INGEST_PY_CHECKER: 'ty' })).toBe(key({ INGEST_PY_CHECKER: 'ty' }));
    // Under the fast resolver no checker answers: which one is configured changes nothing.
    expect(key({ INGEST_PY_RESOLVER: 'fast', INGEST_PY_CHECKER: 'ty' })).toBe(key({ INGEST_PY_RESOLVER: 'fast', INGEST_PY_CHECKER: 'pyright' }));
  });

  it('is inline for ty when INGEST_PY_PRECISE_PHASE is unset (one edge write)', () => {
    const r = resolver({ INGEST_PY_CHECKER: 'ty' });
    expect(r.pyPhase).toBe('inline');
    expect(r.defersPython).toBe(false);
  });

  it('is deferred for pyright when unset (its answers hide behind the embedding)', () => {
    const r = resolver({ INGEST_PY_CHECKER: 'pyright' });
    expect(r.pyPhase).toBe('deferred');
    expect(r.defersPython).toBe(true);
  });

  it("follows the checker that answers: ty missing, pyright answers and defers", () => {
    const r = resolver({ INGEST_PY_CHECKER: 'ty', INGEST_PY_TY_PATH: path.join(dir, 'missing') });
    expect(r.pyPhase).toBe('deferred');
  });

  it('keeps the setting when given, for either checker', () => {
    expect(resolver({ INGEST_PY_CHECKER: 'ty', INGEST_PY_PRECISE_PHASE: 'deferred' }).defersPython).toBe(true);
    expect(resolver({ INGEST_PY_CHECKER: 'pyright', INGEST_PY_PRECISE_PHASE: 'inline' }).defersPython).toBe(false);
  });

  it('never defers with the fast resolver', () => {
    expect(resolver({ INGEST_PY_CHECKER: 'pyright', INGEST_PY_RESOLVER: 'fast' }).defersPython).toBe(false);
  });
});
