import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';

/** Where scripts/build.mjs puts the web console (apps/web, built with Vite). */
export const CONSOLE_DIR = 'dist/web';

/**
 * cytoscape (the console's graph drawing) inserts this one rule as an inline <style>, since its
 * canvas needs a positioned container; the CSP lets exactly this text through by its hash.
 */
const CYTOSCAPE_INLINE_STYLE = '.__________cytoscape_container { position: relative; }';
const styleHash = `'sha256-${createHash('sha256').update(CYTOSCAPE_INLINE_STYLE).digest('base64')}'`;

/**
 * The console loads nothing from elsewhere and talks only to this API (HTTP and graphql-ws on the
 * same origin, which connect-src 'self' covers), so the policy allows this origin alone.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${styleHash}`,
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web console at `/`. Mounted after accessGate, so it follows the rule of every
 * other path: Origin/Host checks, and with a key set the browser asks for it (Basic auth password),
 * after which the console's calls carry it too. Vite names assets by content hash, so they are
 * cached for good; index.html is revalidated so a new build shows at once.
 */
export function serveConsole(app: NestExpressApplication, root: string): void {
  const dir = path.join(root, CONSOLE_DIR);
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    new Logger('Console').warn(`web console not built (${dir} has no index.html): npm run build`);
    return;
  }
  app.useStaticAssets(dir, {
    index: 'index.html',
    redirect: false,
    setHeaders: (res: ServerResponse, file: string) => {
      res.setHeader('content-security-policy', CONSOLE_CSP);
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
}
