import { restoreIdentifiers } from './actions';
import { routerPrompt } from './prompts';
import type { EvidenceItem } from './state';

const item = (id: string, qualifiedName: string, path: string): EvidenceItem => ({
  id, qualifiedName, kind: 'function', path, startLine: 1, endLine: 2, signature: null, score: null, origin: 'hit', via: null, text: null,
});

describe('evidence summary keeps identifiers', () => {
  const evidence = [item('r:a.ts#create', 'InvoiceService.create', 'src/a.ts'), item('r:b.ts#formatMoney', 'formatMoney', 'src/b.ts'), item('r:c.ts#save', 'Repo.save', 'src/c.ts')];

  it('appends exactly the ids the summary lost, with name and path, and leaves the kept ones alone', () => {
    const { text, restored } = restoreIdentifiers('[r:a.ts#create] creates the invoice and calls r:c.ts#save.', evidence);
    expect(restored).toEqual(['r:b.ts#formatMoney']);
    expect(text).toBe('[r:a.ts#create] creates the invoice and calls r:c.ts#save.\n\nOther evidence ids:\n[r:b.ts#formatMoney] function formatMoney (src/b.ts)');
    for (const e of evidence) expect(text).toContain(e.id);
  });

  it('changes nothing when every id survived', () => {
    const summary = 'r:a.ts#create r:b.ts#formatMoney r:c.ts#save';
    expect(restoreIdentifiers(summary, evidence)).toEqual({ text: summary, restored: [] });
  });
});

describe('router prompt', () => {
  it('offers only the retrieval modes the pipeline allows, and always DIRECT', () => {
    const { system } = routerPrompt('who calls x?', '', ['bm25', 'graph']);
    const prefixes = [...system.matchAll(/^\[([A-Z0-9_]+):\]/gm)].map((m) => m[1]);
    expect(prefixes).toEqual(['BM25', 'GRAPH', 'DIRECT']);
    expect([...routerPrompt('q', '', ['semantic', 'bm25', 'hybrid', 'semantic_rerank', 'graph']).system.matchAll(/^\[([A-Z0-9_]+):\]/gm)].map((m) => m[1])).toEqual([
      'SEMANTIC',
      'SEMANTIC_RERANK',
      'BM25',
      'HYBRID',
      'GRAPH',
      'DIRECT',
    ]);
  });
});
