import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatLogLine, loggerParams, requestLogLevel, usePrettyLogs } from './logging';

describe('log format', () => {
  it('is readable on a terminal and JSON elsewhere, unless forced', () => {
    expect(usePrettyLogs('auto', { isTTY: true })).toBe(true);
    expect(usePrettyLogs('auto', { isTTY: false })).toBe(false);
    expect(usePrettyLogs('auto', {})).toBe(false);
    expect(usePrettyLogs('json', { isTTY: true })).toBe(false);
    expect(usePrettyLogs('pretty', {})).toBe(true);
  });

  it('turns a JSON line into time, level, context and message; a stack only for errors', () => {
    const time = new Date(2026, 10, 27, 12, 3, 4).getTime();
    expect(formatLogLine(JSON.stringify({ level: 40, time, context: 'Redis', msg: 'commands: connect ECONNREFUSED' }))).toBe('12:03:04 WARN  [Redis] commands: connect ECONNREFUSED\n');
    expect(formatLogLine(JSON.stringify({ level: 20, time, req: { method: 'POST', url: '/graphql' }, res: { statusCode: 200 }, responseTime: 7 }))).toBe('12:03:04 DEBUG POST /graphql 200 7 ms\n');
    const error = formatLogLine(JSON.stringify({ level: 50, time, msg: 'boom', err: { stack: 'Error: boom\n    at x (a.js:1:1)' } }));
    expect(error.split('\n')).toEqual(['12:03:04 ERROR boom', '    Error: boom', '        at x (a.js:1:1)', '']);
    expect(formatLogLine(JSON.stringify({ level: 30, time, msg: 'x' }), true)).toContain('\u001b[32mINFO \u001b[0m');
    expect(formatLogLine('not json')).toBe('not json\n');
  });

  it('logs request lines at debug (a 5xx at warn) without their headers', () => {
    const res = (statusCode: number) => ({ statusCode }) as ServerResponse;
    expect(requestLogLevel({} as IncomingMessage, res(200))).toBe('debug');
    expect(requestLogLevel({} as IncomingMessage, res(429))).toBe('debug');
    expect(requestLogLevel({} as IncomingMessage, res(503))).toBe('warn');
    const options = loggerParams('log', true, 'json').pinoHttp as { serializers: { req: (r: unknown) => unknown } };
    expect(options.serializers.req({ id: 'r1', method: 'POST', url: '/graphql', headers: { 'x-api-key': 'k' } })).toEqual({ id: 'r1', method: 'POST', url: '/graphql' });
  });
});
