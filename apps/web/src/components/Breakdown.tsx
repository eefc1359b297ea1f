import type { ScoreBreakdown } from '../api/types';
import { breakdownParts, num } from '../lib/format';

/** The score breakdown as chips, one per list (rank · score · contribution), fusion and rescore. */
export function BreakdownChips({ breakdown }: { breakdown: ScoreBreakdown }) {
  return (
    <div className="chips" aria-label="score breakdown">
      {breakdownParts(breakdown).map((p) => (
        <span key={p.list} className={`chip chip-${p.list}`} title={p.title}>
          {p.label}
        </span>
      ))}
    </div>
  );
}

/** Every list as a row (rank, its own score, what it added), then fusion, rescore and the final score. */
export function BreakdownTable({ breakdown, score }: { breakdown: ScoreBreakdown; score: number }) {
  const r = breakdown.rescore;
  return (
    <table className="breakdown-table" aria-label="score breakdown table">
      <thead>
        <tr>
          <th>list</th>
          <th>rank</th>
          <th>score</th>
          <th>added</th>
        </tr>
      </thead>
      <tbody>
        {(['semantic', 'bm25', 'keyword', 'graph'] as const).map((list) => {
          const s = breakdown[list];
          return (
            <tr key={list} className={s ? '' : 'absent'}>
              <td>{list}</td>
              <td>{s ? `#${s.rank}` : '–'}</td>
              <td>{s ? num(s.score) : '–'}</td>
              <td>{s ? `+${num(s.contribution)}` : '–'}</td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <td>{`fusion ${breakdown.fusion}`}</td>
          <td colSpan={2}>{r ? `rescore: fused ${num(r.fused, 3)}, keyword ${num(r.keyword, 3)}, phrase ${num(r.phrase, 3)}, name ${num(r.name, 3)}, container ${num(r.container, 3)}, link ${num(r.link, 3)}` : ''}</td>
          <td>
            <strong>{score.toFixed(4)}</strong>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
