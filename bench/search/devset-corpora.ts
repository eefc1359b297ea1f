/**
 * The codebases of the second dev set (datasets/questions-dev.jsonl): published packages that were
 * never looked at while tuning, pinned by version and by the sha256 of the archive, fetched with the
 * registries' own clients (npm pack, pip download) and unpacked once into .cache/bench.
 *
 *   node dist/bench/search/devset-corpora.js            # fetch + verify + print "repo<TAB>root" lines
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

export interface Corpus {
  /** Repository name the dataset's queries search (`scopegraph index <root> --name <repo>`). */
  repo: string;
  registry: 'npm' | 'pypi';
  name: string;
  version: string;
  /** sha256 of the archive the registry serves (npm tarball, PyPI sdist). */
  sha256: string;
  /** What is indexed, relative to the unpacked archive's top folder ('' = all of it). */
  subdir: string;
  /** The build output the package ships beside `subdir` (the published-package check indexes it too). */
  buildDir?: string;
  languages: string;
}

export const DEVSET_FILE = 'bench/search/datasets/questions-dev.jsonl';

export const DEVSET_CORPORA: readonly Corpus[] = [
  // Ships its TypeScript sources (src/) beside the build/ bundles; only src/ is indexed.
  { repo: 'query-core', registry: 'npm', name: '@tanstack/query-core', version: '5.108.4', sha256: '7660b37f747ce33f1e5456299009dbe217a08514f402c13e633ae95727e361e0', subdir: 'src', buildDir: 'build', languages: 'TypeScript' },
  { repo: 'marshmallow', registry: 'pypi', name: 'marshmallow', version: '4.4.0', sha256: '9e6ffa8511012ca89732324c1c253efd7b4d35632dcbdf80aa793fe01804af3e', subdir: 'src', languages: 'Python' },
  // The sdist carries the C# runtime (src/runtime) beside the Python loader and tests: a mixed codebase.
  { repo: 'pythonnet', registry: 'pypi', name: 'pythonnet', version: '3.0.5', sha256: '48e43ca463941b3608b32b4e236db92d8d40db4c58a75ace902985f76dac21cf', subdir: '', languages: 'C# + Python' },
];

/**
 * Relationship questions in plain words over more Python packages (datasets/py-structural-dev.jsonl,
 * structural only: `check-devset.js --corpora py`); marshmallow's are in the second dev set.
 */
export const PY_STRUCTURAL_FILE = 'bench/search/datasets/py-structural-dev.jsonl';
export const PY_STRUCTURAL_CORPORA: readonly Corpus[] = [
  { repo: 'requests', registry: 'pypi', name: 'requests', version: '2.32.3', sha256: '55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760', subdir: 'src', languages: 'Python' },
  { repo: 'jinja2', registry: 'pypi', name: 'jinja2', version: '3.1.4', sha256: '4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369', subdir: 'src', languages: 'Python' },
];

/** The codebase the published-package checks index as published (sources and build output). */
export function packageCorpus(): Corpus & { buildDir: string } {
  const corpus = DEVSET_CORPORA.find((c) => c.buildDir);
  if (!corpus?.buildDir) throw new Error('no dev-set codebase declares a buildDir (bench/search/devset-corpora.ts)');
  return { ...corpus, buildDir: corpus.buildDir };
}

/** The folder to index for a corpus: downloaded, checked and unpacked on first use. */
export function corpusRoot(corpus: Corpus): string {
  const dir = path.join(projectRoot(), '.cache', 'bench', `${corpus.registry}-${corpus.name.replace(/^@/, '').replace('/', '-')}-${corpus.version}`);
  const top = corpus.registry === 'npm' ? 'package' : `${corpus.name}-${corpus.version}`;
  const root = path.join(dir, top, corpus.subdir);
  if (fs.existsSync(path.join(dir, '.complete'))) return root;

  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = download(corpus, dir);
  const actual = createHash('sha256').update(fs.readFileSync(archive)).digest('hex');
  if (actual !== corpus.sha256) {
    throw new Error(`${corpus.name}@${corpus.version}: the archive's sha256 is ${actual}, expected ${corpus.sha256} (pinned in bench/search/devset-corpora.ts)`);
  }
  execFileSync('tar', ['xzf', archive, '-C', dir]);
  if (!fs.existsSync(root)) throw new Error(`${corpus.name}@${corpus.version}: ${path.relative(dir, root)} is not in the archive`);
  fs.writeFileSync(path.join(dir, '.complete'), '');
  return root;
}

function download(corpus: Corpus, dir: string): string {
  if (corpus.registry === 'npm') {
    const out = execFileSync('npm', ['pack', `${corpus.name}@${corpus.version}`, '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
    return path.join(dir, out.trim().split('\n').pop()!);
  }
  // The sdist, not a wheel: wheels carry neither the C# sources nor (for marshmallow) the src/ layout.
  execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--no-binary', ':all:', '-d', dir, `${corpus.name}==${corpus.version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const sdist = fs.readdirSync(dir).find((f) => f.endsWith('.tar.gz'));
  if (!sdist) throw new Error(`${corpus.name}==${corpus.version}: pip download left no .tar.gz in ${dir}`);
  return path.join(dir, sdist);
}

if (require.main === module) {
  // --py: the Python relationship questions' codebases instead
  for (const corpus of process.argv.includes('--py') ? PY_STRUCTURAL_CORPORA : DEVSET_CORPORA) process.stdout.write(`${corpus.repo}\t${corpusRoot(corpus)}\n`);
}
