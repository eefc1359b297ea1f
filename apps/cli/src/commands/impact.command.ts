import * as fs from 'node:fs';
import { DEAD_CODE, HISTORY, IMPACT, impactTools, REVIEW } from '@scopegraph/mcp';
import { ApiClient, CliError } from '../client';

type Tool = 'impact' | 'review_change' | 'history' | 'dead_code';

/** The CLI prints what the MCP tools print (one rendering for people and agents), or the JSON. */
async function runTool(tool: Tool, args: Record<string, unknown>, json: boolean | undefined, client: ApiClient): Promise<number> {
  if (json) {
    const [query, variables] =
      tool === 'impact' ? [IMPACT, { input: args }] : tool === 'review_change' ? [REVIEW, { input: args }] : tool === 'dead_code' ? [DEAD_CODE, { input: args }] : [HISTORY, args];
    process.stdout.write(JSON.stringify(await client.request(query, variables), null, 2) + '\n');
    return 0;
  }
  const def = impactTools((q, v) => client.request(q, v)).find((t) => t.name === tool)!;
  process.stdout.write(`${await (def.handler as (a: unknown) => Promise<string>)(args)}\n`);
  return 0;
}

export function impactCommand(scopes: string[], o: { repo: string; depth?: number; maxNodes?: number; changesWith?: number; json?: boolean }, client = new ApiClient()): Promise<number> {
  // Ids hold a ':' after the repository; anything else is a qualified name.
  const scopeIds = scopes.filter((s) => s.includes(':'));
  const qualifiedNames = scopes.filter((s) => !s.includes(':'));
  return runTool('impact', { repository: o.repo, ...(scopeIds.length ? { scopeIds } : {}), ...(qualifiedNames.length ? { qualifiedNames } : {}), depth: o.depth, maxNodes: o.maxNodes, changesWith: o.changesWith }, o.json, client);
}

export function reviewCommand(o: { repo: string; diff?: string; base?: string; head?: string; depth?: number; written?: boolean; json?: boolean }, client = new ApiClient()): Promise<number> {
  let diff: string | undefined;
  if (o.diff) {
    try {
      diff = fs.readFileSync(o.diff === '-' ? 0 : o.diff, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read the diff ${o.diff}: ${(error as Error).message}`);
    }
  }
  if (!diff && !(o.base && o.head)) throw new CliError('give --diff <file|-> or both --base and --head');
  return runTool('review_change', { repository: o.repo, ...(diff ? { diff } : { base: o.base, head: o.head }), depth: o.depth, ...(o.written ? { writtenReview: true } : {}) }, o.json, client);
}

export function historyCommand(o: { repo: string; path?: string; scope?: string; limit?: number; json?: boolean }, client = new ApiClient()): Promise<number> {
  return runTool('history', { repository: o.repo, path: o.path, scopeId: o.scope, limit: o.limit }, o.json, client);
}

export function deadCodeCommand(o: { repo: string; minConfidence?: number; limit?: number; language?: string; path?: string; json?: boolean }, client = new ApiClient()): Promise<number> {
  return runTool('dead_code', { repository: o.repo, minConfidence: o.minConfidence, limit: o.limit, language: o.language, pathPrefix: o.path }, o.json, client);
}
