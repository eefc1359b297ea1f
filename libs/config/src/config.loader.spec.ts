import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig } from './config.loader';
import { projectRoot, redactUrl } from './project-root';

const NO_FILE = '/nonexistent/.env';

describe('loadConfig', () => {
  it('applies defaults and types values', () => {
    const config = loadConfig({ NEO4J_PASSWORD: 'pw', API_PORT: '4100' }, NO_FILE);
    expect(config.neo4j).toEqual({ uri: 'bolt://127.0.0.1:7687', user: 'neo4j', password: 'pw', database: 'neo4j', txTimeoutMs: 15_000, jobTxTimeoutMs: 600_000, maxRetryMs: 500, boltWriteBuffer: 65_534 });
    expect(config.api.port).toBe(4100);
    expect(config.api.host).toBe('127.0.0.1');
    expect(config.embedding).toMatchObject({ provider: 'local', dimensions: 384 });
    expect(config.gemini.apiKey).toBeUndefined();
    // Python through a type checker (ty) by default, as TypeScript through its checker; its phase follows the checker unless set.
    expect(config.ingest).toMatchObject({ tsResolver: 'precise', pyResolver: 'precise', pyPreciseMaxProcesses: 2, pyPreciseIdleMs: 600_000 });
    expect(config.ingest.pyPrecisePhase).toBeUndefined();
    expect(config.ingest.pyChecker).toBe('ty');
  });

  it('names every bad variable and never echoes a secret', () => {
    let error: unknown;
    try {
      loadConfig({ NEO4J_URI: 'http://x', API_PORT: 'eighty', EMBEDDING_PROVIDER: 'magic', API_KEY: '' }, NO_FILE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('NEO4J_PASSWORD');
    expect(message).toContain('NEO4J_URI');
    expect(message).toContain('API_PORT');
    expect(message).toContain('EMBEDDING_PROVIDER');
  });

  it('refuses a blank API key, a keyless non-loopback bind and equal read and admin keys', () => {
    expect(() => loadConfig({ NEO4J_PASSWORD: 'pw', API_KEY: '   ' }, NO_FILE)).toThrow(/API_KEY: is blank/);
    expect(() => loadConfig({ NEO4J_PASSWORD: 'pw', API_HOST: '0.0.0.0' }, NO_FILE)).toThrow(/API_KEY: is required when API_HOST \(0\.0\.0\.0\)/);
    expect(() => loadConfig({ NEO4J_PASSWORD: 'pw', API_KEY: 'same', API_ADMIN_KEY: 'same' }, NO_FILE)).toThrow(/API_ADMIN_KEY: must differ/);
    expect(loadConfig({ NEO4J_PASSWORD: 'pw', API_HOST: '0.0.0.0', API_ADMIN_KEY: 'k' }, NO_FILE).api.adminKey).toBe('k');
    expect(loadConfig({ NEO4J_PASSWORD: 'pw', API_KEY: '' }, NO_FILE).api.apiKey).toBeUndefined();
    expect(loadConfig({ NEO4J_PASSWORD: 'pw', API_HOST: 'localhost' }, NO_FILE).api.host).toBe('localhost');
  });

  it('hides the value of a secret that fails validation', () => {
    expect(() => loadConfig({ NEO4J_PASSWORD: '' }, NO_FILE)).toThrow(/NEO4J_PASSWORD: must not be empty$/m);
  });

  it('never echoes REDIS_URL, which may carry a password', () => {
    expect(() => loadConfig({ NEO4J_PASSWORD: 'pw', REDIS_URL: 'http://:hunter2@cache:6379' }, NO_FILE)).toThrow(/REDIS_URL: must be a redis/);
    expect(() => loadConfig({ NEO4J_PASSWORD: 'pw', REDIS_URL: 'http://:hunter2@cache:6379' }, NO_FILE)).not.toThrow(/hunter2/);
  });

  it('takes SCOPEGRAPH_ROOT and SCOPEGRAPH_MODELS_DIR from the loader, with defaults from the project root', () => {
    const defaults = loadConfig({ NEO4J_PASSWORD: 'pw' }, NO_FILE);
    expect(defaults.paths.root).toBe(projectRoot());
    expect(defaults.embedding.modelsDir).toBe(path.join(projectRoot(), '.cache', 'models'));
    const set = loadConfig({ NEO4J_PASSWORD: 'pw', SCOPEGRAPH_ROOT: '/srv/sg', SCOPEGRAPH_MODELS_DIR: '/models' }, NO_FILE);
    expect(set.paths.root).toBe('/srv/sg');
    expect(set.embedding.modelsDir).toBe('/models');
    expect(set.ingest.allowedRoots).toEqual(['/srv']);
  });

  it('reads .env but lets the environment win', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-config-'));
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, 'NEO4J_PASSWORD=fromfile\nAPI_PORT=4200\n');
    const config = loadConfig({ API_PORT: '4300' }, file);
    expect(config.neo4j.password).toBe('fromfile');
    expect(config.api.port).toBe(4300);
  });
});

describe('redactUrl', () => {
  it.each([
    ['redis://:hunter2@cache:6379/0', 'redis://***@cache:6379/0'],
    ['rediss://user:hunter2@cache:6380', 'rediss://***@cache:6380'],
    ['neo4j+s://neo4j:pw@db.example:7687', 'neo4j+s://***@db.example:7687'],
    ['bolt://127.0.0.1:7687', 'bolt://127.0.0.1:7687'],
    ['redis://cache:6379/path@x', 'redis://cache:6379/path@x'],
  ])('%s -> %s', (url, shown) => expect(redactUrl(url)).toBe(shown));
});
