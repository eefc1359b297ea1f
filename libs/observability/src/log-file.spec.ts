import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CappedLogFile, terminalLine } from './log-file';

describe('CappedLogFile', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-log-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('never lets the file pass its cap: it rotates to .1, keeping one predecessor', () => {
    const file = path.join(dir, 'api.log');
    const log = new CappedLogFile(file, 1_000);
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 35; i++) log.write(line);
    log.close();
    expect(fs.statSync(file).size).toBe(500);
    expect(fs.statSync(`${file}.1`).size).toBe(1_000);
    expect(fs.readdirSync(dir).sort()).toEqual(['api.log', 'api.log.1']);
  });

  it('continues an existing file and counts what it holds', () => {
    const file = path.join(dir, 'api.log');
    fs.writeFileSync(file, 'y'.repeat(950));
    const log = new CappedLogFile(file, 1_000);
    log.write('z'.repeat(100));
    log.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('z'.repeat(100));
  });
});

describe('terminalLine', () => {
  it('shows warnings, errors and non-JSON text, keeps info and request lines for the file', () => {
    expect(terminalLine(JSON.stringify({ level: 30, msg: 'GraphQL http://127.0.0.1:4000/graphql' }))).toBeNull();
    expect(terminalLine(JSON.stringify({ level: 20, req: { method: 'POST', url: '/graphql' }, res: { statusCode: 200 } }))).toBeNull();
    expect(terminalLine(JSON.stringify({ level: 40, time: 0, context: 'Redis', msg: 'down' }))).toMatch(/ WARN  \[Redis\] down\n$/);
    expect(terminalLine('scopegraph: NEO4J_PASSWORD: is required')).toBe('scopegraph: NEO4J_PASSWORD: is required\n');
  });
});
