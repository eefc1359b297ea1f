import { AnswerStreamGate, checkCitations, parseAnswerOutput, parseGraphQuery, parseRouterOutput } from './prefix';

describe('router protocol', () => {
  it.each([
    ['[SEMANTIC:] parse a file', 'semantic', 'parse a file'],
    ['[SEMANTIC_RERANK:] parse file', 'semantic_rerank', 'parse file'],
    ['  [BM25:] FileBuilder build  \n', 'bm25', 'FileBuilder build'],
    ['[HYBRID:] where are scopes written', 'hybrid', 'where are scopes written'],
    ['[GRAPH:] callers of Foo.bar', 'graph', 'callers of Foo.bar'],
    ['[DIRECT:]', 'direct', 'the question'],
  ])('%j -> %s', (output, mode, query) => {
    expect(parseRouterOutput(output, 'the question')).toEqual({ mode, query, fallback: null });
  });

  it.each([
    ['two lines', '[BM25:] a\n[HYBRID:] b', /exactly one line/],
    ['no prefix', 'use semantic search', /no known prefix/],
    ['unknown prefix', '[VECTOR:] x', /no known prefix/],
    ['lower case', '[bm25:] x', /no known prefix/],
    ['no query', '[BM25:]   ', /without a query/],
    ['two prefixes on a line', '[BM25:] [HYBRID:] x', /more than one prefix/],
    ['empty', '', /exactly one line, got 0/],
  ])('falls back to hybrid on the question for %s', (_what, output, reason) => {
    const plan = parseRouterOutput(output, 'q?');
    expect(plan).toMatchObject({ mode: 'hybrid', query: 'q?' });
    expect(plan.fallback).toMatch(reason);
  });

  it('falls back when there is no model output at all', () => {
    expect(parseRouterOutput(null, 'q')).toEqual({ mode: 'hybrid', query: 'q', fallback: 'no chat model configured' });
  });
});

describe('answer protocol', () => {
  it('reads answers and follow-up requests', () => {
    expect(parseAnswerOutput('[Answer:] It is X.')).toEqual({ kind: 'answer', text: 'It is X.', malformed: false });
    expect(parseAnswerOutput('\n[Requesting data on:] the Foo class')).toEqual({ kind: 'request', text: 'the Foo class' });
    expect(parseAnswerOutput('It is X.')).toEqual({ kind: 'answer', text: 'It is X.', malformed: true });
    expect(parseAnswerOutput('[Requesting data on:]   ')).toEqual({ kind: 'answer', text: '', malformed: true });
    expect(parseAnswerOutput('[Answer:]')).toEqual({ kind: 'answer', text: '', malformed: false });
  });

  it('streams an answer without its prefix, nothing of a request, and a malformed answer as is', () => {
    const run = (chunks: string[]) => {
      const out: string[] = [];
      const gate = new AnswerStreamGate((t) => out.push(t));
      chunks.forEach((c) => gate.push(c));
      return out.join('');
    };
    expect(run(['[Ans', 'wer:] It ', 'is X.'])).toBe('It is X.');
    expect(run(['[Requesting', ' data on:] Foo', ' more'])).toBe('');
    expect(run(['It is', ' X.'])).toBe('It is X.');
    expect(run(['[A', 'nything else'])).toBe('[Anything else');
  });

  it('streams citations of evidence ids and holds back invented ones, however the chunks split the marker', () => {
    const ids = new Set(['r:a.ts#A', 'r:b.ts#B']);
    const answer = '[Answer:] See [cite:r:a.ts#A] and [cite:r:made/up.ts#Nope], [cite:r:b.ts#B]. A [link] and [cite: broken';
    const expected = 'See [cite:r:a.ts#A] and , [cite:r:b.ts#B]. A [link] and [cite: broken';
    for (const size of [1, 2, 3, 5, 7, 11, answer.length]) {
      const out: string[] = [];
      const gate = new AnswerStreamGate((t) => out.push(t), ids);
      for (let i = 0; i < answer.length; i += size) gate.push(answer.slice(i, i + size));
      gate.end();
      expect(out.join('')).toBe(expected);
      // The same rule as the final answer's check, so the stream and the result agree.
      expect(out.join('')).toBe(checkCitations(answer.slice('[Answer:] '.length), ids).text);
    }
  });
});

describe('GRAPH queries', () => {
  it.each([
    ['callers of InvoiceService.create', 'InvoiceService.create', ['CALLS'], 'in'],
    ['who calls formatMoney?', 'formatMoney', ['CALLS'], 'in'],
    ['callees of main', 'main', ['CALLS'], 'out'],
    ['what extends BaseEntity', 'BaseEntity', ['EXTENDS'], 'in'],
    ['implementations of IInvoiceRepository', 'IInvoiceRepository', ['IMPLEMENTS'], 'in'],
    ['members of InvoiceService', 'InvoiceService', ['HAS_MEMBER'], 'out'],
  ])('%j', (query, name, edges, direction) => {
    expect(parseGraphQuery(query)).toMatchObject({ name, edges, direction });
  });

  it('walks reference edges both ways when no relation word is known', () => {
    expect(parseGraphQuery('Invoice')).toMatchObject({ name: 'Invoice', relation: 'related', direction: 'both' });
    expect(parseGraphQuery('???')).toBeNull();
  });
});

describe('citations', () => {
  it('keeps cited ids that were in the evidence and drops the invented ones', () => {
    const check = checkCitations('A [cite:r:a.ts#A] and B [cite:r:b.ts#B] and A again [cite:r:a.ts#A].', new Set(['r:a.ts#A']));
    expect(check.valid).toEqual(['r:a.ts#A']);
    expect(check.invented).toEqual(['r:b.ts#B']);
    expect(check.text).toBe('A [cite:r:a.ts#A] and B and A again [cite:r:a.ts#A].');
  });
});
