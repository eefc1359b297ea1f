import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RateLimitedFetch } from '@scopegraph/api-client';
import { createScopegraphMcpServer, httpGraphqlCall } from '@scopegraph/mcp';
import { clientConfig } from '../client';

/**
 * `scopegraph mcp`: an MCP server on stdin/stdout for coding agents. Like every CLI command it is a
 * client of the API (SCOPEGRAPH_URL, API_KEY), so it needs no database credentials. stdout carries
 * the protocol only; nothing else may be printed there.
 */
export async function mcpCommand(): Promise<number> {
  const config = clientConfig();
  const rate = new RateLimitedFetch({ maxWaitMs: config.maxRateWaitMs, onWait: (e) => process.stderr.write(`scopegraph mcp: ${e.message}\n`) });
  const server = createScopegraphMcpServer(httpGraphqlCall(config.url, config.apiKey, rate));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  process.stderr.write(`scopegraph MCP server on stdio, API ${config.url}\n`);
  await new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.close();
  const { limited, paced, waitedMs } = rate.stats;
  if (limited || paced) process.stderr.write(`scopegraph mcp: waited ${(waitedMs / 1000).toFixed(1)} s at the API's rate limit (${limited} times rate limited, ${paced} paced)\n`);
  return 0;
}
