import type { EvalQuery } from './dataset';
import { buildReport, type EvalRun, languageRows, reportRows, reportSubsets } from './report';

const query = (id: string, targets: number, expand = false): EvalQuery => ({
  id,
  repo: 'r',
  query: id,
  relevant: Array.from({ length: targets }, (_, i) => ({ path: 'a.ts', name: `t${i}` })),
  ...(expand ? { expand: { depth: 1, edges: ['EXTENDS'], direction: 'in' } } : {}),
  line: 1,
});

const run = (system: string, q: EvalQuery, judged: (0 | 1)[], latencyMs: number): EvalRun => {
  const targetRanks: (number | null)[] = q.relevant.map(() => null);
  let t = 0;
  judged.forEach((j, i) => j === 1 && (targetRanks[t++] = i + 1));
  return { system, query: q, judgement: { judged, targetRanks }, returned: judged.length, latencyMs };
};

describe('evaluation report', () => {
  const q1 = query('q1', 1);
  const q2 = query('q2', 2, true);
  const runs = [run('hybrid', q1, [1], 10), run('hybrid', q2, [0, 1, 1], 30), run('bm25', q1, [0, 0, 1], 5), run('bm25', q2, [], 7)];
  const report = buildReport(runs, 10);

  it('averages per system and per subset', () => {
    const hybrid = report.systems.find((s) => s.system === 'hybrid')!;
    // q1: rank 1 -> nDCG 1, MRR 1. q2: ranks 2 and 3 of 2 targets -> DCG = 1/log2(3) + 1/log2(4) = 1.1309298,
    // IDCG = 1.6309298, nDCG = 0.6934264; MRR 1/2. Means: nDCG 0.8467132, MRR 0.75.
    expect(hybrid.metrics.all).toEqual({ queries: 2, ndcg: expect.closeTo(0.8467132, 6), mrr: 0.75, recall: 1, recallDeep: 1, precision: expect.closeTo(0.3, 12) });
    expect(hybrid.metrics.text).toMatchObject({ queries: 1, ndcg: 1, mrr: 1 });
    expect(hybrid.metrics.graph).toMatchObject({ queries: 1, ndcg: expect.closeTo(0.6934264, 6), mrr: 0.5 });
    expect(hybrid.latencyMs).toEqual({ p50: 10, p95: 30, mean: 20 });
    const bm25 = report.systems.find((s) => s.system === 'bm25')!;
    // q1 at rank 3: MRR 1/3, nDCG 1/log2(4) = 0.5; q2 nothing.
    expect(bm25.metrics.all).toMatchObject({ mrr: expect.closeTo(1 / 6, 12), ndcg: 0.25, recall: 0.5 });
  });

  it('keeps per-query ranks', () => {
    expect(report.queries.find((q) => q.system === 'hybrid' && q.id === 'q2')).toMatchObject({
      subset: 'graph',
      firstRank: 2,
      targets: [
        { path: 'a.ts', name: 't0', rank: 2 },
        { path: 'a.ts', name: 't1', rank: 3 },
      ],
    });
  });

  it('reports every metric per question type when the dataset has types', () => {
    const typed = buildReport(
      [run('hybrid', { ...q1, type: 'lexical' }, [1], 10), run('hybrid', { ...query('q3', 1), type: 'lexical' }, [0, 1], 12), run('hybrid', { ...query('q4', 1), type: 'semantic' }, [0, 0, 0, 1], 20)],
      10,
    );
    const hybrid = typed.systems[0];
    expect(hybrid.metrics.lexical).toMatchObject({ queries: 2, mrr: 0.75 });
    expect(hybrid.metrics.semantic).toMatchObject({ queries: 1, mrr: 0.25 });
    expect(hybrid.metrics.structural).toBeUndefined();
    expect(hybrid.latencyBySubset.semantic).toEqual({ p50: 20, p95: 20, mean: 20 });
    expect(typed.queries.map((q) => q.type)).toEqual(['lexical', 'lexical', 'semantic']);
    expect(reportSubsets(typed)).toEqual(['all', 'semantic', 'lexical']);
    expect(reportRows(typed, 'lexical')[1]).toEqual(['hybrid', 2, expect.any(String), '0.750', '1.000', '1.000', '0.200', '10.0', '12.0']);
  });

  it('renders table rows per subset', () => {
    expect(reportSubsets(report)).toEqual(['all', 'text', 'graph']);
    const rows = reportRows(report, 'all');
    expect(rows[0]).toEqual(['system', 'queries', 'nDCG@10', 'MRR@10', 'R@10', 'R@50', 'P@5', 'p50 ms', 'p95 ms']);
    expect(rows[1]).toEqual(['hybrid', 2, '0.847', '0.750', '1.000', '1.000', '0.300', '10.0', '30.0']);
  });

  it('splits by language when the questions span several, per type', () => {
    const lang = (id: string, language: string, type: 'semantic' | 'lexical' | 'structural'): EvalQuery => ({ ...query(id, 1), type, meta: { language } });
    const split = buildReport(
      [
        run('hybrid', lang('g1', 'Go', 'lexical'), [1], 5),
        run('hybrid', lang('g2', 'Go', 'structural'), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 5),
        run('hybrid', lang('r1', 'Rust', 'semantic'), [0, 1], 5),
        run('bm25', lang('g1', 'Go', 'lexical'), [0, 0, 0, 1], 5),
        run('bm25', lang('g2', 'Go', 'structural'), [1], 5),
        run('bm25', lang('r1', 'Rust', 'semantic'), [], 5),
      ],
      10,
    );
    const hybrid = split.systems.find((s) => s.system === 'hybrid')!;
    expect(Object.keys(hybrid.byLanguage!)).toEqual(['Go', 'Rust']);
    expect(hybrid.byLanguage!.Go).toMatchObject({ all: { queries: 2, mrr: 0.5 }, lexical: { queries: 1, mrr: 1 }, structural: { queries: 1, recall: 0 } });
    expect(hybrid.byLanguage!.Go.semantic).toBeUndefined();
    expect(hybrid.byLanguage!.Rust).toMatchObject({ all: { queries: 1, mrr: 0.5 }, semantic: { queries: 1, mrr: 0.5 } });
    expect(split.queries.find((q) => q.id === 'r1')?.language).toBe('Rust');
    const rows = languageRows(split)!;
    expect(rows[0]).toEqual(['language', 'system', 'queries', 'nDCG@10', 'semantic nDCG@10', 'lexical MRR@10', 'structural R@10']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[5], r[6]])).toEqual([
      ['Go', 'hybrid', '1.000', '0.000'],
      ['Go', 'bm25', '0.250', '1.000'],
      ['Rust', 'hybrid', '-', '-'],
      ['Rust', 'bm25', '-', '-'],
    ]);
  });

  it('does not split a dataset in one language', () => {
    expect(report.systems.every((s) => s.byLanguage === undefined)).toBe(true);
    expect(languageRows(report)).toBeNull();
    const one = buildReport([run('hybrid', { ...query('g1', 1), meta: { language: 'Go' } }, [1], 5)], 10);
    expect(one.systems[0].byLanguage).toBeUndefined();
  });
});
