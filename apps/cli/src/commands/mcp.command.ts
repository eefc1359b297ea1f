import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createScopegraphMcpServer, httpGraphqlCall } from '@scopegraph/mcp';
import { clientConfig } from '../client';

/**
 * `scopegraph mcp`: an MCP server on stdin/stdout for coding agents. Like every CLI command it is a
 * client of the API (SCOPEGRAPH_URL, API_KEY), so it needs no database credentials. stdout carries
 * the protocol only; nothing else may be printed there.
 */
export async function mcpCommand(): Promise<number> {
  const config = clientConfig();
  const server = createScopegraphMcpServer(httpGraphqlCall(config.url, config.apiKey));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  process.stderr.write(`scopegraph MCP server on stdio, API ${config.url}\n`);
  await new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.close();
  return 0;
}
