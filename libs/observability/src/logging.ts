import type { IncomingMessage, ServerResponse } from 'node:http';
import { format } from 'node:util';
import { Logger } from '@nestjs/common';
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

/** `auto`: human-readable lines when stdout is a terminal, JSON lines otherwise (files, pipes, collectors). */
export type LogFormat = 'auto' | 'json' | 'pretty';

export function usePrettyLogs(format: LogFormat, stream: { isTTY?: boolean } = process.stdout): boolean {
  return format === 'pretty' || (format === 'auto' && Boolean(stream.isTTY));
}

/**
 * The request line of a finished request: at debug, since at info one line per request (a 429 flood
 * included) is most of the log; a server fault is a warning (formatError logs its cause at error).
 */
export function requestLogLevel(_req: IncomingMessage, res: ServerResponse, error?: Error): 'debug' | 'warn' {
  return error || res.statusCode >= 500 ? 'warn' : 'debug';
}

/** JSON logs for both apps (or readable ones on a terminal): pino-http (API only) plus every Nest Logger line, with the request id. */
export function loggerParams(logLevel: string, http: boolean, format: LogFormat = 'auto'): Params {
  const options = {
    level: PINO_LEVEL[logLevel] ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    // The request id middleware has set req.id already; reuse it rather than number requests.
    genReqId: (req: IncomingMessage) => (req as { id?: string }).id ?? 'unknown',
    autoLogging: http ? { ignore: (req: IncomingMessage) => req.url === '/metrics' } : false,
    customLogLevel: requestLogLevel,
    // Method, path and status say what a request line is for; its headers (1 KB each) do not.
    serializers: {
      req: (req: { id?: string; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    quietReqLogger: true,
  };
  return { pinoHttp: usePrettyLogs(format) ? [options, prettyDestination()] : options };
}

const LEVEL_NAME: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOR: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '31' };
const ERROR_LEVEL = 50;

interface LogRecord {
  level?: number;
  time?: number;
  context?: string;
  msg?: string;
  err?: { stack?: string; message?: string };
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/**
 * One JSON log line as a terminal line: `12:03:04 WARN  [Context] message`. pino-pretty does this
 * and more but is not a dependency; a terminal needs only these four fields (and an error's stack).
 */
export function formatLogLine(line: string, color = false): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = record.level ?? 30;
  const name = (LEVEL_NAME[level] ?? String(level)).padEnd(5);
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8);
  let message = record.msg ?? '';
  if (record.req && record.res) message = `${record.req.method} ${record.req.url} ${record.res.statusCode}${record.responseTime !== undefined ? ` ${record.responseTime} ms` : ''}`;
  if (record.err?.stack && level >= ERROR_LEVEL) message += `\n    ${record.err.stack.split('\n').join('\n    ')}`;
  const context = record.context ? `[${record.context}] ` : '';
  const levelText = color ? `\u001b[${LEVEL_COLOR[level] ?? '0'}m${name}\u001b[0m` : name;
  return `${time} ${levelText} ${context}${message}\n`;
}

/** A pino destination writing formatLogLine's lines (colored unless NO_COLOR is set). */
export function prettyDestination(out: NodeJS.WriteStream = process.stdout): { write: (line: string) => void } {
  const color = Boolean(out.isTTY) && !process.env.NO_COLOR;
  return { write: (line: string) => void out.write(formatLogLine(line, color)) };
}

/**
 * Node prints process warnings (and yaml's, deprecations, MaxListeners...) to stderr as plain text
 * with a stack, in the middle of JSON logs. They go through the app's logger instead, one line each.
 */
export function logProcessWarnings(): void {
  const logger = new Logger('Process');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn(`${warning.name}: ${warning.message.split('\n')[0]}`));
}

/** The same console message again within this long is dropped (a library retrying every second). */
const CONSOLE_REPEAT_MS = 60_000;

/**
 * Libraries that print instead of emitting (BullMQ prints a queue's unhandled 'error' event with
 * console.error, ioredis its "Unhandled error event") write multi-line stacks between JSON lines.
 * Their console.error / console.warn become one warning line each through the app's logger.
 */
export function logConsoleThroughLogger(now: () => number = Date.now): void {
  const logger = new Logger('Console');
  const last = new Map<string, number>();
  const route = (...args: unknown[]) => {
    const first = args.find((a) => a instanceof Error) as Error | undefined;
    const text = (first ? `${first.name}: ${first.message}` : format(...args)).split('\n')[0].slice(0, 500);
    const seen = last.get(text);
    if (seen !== undefined && now() - seen < CONSOLE_REPEAT_MS) return;
    if (last.size > 100) last.clear();
    last.set(text, now());
    logger.warn(text);
  };
  console.error = route;
  console.warn = route;
}
