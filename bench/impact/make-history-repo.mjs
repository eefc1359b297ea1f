// Generates a git repository with a long history (default 10,000 commits) through git fast-import,
// for measuring history reads: node bench/impact/make-history-repo.mjs <dir> [commits] [files]
// 200 TypeScript files of 10 functions each; files come in clusters of 4 that tend to change together
// (a commit edits 1-3 functions in one cluster, now and then one elsewhere), so co-change has signal.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';

const [dir, commitsArg = '10000', filesArg = '200'] = process.argv.slice(2);
if (!dir) throw new Error('usage: make-history-repo.mjs <dir> [commits] [files]');
const COMMITS = Number(commitsArg);
const FILES = Number(filesArg);
const FUNCS = 10;
const AUTHORS = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'];
let seed = 42;
// The LCG's low bits cycle with a short period: draw from the high ones.
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), (seed >>> 12) % n);

fs.mkdirSync(dir, { recursive: true });
execFileSync('git', ['init', '-q', '-b', 'main', dir]);
const values = Array.from({ length: FILES }, () => new Array(FUNCS).fill(0));
const render = (f) =>
  values[f]
    .map((v, j) => `export function f${f}_${j}(x: number): number {\n  const base = ${v};\n  return ${j + 1 < FUNCS ? `f${f}_${j + 1}(x) + base` : 'x + base'};\n}\n`)
    .join('\n');

const git = spawn('git', ['-C', dir, 'fast-import', '--quiet'], { stdio: ['pipe', 'inherit', 'inherit'] });
const out = [];
let time = Date.UTC(2015, 0, 1) / 1000;
for (let c = 0; c < COMMITS; c++) {
  const touched = new Set();
  if (c === 0) for (let f = 0; f < FILES; f++) touched.add(f);
  else {
    const cluster = rand(FILES / 4);
    for (let k = 0, n = 1 + rand(3); k < n; k++) {
      const f = cluster * 4 + rand(4);
      values[f][rand(FUNCS)]++;
      touched.add(f);
    }
    if (rand(5) === 0) {
      const f = rand(FILES);
      values[f][rand(FUNCS)]++;
      touched.add(f);
    }
  }
  time += 3600 * (1 + rand(48));
  const author = AUTHORS[rand(AUTHORS.length)];
  const msg = `change ${c}`;
  out.push(`commit refs/heads/main\nauthor ${author} <${author.toLowerCase()}@example.org> ${time} +0000\ncommitter ${author} <${author.toLowerCase()}@example.org> ${time} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`);
  for (const f of touched) {
    const text = render(f);
    out.push(`M 100644 inline src/f${f}.ts\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  }
  out.push('\n');
  if (out.length > 2000) git.stdin.write(out.splice(0).join(''));
}
git.stdin.end(out.join(''));
await new Promise((resolve, reject) => git.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`)))));
execFileSync('git', ['-C', dir, 'checkout', '-q', '-f', 'main']);
process.stdout.write(`${dir}: ${execFileSync('git', ['-C', dir, 'rev-list', '--count', 'HEAD']).toString().trim()} commits\n`);
