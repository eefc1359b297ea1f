import { parseDataset } from './dataset';
import { filesInOrder, localizationOf, localizationReport, localizationRows } from './localization';
import { judge, type RankedScope } from './match';

const scope = (path: string, name: string): RankedScope => ({ id: `${path}#${name}`, repoId: 'r-1', path, name, qualifiedName: name, kind: 'function' });
const [issue] = parseDataset(
  JSON.stringify({ id: 'i1', type: 'issue', repo: 'r-1', query: 'x'.repeat(5_000), relevant: [{ path: 'a.py', name: 'f' }, { path: 'b.py', name: 'g' }], meta: { project: 'proj' } }),
);

describe('issue localization metrics', () => {
  it('an issue line may be as long as LOCALIZE takes; a plain query may not', () => {
    expect(issue.query).toHaveLength(5_000);
    expect(() => parseDataset(JSON.stringify({ id: 'q', repo: 'r', query: 'x'.repeat(1_001), relevant: [{ path: 'a', name: 'f' }] }))).toThrow(/at most 1000 characters/);
  });

  it('function Acc@k needs every changed function within k; any-hit one of them; file Acc@k every file', () => {
    const ranked = [scope('a.py', 'f'), scope('c.py', 'h'), scope('c.py', 'i'), scope('d.py', 'j'), scope('e.py', 'k'), scope('b.py', 'g')];
    const judgement = judge(ranked, 'r-1', issue.relevant);
    const files = filesInOrder(ranked.map((r) => r.path));
    expect(files).toEqual(['a.py', 'c.py', 'd.py', 'e.py', 'b.py']);
    expect(localizationOf({ system: 'x', query: issue, judgement, files })).toEqual({ functionAcc: { 1: 0, 5: 0, 10: 1 }, fileAcc: { 1: 0, 5: 1 }, anyHit: 1 });
    const none = judge([scope('z.py', 'q')], 'r-1', issue.relevant);
    expect(localizationOf({ system: 'x', query: issue, judgement: none, files: ['z.py'] })).toEqual({ functionAcc: { 1: 0, 5: 0, 10: 0 }, fileAcc: { 1: 0, 5: 0 }, anyHit: 0 });
  });

  it('reports per system, overall and per project (meta.project)', () => {
    const judgement = judge([scope('a.py', 'f'), scope('b.py', 'g')], 'r-1', issue.relevant);
    const report = localizationReport([{ system: 'localize', query: issue, judgement, files: ['a.py', 'b.py'] }]);
    expect(report.map((r) => r.project).sort()).toEqual(['all', 'proj']);
    expect(report[0].metrics).toMatchObject({ queries: 1, functionAcc: { 1: 0, 5: 1, 10: 1 }, fileAcc: { 1: 0, 5: 1 }, anyHit: 1 });
    expect(localizationRows(report)[0]).toEqual(['project', 'system', 'issues', 'fn Acc@1', 'fn Acc@5', 'fn Acc@10', 'file Acc@1', 'file Acc@5', 'any@10']);
  });
});
