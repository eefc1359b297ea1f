import { ParserService } from '../parse/parser.service';
import { resolveRepository } from './resolver';
import type { ResolveResult } from './types';

const parser = new ParserService();
beforeAll(() => parser.init());

const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.reason !== 'builtin').map((u) => `${u.targetName}: ${u.reason}${u.origin ? ` (${u.origin})` : ''}`).sort();

describe('why the name-based resolver left a reference unresolved', () => {
  it('names the package of an external name; web-platform globals are the platform\'s', () => {
    const r = resolveRepository([parser.parseFile('src/stream.ts', [
      "import { z } from 'zod';",
      'export function stream(raw) {',
      '  const s = new ReadableStream({});',
      '  const enc = new TextEncoder();',
      '  z.string();',
      '  missing();',
      '}',
    ].join('\n'))]);
    expect(misses(r)).toEqual(['missing: not-found', 'z.string: external (zod)']);
    // ReadableStream, TextEncoder: the platform's (built-ins are counted, not stored).
    expect(r.unresolved.filter((u) => /ReadableStream|TextEncoder/.test(u.targetName)).map((u) => u.reason)).toEqual(['builtin', 'builtin']);
  });
});
