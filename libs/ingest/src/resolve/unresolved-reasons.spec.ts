import { ParserService } from '../parse/parser.service';
import { resolveRepository } from './resolver';
import type { ResolveResult } from './types';
import { parameterNames } from './unresolved-reasons';

const parser = new ParserService();
beforeAll(() => parser.init());

const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.reason !== 'builtin').map((u) => `${u.targetName}: ${u.reason}${u.origin ? ` (${u.origin})` : ''}`).sort();

describe('why the name-based resolver left a reference unresolved', () => {
  it('calls through callback parameters and option callbacks are dynamic; web-platform globals and packages external, named', () => {
    const r = resolveRepository([parser.parseFile('src/stream.ts', [
      "import { z } from 'zod';",
      'export interface Handler { handle(): void }',
      'export function stream(opts: { onError?: (e: unknown) => void; signal?: AbortSignal }, cb: () => void, { onDone }: { onDone: () => void }, raw) {',
      '  const s = new ReadableStream({});',
      '  const enc = new TextEncoder();',
      '  opts.onError(new Error("x"));',
      '  cb();',
      '  onDone();',
      '  raw.handle();',
      '  raw.nothingDeclaresThis();',
      '  z.string();',
      '  missing();',
      '}',
    ].join('\n'))]);
    expect(misses(r)).toEqual([
      'cb: dynamic',
      'missing: not-found',
      'onDone: dynamic',
      'opts.onError: dynamic',
      // An untyped parameter: its type is unknown, not its target dynamic.
      'raw.handle: unknown-receiver',
      'raw.nothingDeclaresThis: unknown-receiver',
      'z.string: external (zod)',
    ]);
    // ReadableStream, TextEncoder, Error: the platform's (built-ins are counted, not stored).
    expect(r.unresolved.filter((u) => /ReadableStream|TextEncoder/.test(u.targetName)).map((u) => u.reason)).toEqual(['builtin', 'builtin']);
  });

  it('reads parameter names and whether a type is written for them, across languages', () => {
    expect([...parameterNames('export function f(a: A, { onError, retry }: Opts, ...rest)')]).toEqual([['a', true], ['onError', true], ['retry', true], ['rest', false]]);
    expect(parameterNames('def f(self, opts, *args, **kw)').get('opts')).toBe(false);
    expect(parameterNames('function go(Logger $log, $any)').get('$log')).toBe(true);
    expect(parameterNames('function go(Logger $log, $any)').get('$any')).toBe(false);
  });
});
