import { Command, InvalidArgumentError } from 'commander';
import { CliError } from './client';
import { askCommand, evalAskCommand } from './commands/ask.command';
import { healthCommand } from './commands/health.command';
import { deadCodeCommand, historyCommand, impactCommand, reviewCommand } from './commands/impact.command';
import { indexCommand, reposCommand } from './commands/index.command';
import { keysCreateCommand, keysListCommand, keysRevokeCommand } from './commands/keys.command';
import { probeCommand } from './commands/probe.command';
import { searchCommand } from './commands/search.command';
import { servicesCommand } from './commands/services.command';
import { welcomeCommand } from './commands/welcome.command';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

async function run(action: () => Promise<number> | number): Promise<void> {
  try {
    process.exitCode = await action();
  } catch (error) {
    process.stderr.write(`scopegraph: ${error instanceof CliError ? error.message : ((error as Error).stack ?? String(error))}\n`);
    process.exitCode = 1;
  }
}

const program = new Command('scopegraph').description('Graph-native RAG server for source code').showHelpAfterError();

program.command('health').description('Neo4j, Redis and queue status from the API').option('--json', 'print JSON').action((o) => run(() => healthCommand(o)));
program
  .command('probe')
  .description('Round trip a diagnostics job through the queue and the worker')
  .option('--steps <n>', 'steps to run', positiveInt, 3)
  .action((o) => run(() => probeCommand(o)));
program
  .command('services <action>')
  .description('Start, stop or show the local Neo4j and Redis (up | down | status)')
  .action((action: string) =>
    run(() => {
      if (!['up', 'down', 'status'].includes(action)) throw new CliError(`unknown action "${action}": use up, down or status`);
      return servicesCommand(action as 'up' | 'down' | 'status');
    }),
  );
program
  .command('index <path>')
  .description('Index (or re-index, incrementally) a repository, following its progress')
  .option('--name <name>', 'repository name (default: the folder name)')
  .option('--json', 'print the result as JSON')
  .option('--exclude-doc-comments', 'leave doc comments out of what is stored and embedded (evaluation runs)')
  .option('--scip <file>', 'a SCIP index (scip-typescript, scip-python, scip-go... output; a path the server can read, under INGEST_ALLOWED_ROOTS): its definitions replace name-based edges')
  .option('--include <glob...>', 'index although skipped by default (dist/, build/, vendor/, bundles), e.g. "dist/**"; kept with the repository')
  .option('--exclude <glob...>', 'skip besides the defaults, e.g. "src/legacy/"; kept with the repository')
  .action((dir: string, o) => run(() => indexCommand(dir, o)));
program
  .command('ask <question>')
  .description('Ask a question about an indexed repository; the answer streams to the terminal')
  .requiredOption('--repo <name>', 'repository to ask about')
  .option('--session <id>', 'conversation id: questions with the same id share history')
  .option('--pipeline <name>', 'answering pipeline (see pipelines/*.yaml)')
  .option('--not-english', 'the question is not in English: translate it in and the answer back')
  .option('--verbose', 'print every pipeline step to stderr')
  .option('--json', 'print the final event (answer, citations, plan, trace) as JSON')
  .action((question: string, o) => run(() => askCommand(question, o)));
program
  .command('eval-ask <file>')
  .description('Ask every question of a JSONL file ({"question", "expected": [scope ids, names or paths]}) and report citation recall')
  .requiredOption('--repo <name>', 'repository (a line may set its own "repository")')
  .option('--pipeline <name>', 'answering pipeline')
  .option('--json', 'print JSON')
  .action((file: string, o) => run(() => evalAskCommand(file, o)));
const keys = program.command('keys').description('API keys scoped to repositories (needs the admin key in API_KEY)');
keys
  .command('create')
  .description('Create a key; it is printed once on stdout')
  .requiredOption('--repos <list>', 'comma-separated repository names or globs, e.g. "a,b" or "team-*"')
  .option('--role <role>', 'read | write | admin', 'read')
  .option('--name <label>', 'who or what uses the key')
  .option('--json', 'print JSON')
  .action((o) => run(() => keysCreateCommand(o)));
keys.command('list').description('List keys (never their secrets)').option('--json', 'print JSON').action((o) => run(() => keysListCommand(o)));
keys.command('revoke <id>').description('Revoke a key: every API replica refuses it within a second').action((id: string) => run(() => keysRevokeCommand(id)));
program
  .command('impact <scopes...>')
  .description('What depends on scopes (ids or qualified names): callers, overriders, importers, tests by depth, coverage, co-changed scopes')
  .requiredOption('--repo <name>', 'repository')
  .option('--depth <n>', 'levels to walk (1-6, default 3)', positiveInt)
  .option('--max-nodes <n>', 'dependents at most (default 500)', positiveInt)
  .option('--changes-with <n>', 'also what usually changes with them: n suggestions (static edges, same file, co-change; default none)', positiveInt)
  .option('--json', 'print JSON')
  .action((scopes: string[], o) => run(() => impactCommand(scopes, o)));
program
  .command('review')
  .description('Review a change: a unified diff (--diff file, - for stdin) or two git refs (--base, --head)')
  .requiredOption('--repo <name>', 'repository')
  .option('--diff <file>', 'unified diff against the indexed tree (- reads stdin)')
  .option('--base <ref>', 'git ref to compare from')
  .option('--head <ref>', 'git ref to compare to')
  .option('--depth <n>', 'impact depth (default 2)', positiveInt)
  .option('--written', 'also a short review written by the chat model, citing scopes (needs a configured model)')
  .option('--json', 'print JSON')
  .action((o) => run(() => reviewCommand(o)));
program
  .command('history')
  .description('Git history in the graph: most changed files and scopes, authors, co-change, recent commits')
  .requiredOption('--repo <name>', 'repository')
  .option('--path <prefix>', 'only under this path')
  .option('--scope <id>', 'only this scope')
  .option('--limit <n>', 'entries per list (default 20)', positiveInt)
  .option('--json', 'print JSON')
  .action((o) => run(() => historyCommand(o)));
program
  .command('dead-code')
  .description('Dead-code candidates with confidence and the reasons they could still be live')
  .requiredOption('--repo <name>', 'repository')
  .option('--min-confidence <x>', '0-1 (default 0.7)', (v: string) => {
    const n = Number(v);
    if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('must be a number from 0 to 1');
    return n;
  })
  .option('--limit <n>', 'candidates at most (default 200)', positiveInt)
  .option('--language <language>', 'only this language')
  .option('--path <prefix>', 'only under this path')
  .option('--json', 'print JSON')
  .action((o) => run(() => deadCodeCommand(o)));
program
  .command('search <text>')
  .description('Search indexed code (semantic, bm25, hybrid or semantic_rerank)')
  .option('--mode <mode>', 'semantic | bm25 | hybrid | semantic_rerank | graph | localize', 'hybrid')
  .option('--repo <name>', 'only this repository')
  .option('--top-k <n>', 'how many results', positiveInt, 10)
  .option('--path <text>', 'only files whose path contains this')
  .option('--language <language>', 'only this language (typescript, python, csharp, sql, ...)')
  .option('--kind <kind>', 'only this kind (function, method, class, ...)')
  .option('--json', 'print JSON')
  .action((text: string, o) => run(() => searchCommand(text, o)));
program
  .command('localize')
  .description('Which functions must change to fix an issue: paste it on stdin (or --file); ranked functions with evidence, and their files')
  .requiredOption('--repo <name>', 'repository the issue is about')
  .option('--file <path>', 'read the issue from this file instead of standard input')
  .option('--top-k <n>', 'how many functions', positiveInt, 10)
  .option('--json', 'print JSON')
  .action((o) => run(async () => (await import('./commands/localize.command')).localizeCommand(o)));
program
  .command('eval')
  .description('Retrieval quality per search mode on a JSONL dataset (nDCG@k, MRR@k, Recall@k/@50, Precision@5, latency)')
  .requiredOption('--dataset <file>', 'JSON Lines: {"id", "repo", "query", "relevant": [{"path", "name", "kind"}], "expand"?}')
  .option('--modes <list>', 'comma-separated search modes', 'semantic,bm25,hybrid,semantic_rerank')
  .option('--k <n>', 'cut-off of nDCG, MRR and Recall', positiveInt, 10)
  .option('--no-expand', "judge graph questions by their hits alone (ignore the lines' expand)")
  .option('--rerank', "also measure each mode's hits reranked by the server's reranker (system <mode>+rerank; the LLM's figure needs a model key on the server)")
  .option('--rerank-candidates <n>', 'with --rerank: how many hits the reranker reorders', positiveInt, 30)
  .option('--json', 'print the report (with per-query ranks) as JSON')
  // Loaded on use: the evaluation pulls in the search types, which the other commands do not need.
  .action((o) => run(async () => (await import('./commands/eval.command')).evalCommand(o)));
program.command('repos').description('Indexed repositories and their counts').option('--json', 'print JSON').action((o) => run(() => reposCommand(o)));
program
  .command('mcp')
  .description('MCP server on stdio for coding agents (tools: search, get_scope, neighborhood, list_repositories, index_repository)')
  // Loaded on use: the MCP SDK is needed by this command alone.
  .action(() => run(async () => (await import('./commands/mcp.command')).mcpCommand()));
program.command('welcome', { hidden: true }).action(() => run(() => welcomeCommand()));

program.parseAsync(process.argv);
