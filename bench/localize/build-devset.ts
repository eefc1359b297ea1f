/**
 * Builds the issue-localization dev set (SWE-bench style) from public instance data:
 *
 *   1. instances: SWE-bench Lite, test and dev splits (JSON array: problem_statement, patch, base_commit) and
 *      Multi-SWE-bench (JSON Lines: resolved_issues[].title/body, fix_patch, base.sha), read from the
 *      files given; only the instance ids of INSTANCES (held-out projects are refused outright);
 *   2. each instance's repository at its base commit, unpacked from a local git mirror
 *      (`git archive <base>`) into --corpora/<instance id>/ (once);
 *   3. the targets: for each source file the fix changes, the innermost function, method or
 *      constructor of the base file (parsed by ingestion's own parser, so names agree with the index)
 *      holding a removed line, or the line an addition follows; an instance whose fix touches no
 *      function is left out (said on stderr);
 *   4. one dataset line per instance (type `issue`, repo = the instance id, meta.project = the
 *      project) and a TSV of (repository name, snapshot dir) to index.
 *
 *   node dist/bench/localize/build-devset.js --lite lite.json --msb-dir dir/ --mirrors /work/.mirror \
 *     --corpora /work/corpora/localize --out <dataset.jsonl> --tsv <snapshots.tsv>
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParserService } from '@scopegraph/ingest';
import { parseDataset, SEARCH_LIMITS } from '../../libs/search/src';
import { arg } from '../support/bench-util';

/** Projects the held-out sets judge: never in the dev set. */
const HELD_OUT = ['sphinx', 'pytest', 'xarray', 'ajv', 'dayjs', 'immer', 'mobx', 'trpc', 'click', 'cobra', 'gson', 'serde_json', 'zlib', 'rack', 'symfony'];

/** The instances of the dev set: small and medium repositories (cheap to embed); Python, JS/TS, Rust, Java, Go. */
export const INSTANCES: { project: string; mirror: string; ids: string[] }[] = [
  { project: 'requests', mirror: 'psf+requests', ids: ['psf__requests-863', 'psf__requests-1963', 'psf__requests-2148', 'psf__requests-2317', 'psf__requests-2674', 'psf__requests-3362'] },
  { project: 'flask', mirror: 'pallets+flask', ids: ['pallets__flask-4045', 'pallets__flask-4992', 'pallets__flask-5063'] },
  { project: 'marshmallow', mirror: 'marshmallow-code+marshmallow', ids: ['marshmallow-code__marshmallow-1343', 'marshmallow-code__marshmallow-1359'] },
  { project: 'seaborn', mirror: 'mwaskom+seaborn', ids: ['mwaskom__seaborn-2848', 'mwaskom__seaborn-3010', 'mwaskom__seaborn-3190', 'mwaskom__seaborn-3407'] },
  { project: 'express', mirror: 'expressjs+express', ids: ['expressjs__express-3495', 'expressjs__express-3695', 'expressjs__express-3870', 'expressjs__express-5555'] },
  { project: 'axios', mirror: 'axios+axios', ids: ['axios__axios-5085', 'axios__axios-5338', 'axios__axios-5661', 'axios__axios-5919'] },
  {
    project: 'github-readme-stats',
    mirror: 'anuraghazra+github-readme-stats',
    ids: [58, 88, 99, 105, 117, 148, 293, 721, 1041, 1314, 1370, 1378, 1608, 2075, 2099, 2228, 2491, 2844, 3442].map((n) => `anuraghazra__github-readme-stats-${n}`),
  },
  // Widened (issue 26): SWE-bench Lite's dev split, and Multi-SWE-bench's TypeScript, Rust, Java and Go
  // projects small enough to embed here. Per project every instance of the file, or its newest 10
  // (5 for grpc-go, the largest), so that no project outweighs the rest.
  { project: 'pvlib', mirror: 'pvlib+pvlib-python', ids: [1707, 1072, 1606, 1854, 1154].map((n) => `pvlib__pvlib-python-${n}`) },
  { project: 'pydicom', mirror: 'pydicom+pydicom', ids: [1694, 1413, 901, 1139, 1256].map((n) => `pydicom__pydicom-${n}`) },
  { project: 'darkreader', mirror: 'darkreader+darkreader', ids: [7241, 6747].map((n) => `darkreader__darkreader-${n}`) },
  { project: 'fd', mirror: 'sharkdp+fd', ids: [1394, 1162, 1121, 1079, 986, 866, 813, 658, 590, 569].map((n) => `sharkdp__fd-${n}`) },
  { project: 'bytes', mirror: 'tokio-rs+bytes', ids: [732, 721, 643, 547, 543].map((n) => `tokio-rs__bytes-${n}`) },
  { project: 'jackson-core', mirror: 'FasterXML+jackson-core', ids: [1309, 1263, 1208, 1204, 1182, 1172, 1142, 1053, 1016, 964].map((n) => `fasterxml__jackson-core-${n}`) },
  { project: 'grpc-go', mirror: 'grpc+grpc-go', ids: [3476, 3361, 3351, 3258, 3201].map((n) => `grpc__grpc-go-${n}`) },
];

interface Instance {
  id: string;
  baseCommit: string;
  issue: string;
  patch: string;
}

const CALLABLE = new Set(['function', 'method', 'constructor']);
const SOURCE_FILE = /\.(?:py|js|mjs|cjs|jsx|ts|tsx|go|java|rs)$/;

function readInstances(lite: string, msbDir: string): Map<string, Instance> {
  const out = new Map<string, Instance>();
  for (const row of JSON.parse(fs.readFileSync(lite, 'utf8')) as { instance_id: string; base_commit: string; problem_statement: string; patch: string }[]) {
    out.set(row.instance_id, { id: row.instance_id, baseCommit: row.base_commit, issue: row.problem_statement, patch: row.patch });
  }
  for (const file of fs.readdirSync(msbDir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(msbDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { org: string; repo: string; number: number; base: { sha: string }; resolved_issues: { title?: string; body?: string }[]; fix_patch: string };
      const issue = (row.resolved_issues ?? []).map((i) => [i.title, i.body].filter(Boolean).join('\n')).join('\n\n');
      out.set(`${row.org}__${row.repo}-${row.number}`, { id: `${row.org}__${row.repo}-${row.number}`, baseCommit: row.base.sha, issue, patch: row.fix_patch });
    }
  }
  return out;
}

/** Per file of a unified diff: the base-file lines it removes, and the base lines additions follow. */
export function changedBaseLines(patch: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let file: string | null = null;
  let old = 0;
  let lastOld = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('--- ')) {
      file = line.startsWith('--- a/') ? line.slice(6) : null;
      continue;
    }
    if (line.startsWith('+++ ')) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (hunk) {
      old = Number(hunk[1]);
      lastOld = old - 1;
      continue;
    }
    if (!file) continue;
    const lines = out.get(file) ?? [];
    if (line.startsWith('-')) {
      lines.push(old);
      lastOld = old;
      old++;
    } else if (line.startsWith('+')) {
      // An addition belongs where it lands: after the last base line seen (the next one at a hunk's start).
      lines.push(Math.max(1, lastOld), lastOld + 1);
    } else if (line.startsWith(' ')) {
      lastOld = old;
      old++;
    }
    out.set(file, lines);
  }
  return out;
}

/**
 * `git archive <commit>` into dir. A snapshot mirror lacks its largest blobs (data files of 4 MiB and
 * more), which would fail the archive: those paths are left out.
 */
function unpack(gitDir: string, commit: string, dir: string): void {
  const git = (args: string[], input?: string): string => execFileSync('git', ['--git-dir', gitDir, ...args], { input, maxBuffer: 1 << 30 }).toString();
  const entries = git(['ls-tree', '-r', commit])
    .split('\n')
    .filter(Boolean)
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);
  const status = git(['cat-file', '--batch-check'], entries.map((m) => m[1]).join('\n') + '\n').split('\n');
  const missing = entries.filter((_, i) => status[i]?.endsWith(' missing')).map((m) => `:(exclude,literal)${m[2]}`);
  fs.mkdirSync(dir, { recursive: true });
  try {
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', commit, ...(missing.length ? ['--', '.', ...missing] : [])], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function main(): Promise<void> {
  const mirrors = arg('mirrors', '/work/.mirror');
  const corpora = arg('corpora', '/work/corpora/localize');
  const out = arg('out', 'bench/localize/datasets/issues-dev.jsonl');
  const tsv = arg('tsv', 'bench/localize/datasets/snapshots.tsv');
  const instances = readInstances(arg('lite', '/tmp/loc/lite-plus-dev.json'), arg('msb-dir', '/tmp/loc/msb'));
  const parser = new ParserService();
  await parser.init();

  const lines: string[] = [];
  const snapshots: string[] = [];
  for (const group of INSTANCES) {
    if (HELD_OUT.some((h) => group.project.toLowerCase().includes(h))) throw new Error(`${group.project} is held out`);
    for (const id of group.ids) {
      const inst = instances.get(id);
      if (!inst) {
        process.stderr.write(`${id}: not in the instance files, skipped\n`);
        continue;
      }
      const dir = path.join(corpora, id);
      if (!fs.existsSync(dir)) unpack(path.join(mirrors, group.mirror, 'repo'), inst.baseCommit, dir);
      const relevant: { path: string; name: string; kind: string }[] = [];
      const files: string[] = [];
      for (const [file, changed] of changedBaseLines(inst.patch)) {
        if (!SOURCE_FILE.test(file) || !fs.existsSync(path.join(dir, file))) continue;
        files.push(file);
        const scopes = parser.parseFile(file, fs.readFileSync(path.join(dir, file), 'utf8')).scopes.filter((s) => CALLABLE.has(s.kind) && s.startLine !== null && s.endLine !== null);
        for (const line of changed) {
          const inner = scopes.filter((s) => s.startLine! <= line && s.endLine! >= line).sort((a, b) => a.endLine! - a.startLine! - (b.endLine! - b.startLine!))[0];
          if (inner && !relevant.some((r) => r.path === file && r.name === inner.qualifiedName)) relevant.push({ path: file, name: inner.qualifiedName, kind: inner.kind });
        }
      }
      if (relevant.length === 0) {
        process.stderr.write(`${id}: the fix changes no function (${files.join(', ') || 'no source file'}), left out\n`);
        continue;
      }
      const query = inst.issue.slice(0, SEARCH_LIMITS.maxIssueLength);
      lines.push(JSON.stringify({ id, type: 'issue', repo: id, query, relevant, meta: { project: group.project, baseCommit: inst.baseCommit, files } }));
      snapshots.push(`${id}\t${dir}`);
    }
  }
  parser.dispose();
  const text = lines.join('\n') + '\n';
  parseDataset(text, path.basename(out));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  fs.writeFileSync(tsv, snapshots.join('\n') + '\n');
  process.stderr.write(`${lines.length} issues -> ${out}; snapshots -> ${tsv}\n`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
