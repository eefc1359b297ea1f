/**
 * The codebases of the per-language dev set (datasets/lang-dev.jsonl): one published package per
 * language, pinned by version and by the sha256 of the archive the registry serves, fetched with
 * each ecosystem's own client (go, mvn, cargo, pip, apt-get) and unpacked once into .cache/bench.
 * None of them is a held-out codebase.
 *
 *   node dist/bench/search/lang-corpora.js     # fetch + verify + print "repo<TAB>root<TAB>exclude,globs" lines
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

export type LangRegistry = 'go' | 'maven' | 'cargo' | 'pypi' | 'debian';

export interface LangCorpus {
  /** Repository name the dataset's queries search (`scopegraph index <root> --name <repo>`). */
  repo: string;
  language: string;
  registry: LangRegistry;
  /** Go module path, Maven `group:artifact`, crate, PyPI project or Debian package. */
  name: string;
  version: string;
  /** sha256 of the archive (module zip, sources jar, .crate, sdist, .deb). */
  sha256: string;
  /** What is indexed, relative to the unpacked archive ('' = all of it). */
  subdir: string;
  /** Globs (relative to `subdir`) left out of the index: tests, fuzzers, build files. */
  exclude?: string[];
}

export const LANG_DEVSET_FILE = 'bench/search/datasets/lang-dev.jsonl';

export const LANG_CORPORA: readonly LangCorpus[] = [
  { repo: 'go-mux', language: 'Go', registry: 'go', name: 'github.com/gorilla/mux', version: 'v1.8.1', sha256: '728243623caa67f64e4a0b6c59dde3f762918d9e729266167ba46d8df56c193a', subdir: 'github.com/gorilla/mux@v1.8.1' },
  { repo: 'java-commons-cli', language: 'Java', registry: 'maven', name: 'commons-cli:commons-cli', version: '1.6.0', sha256: '74bd521ea87a2981f9869e3c576a74e9da9a403845fc587354cc62f48f1533a1', subdir: '' },
  { repo: 'rust-indexmap', language: 'Rust', registry: 'cargo', name: 'indexmap', version: '2.14.2', sha256: 'cc4e190f5d26ca7051642629da2c52fc03bde85a03197c99408dcd291734c855', subdir: 'indexmap-2.14.2' },
  // lz4's C library and command-line program (the crate vendors them); its tests, fuzzers and examples are left out.
  { repo: 'c-lz4', language: 'C', registry: 'cargo', name: 'lz4-sys', version: '1.11.1+lz4-1.10.0', sha256: '6bd8c0d6c6ed0cd30b3652886bb8711dc4bb01d637a68105a3d5158039b418e6', subdir: 'lz4-sys-1.11.1+lz4-1.10.0/liblz4', exclude: ['tests/**', 'ossfuzz/**', 'examples/**', 'contrib/**', 'build/**', 'doc/**'] },
  // The sdist's C++ library only (the Cython-generated .cpp beside it is not hand-written code).
  { repo: 'cpp-marisa', language: 'C++', registry: 'pypi', name: 'marisa-trie', version: '1.4.1', sha256: '44ce3bdbeb7c950d463e460184fc3e18702df9ef0edb826bac672fd789fb1d20', subdir: 'marisa_trie-1.4.1/marisa-trie' },
  { repo: 'ruby-thor', language: 'Ruby', registry: 'debian', name: 'ruby-thor', version: '1.2.1-2', sha256: '509715d16039ee7336531718e2497d0f81ae125b9ee53f321dd909c2f03fd2e1', subdir: 'usr/share/rubygems-integration/all/gems/thor-1.2.1/lib' },
  { repo: 'php-monolog', language: 'PHP', registry: 'debian', name: 'php-monolog', version: '2.9.1-1', sha256: 'f8a26688b521e33cf6ef73b75ae5eac0cb026d986a336161456dd37dbb710681', subdir: 'usr/share/php/Monolog' },
];

/** The folder to index for a corpus: downloaded, checked and unpacked on first use. */
export function langCorpusRoot(corpus: LangCorpus): string {
  const dir = path.join(projectRoot(), '.cache', 'bench', `${corpus.registry}-${corpus.name.replace(/[/:@]/g, '-')}-${corpus.version}`);
  const tree = path.join(dir, 'x');
  const root = path.join(tree, corpus.subdir);
  if (fs.existsSync(path.join(dir, '.complete'))) return root;

  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(tree, { recursive: true });
  const archive = download(corpus, dir);
  const actual = createHash('sha256').update(fs.readFileSync(archive)).digest('hex');
  if (actual !== corpus.sha256) {
    throw new Error(`${corpus.name}@${corpus.version}: the archive's sha256 is ${actual}, expected ${corpus.sha256} (pinned in bench/search/lang-corpora.ts)`);
  }
  unpack(corpus.registry, archive, tree);
  if (!fs.existsSync(root)) throw new Error(`${corpus.name}@${corpus.version}: ${corpus.subdir} is not in the archive`);
  fs.writeFileSync(path.join(dir, '.complete'), '');
  return root;
}

const run = (cmd: string, args: string[], cwd?: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/** Fetches the archive through the ecosystem's client and returns its path (in the client's cache or in `dir`). */
function download(corpus: LangCorpus, dir: string): string {
  switch (corpus.registry) {
    case 'go': {
      // Prints the module's cached zip; go also checks it against the checksum database.
      const info = JSON.parse(run('go', ['mod', 'download', '-json', `${corpus.name}@${corpus.version}`])) as { Zip?: string; Error?: string };
      if (!info.Zip) throw new Error(`go mod download ${corpus.name}@${corpus.version}: ${info.Error ?? 'no zip'}`);
      return info.Zip;
    }
    case 'maven': {
      const [group, artifact] = corpus.name.split(':');
      run('mvn', ['-q', '-B', 'dependency:get', `-Dartifact=${group}:${artifact}:${corpus.version}:jar:sources`, '-Dtransitive=false']);
      return path.join(os.homedir(), '.m2', 'repository', ...group.split('.'), artifact, corpus.version, `${artifact}-${corpus.version}-sources.jar`);
    }
    case 'cargo': {
      // A throwaway crate depending on exactly this version: `cargo fetch` puts the .crate in cargo's cache.
      const project = path.join(dir, 'fetch');
      fs.mkdirSync(path.join(project, 'src'), { recursive: true });
      fs.writeFileSync(path.join(project, 'src', 'lib.rs'), '');
      fs.writeFileSync(path.join(project, 'Cargo.toml'), `[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n${JSON.stringify(corpus.name)} = ${JSON.stringify(`=${corpus.version}`)}\n`);
      run('cargo', ['fetch', '--quiet'], project);
      const cache = path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'registry', 'cache');
      const file = `${corpus.name}-${corpus.version}.crate`;
      const found = fs.readdirSync(cache).map((index) => path.join(cache, index, file)).find((f) => fs.existsSync(f));
      if (!found) throw new Error(`cargo fetch left no ${file} under ${cache}`);
      return found;
    }
    case 'pypi': {
      run('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--no-binary', ':all:', '-d', dir, `${corpus.name}==${corpus.version}`]);
      const sdist = fs.readdirSync(dir).find((f) => f.endsWith('.tar.gz'));
      if (!sdist) throw new Error(`${corpus.name}==${corpus.version}: pip download left no .tar.gz in ${dir}`);
      return path.join(dir, sdist);
    }
    case 'debian': {
      run('apt-get', ['download', '-q', `${corpus.name}=${corpus.version}`], dir);
      const deb = fs.readdirSync(dir).find((f) => f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download ${corpus.name}=${corpus.version} left no .deb in ${dir}`);
      return path.join(dir, deb);
    }
  }
}

function unpack(registry: LangRegistry, archive: string, tree: string): void {
  if (registry === 'go' || registry === 'maven') run('unzip', ['-q', archive, '-d', tree]);
  else if (registry === 'debian') run('dpkg', ['-x', archive, tree]);
  else run('tar', ['xzf', archive, '-C', tree]);
}

if (require.main === module) {
  for (const corpus of LANG_CORPORA) process.stdout.write(`${corpus.repo}\t${langCorpusRoot(corpus)}\t${(corpus.exclude ?? []).join(',')}\n`);
}
