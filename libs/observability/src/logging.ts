import type { Params } from 'nestjs-pino';
import { currentRequestId } from './request-context';

/** Nest's level names mapped to pino's. */
const PINO_LEVEL: Record<string, string> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Header and field paths that carry secrets; pino replaces their values before a line is written.
 * Config secrets are never logged in the first place (libs/config), this covers requests.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.password',
  '*.token',
];

/** JSON logs for both apps: pino-http (API only) plus every Nest Logger line, with the request id. */
export function loggerParams(logLevel: string, http: boolean): Params {
  return {
    pinoHttp: {
      level: PINO_LEVEL[logLevel] ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      // The request id middleware has set req.id already; reuse it rather than number requests.
      genReqId: (req) => (req as { id?: string }).id ?? 'unknown',
      autoLogging: http ? { ignore: (req) => req.url === '/metrics' } : false,
      quietReqLogger: true,
    },
  };
}
