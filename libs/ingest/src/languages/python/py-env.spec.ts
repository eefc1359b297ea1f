import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pythonEnvironment } from './py-env';

describe('pythonEnvironment (the dependencies a Python checker reads)', () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-pyenv-')))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** A virtual environment's layout under `dir` (pyvenv.cfg, lib/python3.X/site-packages); its site-packages. */
  const venv = (dir: string, version = '3.11') => {
    const sp = path.join(dir, 'lib', `python${version}`, 'site-packages');
    fs.mkdirSync(sp, { recursive: true });
    fs.writeFileSync(path.join(dir, 'pyvenv.cfg'), 'home = /usr/bin\n');
    return sp;
  };

  it("takes the repository's .venv, then venv, at its root", () => {
    const repo = path.join(tmp, 'repo');
    const sp = venv(path.join(repo, 'venv'), '3.12');
    expect(pythonEnvironment(repo)).toEqual({ sitePackages: [sp], from: 'venv (venv/lib/python3.12/site-packages)' });
    const dot = venv(path.join(repo, '.venv'));
    expect(pythonEnvironment(repo)).toEqual({ sitePackages: [dot], from: '.venv (.venv/lib/python3.11/site-packages)' });
  });

  it('has none without a virtual environment (a folder named .venv without pyvenv.cfg is not one)', () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(repo, '.venv', 'lib', 'python3.11', 'site-packages'), { recursive: true });
    expect(pythonEnvironment(repo)).toBeUndefined();
  });

  it("does not follow a .venv that links out of the repository (another project's or the host's environment)", () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo);
    venv(path.join(tmp, 'elsewhere'));
    fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(repo, '.venv'));
    expect(pythonEnvironment(repo)).toBeUndefined();
  });

  it('prefers INGEST_PY_ENV: a virtual environment (its site-packages) or a site-packages folder itself', () => {
    const repo = path.join(tmp, 'repo');
    venv(path.join(repo, '.venv'));
    const operator = path.join(tmp, 'operator');
    const sp = venv(operator);
    expect(pythonEnvironment(repo, operator)).toEqual({ sitePackages: [sp], from: `INGEST_PY_ENV ${operator}` });
    expect(pythonEnvironment(repo, sp)).toEqual({ sitePackages: [sp], from: `INGEST_PY_ENV ${sp}` });
  });

  it('says when INGEST_PY_ENV names no folder, rather than falling back silently', () => {
    const missing = path.join(tmp, 'nope');
    expect(pythonEnvironment(path.join(tmp, 'repo'), missing)).toEqual({ sitePackages: [], from: `INGEST_PY_ENV ${missing} is not a folder: no environment` });
  });
});
