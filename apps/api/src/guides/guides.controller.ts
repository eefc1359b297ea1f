import * as fs from 'node:fs';
import * as path from 'node:path';
import { Controller, Get, Header, HttpCode, Options, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { projectRoot } from '@scopegraph/config';

/**
 * The Neo4j Browser guide (docs/neo4j-browser-guide.html), served so that `:guide
 * http://localhost:<api port>/guides/neo4j-browser.html` opens it in Browser. Browser fetches guides
 * cross-origin from its own page, so the response allows the requesting origin; the access gate has
 * already held that origin to the loopback/allow-list rules. The file holds no data, only queries.
 */
@Controller('guides')
export class GuidesController {
  private page?: string;

  @Get('neo4j-browser.html')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-cache')
  browserGuide(@Req() req: IncomingMessage, @Res({ passthrough: true }) res: ServerResponse): string {
    allowOrigin(req, res);
    this.page ??= fs.readFileSync(path.join(projectRoot(), 'docs/neo4j-browser-guide.html'), 'utf8');
    return this.page;
  }

  /** Browser's fetch sends its own headers, so the GET is preceded by a CORS preflight. */
  @Options('neo4j-browser.html')
  @HttpCode(204)
  preflight(@Req() req: IncomingMessage, @Res({ passthrough: true }) res: ServerResponse): void {
    allowOrigin(req, res);
    res.setHeader('access-control-allow-methods', 'GET');
    const requested = req.headers['access-control-request-headers'];
    if (typeof requested === 'string') res.setHeader('access-control-allow-headers', requested.slice(0, 500));
    res.setHeader('access-control-max-age', '600');
  }
}

/** The gate has already refused origins that are not loopback or allow-listed; this one may read. */
function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
}
