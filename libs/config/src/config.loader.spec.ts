import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig } from './config.loader';

const NO_FILE = '/nonexistent/.env';

describe('loadConfig', () => {
  it('applies defaults and types values', () => {
    const config = loadConfig({ NEO4J_PASSWORD: 'pw', API_PORT: '4100' }, NO_FILE);
    expect(config.neo4j).toEqual({ uri: 'bolt://127.0.0.1:7687', user: 'neo4j', password: 'pw', database: 'neo4j' });
    expect(config.api.port).toBe(4100);
    expect(config.api.host).toBe('127.0.0.1');
    expect(config.embedding).toMatchObject({ provider: 'local', dimensions: 384 });
    expect(config.gemini.apiKey).toBeUndefined();
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

  it('hides the value of a secret that fails validation', () => {
    expect(() => loadConfig({ NEO4J_PASSWORD: '' }, NO_FILE)).toThrow(/NEO4J_PASSWORD: must not be empty$/m);
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
