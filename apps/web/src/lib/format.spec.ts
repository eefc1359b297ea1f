import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api/errors';
import type { GraphPath } from '../api/types';
import { alignFirstLine, answerPieces, breakdownParts, coverageLines, globList, hopsText, impactPathText, movement, nameFromId, num, pathText, viaText } from './format';

describe('score breakdown', () => {
  it('shows every list a hit was found by (rank · score · contribution), then fusion and rescore', () => {
    const parts = breakdownParts({
      fusion: 'rrf',
      filtersApplied: [],
      semantic: { rank: 1, score: 0.7958874702453613, contribution: 0.03278688524590164 },
      bm25: { rank: 10, score: 14.145896911621094, contribution: 0.04285714285714286 },
      keyword: null,
      graph: null,
      rescore: { fused: 0.5, keyword: 0.4902012663999542, phrase: 0, name: 0, container: 0.15, link: 0.1 },
    });
    expect(parts.map((p) => p.label)).toEqual([
      'semantic #1 · 0.7959 · +0.03279',
      'bm25 #10 · 14.15 · +0.04286',
      'fusion rrf',
      'rescore fused 0.5 · keyword 0.49 · phrase 0 · name 0 · container 0.15 · link 0.1',
    ]);
  });

  it('names graph connections and the raw keyword score; a GRAPH answer has no list at all', () => {
    const graph = breakdownParts({ fusion: 'rrf', filtersApplied: [], semantic: null, bm25: null, keyword: { rank: 2, score: 0.5, contribution: 0.01, raw: 3.25 }, graph: { rank: 1, score: 3, contribution: 0.02, connections: 3 }, rescore: null });
    expect(graph.map((p) => p.list)).toEqual(['keyword', 'graph', 'fusion']);
    expect(graph[0].title).toContain('raw 3.25');
    expect(graph[1].title).toContain('3 connections');
    expect(breakdownParts({ fusion: 'graph', filtersApplied: [], semantic: null, bm25: null, keyword: null, graph: null, rescore: null }).map((p) => p.label)).toEqual(['fusion graph']);
  });

  it('prints numbers with four significant digits and no trailing zeros', () => {
    expect([num(1), num(0.5), num(14.145896), num(1234.5), num(0.000123456), num(1.5)]).toEqual(['1', '0.5', '14.15', '1235', '0.0001235', '1.5']);
  });
});

describe('graph paths', () => {
  it('reads names from scope ids and draws arrows the way the edges point', () => {
    expect(nameFromId('repo:ts/src/a.ts#InvoiceService.create|method')).toBe('InvoiceService.create');
    expect(nameFromId('repo:sql/x.sql#dbo.Invoice|table')).toBe('dbo.Invoice');
    expect(
      pathText({ nodeIds: ['r:a.ts#formatMoney|function', 'r:b.ts#InvoiceService.create|method', 'r:c.ts#main|function'], edgeTypes: ['CALLS', 'CALLS'], directions: ['IN', 'IN'], provenances: null }),
    ).toBe('formatMoney <-CALLS- InvoiceService.create <-CALLS- main');
    expect(pathText({ nodeIds: ['r:m.ts#Invoice|class', 'r:b.ts#BaseEntity|class'], edgeTypes: ['EXTENDS'], directions: ['OUT'], provenances: null })).toBe('Invoice -EXTENDS-> BaseEntity');
    expect(hopsText({ nodeIds: ['r:m.ts#Invoice|class', 'r:b.ts#BaseEntity|class'], edgeTypes: ['EXTENDS'], directions: ['OUT'], provenances: null })).toBe('-EXTENDS-> BaseEntity');
  });

  it('shows how each hop\'s edge was made, and says when an answer rests on name matching', () => {
    const path: GraphPath = { nodeIds: ['r:a.ts#bark|function', 'r:d.ts#Dog.speak|method', 'r:d.ts#Dog|class'], edgeTypes: ['CALLS', 'HAS_MEMBER'], directions: ['IN', 'IN'], provenances: ['scip', null] };
    expect(pathText(path)).toBe('bark <-CALLS[scip]- Dog.speak <-HAS_MEMBER- Dog');
    expect(viaText({ relation: 'callers', anchorId: 'r:a.ts#bark|function', anchorName: 'bark', depth: 1, path: { ...path, provenances: ['name', null] }, nameOnly: true }))
      .toBe('callers of bark: Dog -HAS_MEMBER-> Dog.speak -CALLS[name]-> bark (rests on name matching)');
  });
});

describe('rerank movement, answers, globs, source', () => {
  it('shows how far a hit moved', () => {
    expect([movement(4, 1), movement(1, 3), movement(2, 2)]).toEqual(['▲3', '▼2', '=']);
  });

  it('splits an answer into text and citations', () => {
    expect(answerPieces('It is [cite:r:a.ts#f|function] and [cite: r:b.ts#g|method ].')).toEqual([{ text: 'It is ' }, { cite: 'r:a.ts#f|function' }, { text: ' and ' }, { cite: 'r:b.ts#g|method' }, { text: '.' }]);
  });

  it('reads globs one per line or comma-separated', () => {
    expect(globList('dist/**, vendor/**\n\n  src/legacy/ ')).toEqual(['dist/**', 'vendor/**', 'src/legacy/']);
  });

  it("gives a block's first line back its indentation, then removes the common one", () => {
    expect(alignFirstLine('create() {\n    const x = 1;\n  }')).toBe('create() {\n  const x = 1;\n}');
    expect(alignFirstLine('def f():\n        return 1')).toBe('def f():\n        return 1');
  });
});

describe('API errors', () => {
  it('keep the first code, every message, and the extensions that locate them', () => {
    const e = ApiError.fromGraphql([{ message: 'topK must not be greater than 100', extensions: { code: 'BAD_USER_INPUT', field: 'input.topK', domainCode: 'INVALID_INPUT' } }, { message: 'another' }], 400);
    expect([e.code, e.message, e.status, e.details]).toEqual(['BAD_USER_INPUT', 'topK must not be greater than 100; another', 400, [['field', 'input.topK'], ['domainCode', 'INVALID_INPUT']]]);
    expect(e.needsKey).toBe(false);
    expect(ApiError.fromGraphql([{ message: 'this operation needs the admin key (API_ADMIN_KEY)', extensions: { code: 'FORBIDDEN' } }], 403).needsKey).toBe(true);
  });

  it('explain a refused subscription socket (4403) as an access problem', () => {
    const e = ApiError.fromSocket({ code: 4403, reason: 'Forbidden' });
    expect(e.code).toBe('FORBIDDEN');
    expect(e.needsKey).toBe(true);
    expect(e.message).toMatch(/refused the subscription socket \(4403 Forbidden\)/);
    expect(ApiError.fromSocket({ code: 1006, reason: '' }).code).toBe('NETWORK');
    expect(ApiError.fromSocket([{ message: 'no rerank job "x"', extensions: { code: 'NOT_FOUND' } }]).code).toBe('NOT_FOUND');
  });
});

describe('impact paths and coverage', () => {
  it('reads a path from the dependent to the changed scope, each edge with how it was made', () => {
    const path = [
      { from: 'r:app.py#run_app|function', edge: 'CALLS', to: 'r:util.py#helper|function', resolver: 'fast', via: null },
      { from: 'r:util.py#helper|function', edge: 'CALLS', to: 'r:base.ts#Base.run|method', resolver: 'precise', via: 'r:impl.ts#Impl.run|method' },
    ];
    expect(impactPathText(path)).toBe('run_app -CALLS[name]-> helper -CALLS[compiler]-> Base.run (dynamic dispatch: Base.run overridden by Impl.run)');
    expect(impactPathText([])).toBe('');
  });

  it('states coverage plainly', () => {
    expect(coverageLines({ edges: 3, nameOnlyEdges: 2, preciseEdges: 1, unresolvedSameName: 1, unresolvedInReached: 0, testsFound: false, truncated: true })).toEqual([
      '2 of 3 edges matched by name only (could point at the wrong target); 1 resolved by a compiler or index.',
      '1 unresolved reference elsewhere with a matching name could also lead here (not shown).',
      '0 unresolved or dynamic references in the reached code.',
      'No tests were found.',
      'The node cap stopped the walk before the depth did: there is more.',
    ]);
  });
});
