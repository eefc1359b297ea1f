import { All, Controller, HttpCode, HttpStatus, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { ApolloDriver } from '@nestjs/apollo';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { createScopegraphMcpServer, dataOrThrow, GraphqlCall } from '@scopegraph/mcp';

export const MCP_PATH = 'mcp';

/** Express's request and response, as far as this controller uses them (express ships no types here). */
type Request = IncomingMessage & { body?: unknown };
type Response = ServerResponse;

/**
 * MCP over Streamable HTTP, stateless: each POST gets its own server and transport, so any API
 * replica can answer any request. The API key is checked by the global guard before this runs; the
 * tools then execute operations on this process's own GraphQL server with the caller's request as
 * context, so validation, auth and error mapping are exactly those of /graphql.
 */
@Controller(MCP_PATH)
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const server = createScopegraphMcpServer(this.graphqlCall(req));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // A browser page on another site must not drive a local, keyless API through DNS rebinding.
      enableDnsRebindingProtection: true,
      allowedHosts: [`${this.config.api.host}:${this.config.api.port}`, `localhost:${this.config.api.port}`, `127.0.0.1:${this.config.api.port}`],
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      this.logger.error(`MCP request failed: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) {
        res.writeHead(HttpStatus.INTERNAL_SERVER_ERROR, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
    }
  }

  /** Stateless mode has no server-initiated stream and no session to delete. */
  @All()
  @HttpCode(HttpStatus.METHOD_NOT_ALLOWED)
  other(): unknown {
    return { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST JSON-RPC messages to /mcp' }, id: null };
  }

  private graphqlCall(req: Request): GraphqlCall {
    return async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
      const apollo = this.moduleRef.get(GraphQLModule, { strict: false }).graphQlAdapter as ApolloDriver;
      const response = await apollo.instance.executeOperation({ query, variables }, { contextValue: { req } });
      if (response.body.kind !== 'single') throw new Error('MCP tools expect single GraphQL results');
      return dataOrThrow<T>(response.body.singleResult as { data?: unknown; errors?: [] }, '/graphql');
    };
  }
}
