// The cost of reading git history into the graph: a full read, then an incremental one after new
// commits. node dist/bench/impact/history.js <repo-dir> <name> [newCommits]
// The repository is indexed first (no embeddings); its working tree gets `newCommits` small commits
// (git CLI) before the incremental run, which re-indexes and reads history again; 0 stops after the full read.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryRepository, HistoryService } from '@scopegraph/history';
import { IngestHarness } from '../../test/support/ingest-harness';

async function main(): Promise<void> {
  const [dir, name, newArg = '20'] = process.argv.slice(2);
  const h = await new IngestHarness().init();
  const history = new HistoryService(new HistoryRepository(h.neo4j), h.config);
  try {
    let t = performance.now();
    const ingest = await h.ingest.index({ path: dir, name, embed: false });
    process.stdout.write(`index: ${ingest.files.indexed} files, ${ingest.scopes.total} scopes in ${Math.round(performance.now() - t)} ms\n`);
    await h.neo4j.runStatement('MATCH (c:Commit {repoId: $r}) DETACH DELETE c', { r: name });
    await h.neo4j.runStatement('MATCH (r:Repository {id: $r}) SET r.historyHead = null', { r: name });
    t = performance.now();
    const full = await history.index(name, dir);
    process.stdout.write(`history (full): ${JSON.stringify({ ...full, ms: Math.round(performance.now() - t) })}\n`);
    if (Number(newArg) === 0) return;
    const files = execFileSync('git', ['-C', dir, 'ls-files', '*.ts', '*.py', '*.js']).toString().trim().split('\n').slice(0, 50);
    for (let i = 0; i < Number(newArg); i++) {
      const f = path.join(dir, files[i % files.length]);
      fs.appendFileSync(f, `\n// touched ${i}\n`);
      execFileSync('git', ['-C', dir, 'commit', '-qam', `bench ${i}`], { env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x' } });
    }
    t = performance.now();
    await h.ingest.index({ path: dir, name, embed: false });
    const reindexMs = Math.round(performance.now() - t);
    t = performance.now();
    const inc = await history.index(name, dir);
    process.stdout.write(`re-index: ${reindexMs} ms; history (incremental): ${JSON.stringify({ ...inc, ms: Math.round(performance.now() - t) })}\n`);
  } finally {
    await h.dispose([]);
  }
}

void main();
