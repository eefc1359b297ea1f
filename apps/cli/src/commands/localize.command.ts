import * as fs from 'node:fs';
import { ApiClient, CliError } from '../client';

const LOCALIZE_QUERY = `query($input: SearchInput!) {
  search(input: $input) {
    warnings timings { total localize }
    results {
      rank score
      scope { id qualifiedName kind language path startLine endLine }
      evidence { signal detail edge from contribution }
    }
    files { path rank score functions }
    explain
  }
}`;

interface LocalizeAnswer {
  search: {
    warnings: string[];
    timings: { total: number; localize: number };
    results: {
      rank: number;
      score: number;
      scope: { id: string; qualifiedName: string; kind: string; language: string; path: string; startLine: number; endLine: number };
      evidence: { signal: string; detail: string; edge: string | null; from: string | null; contribution: number }[] | null;
    }[];
    files: { path: string; rank: number; score: number; functions: string[] }[] | null;
    explain: { localize?: { truncated: string[]; signals: { frames: number; framesInRepository: number; identifiers: string[] } } };
  };
}

export interface LocalizeOptions {
  repo: string;
  file?: string;
  topK?: number;
  json?: boolean;
}

/** The issue text: --file, else standard input (`scopegraph localize --repo R < issue.md`). */
function readIssue(opts: LocalizeOptions, stdin: () => string): string {
  let text: string;
  if (opts.file) {
    try {
      text = fs.readFileSync(opts.file, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read ${opts.file}: ${(error as Error).message}`);
    }
  } else {
    if (process.stdin.isTTY) throw new CliError('give the issue on standard input (scopegraph localize --repo R < issue.md) or with --file');
    text = stdin();
  }
  if (!text.trim()) throw new CliError('the issue is empty');
  return text;
}

/** `scopegraph localize --repo R [--file issue.md]`: the functions a fix most likely changes, with why, and their files. */
export async function localizeCommand(opts: LocalizeOptions, client = new ApiClient(), stdin = () => fs.readFileSync(0, 'utf8')): Promise<number> {
  const text = readIssue(opts, stdin);
  const input = { text, mode: 'LOCALIZE', topK: opts.topK ?? 10, repository: opts.repo, sourceChars: 0 };
  const { search } = await client.request<LocalizeAnswer>(LOCALIZE_QUERY, { input });
  if (opts.json) {
    process.stdout.write(JSON.stringify(search, null, 2) + '\n');
    return 0;
  }
  for (const w of search.warnings) process.stderr.write(`warning: ${w}\n`);
  if (search.results.length === 0) process.stdout.write('no functions found\n');
  for (const r of search.results) {
    process.stdout.write(`${String(r.rank).padStart(3)}. ${r.scope.qualifiedName} (${r.scope.kind})  ${r.scope.path}:${r.scope.startLine}-${r.scope.endLine}  ${r.score.toFixed(4)}\n`);
    for (const e of (r.evidence ?? []).slice(0, 3)) process.stdout.write(`       ${e.signal}: ${e.detail}${e.edge ? ` [${e.edge}]` : ''}\n`);
  }
  if (search.files?.length) {
    process.stdout.write('\nfiles:\n');
    for (const f of search.files.slice(0, 5)) process.stdout.write(`${String(f.rank).padStart(3)}. ${f.path}  ${f.score.toFixed(4)}  (${f.functions.slice(0, 3).join(', ')})\n`);
  }
  const s = search.explain.localize?.signals;
  if (s) process.stdout.write(`\n(${s.frames} frames, ${s.framesInRepository} in the repository, ${s.identifiers.length} names; ${search.timings.total.toFixed(1)} ms)\n`);
  return 0;
}
