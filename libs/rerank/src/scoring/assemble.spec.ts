import { BatchOutcome, RerankOptions } from '../rerank.types';
import { assembleResult, RerankMeta, StoredCandidate } from './assemble';

const OPTIONS: RerankOptions = {
  batchSize: 2,
  parallel: 2,
  minScore: 0,
  withSuggestions: false,
  scoreMerging: 'weighted',
  weights: { vector: 0.3, llm: 0.7 },
  candidateCount: null,
  timeoutMs: 10_000,
  batchTimeoutMs: 5_000,
  strategy: 'pointwise',
  shuffleSeed: null,
  limit: null,
  scheduling: 'pool',
};

function meta(over: Partial<RerankMeta> = {}, options: Partial<RerankOptions> = {}): RerankMeta {
  return {
    id: 'rr000000000000000000000001',
    question: 'q',
    queryDescription: null,
    options: { ...OPTIONS, ...options },
    reranker: 'gemini',
    model: 'm',
    strategy: 'pointwise',
    total: 3,
    reranked: 6,
    skipReason: null,
    cache: { hits: 0, misses: 3 },
    notes: [],
    createdAt: 1_000,
    deadlineAt: 11_000,
    batchKeys: [],
    ...over,
  };
}

const candidates: StoredCandidate[] = Array.from({ length: 6 }, (_, i) => ({
  id: `c${i}`,
  name: `c${i}`,
  qualifiedName: `c${i}`,
  kind: 'function',
  language: 'typescript',
  path: `c${i}.ts`,
  signature: null,
  retrievalScore: 1 - i / 10,
  retrievalNormalized: 1 - i / 10,
  retrievalRank: i + 1,
}));

function outcome(batch: number, scores: Record<string, number | null>, over: Partial<BatchOutcome> = {}): BatchOutcome {
  return {
    batch,
    ok: true,
    reranker: 'gemini',
    model: 'm',
    strategy: 'pointwise',
    fallbackReason: null,
    detail: null,
    scores: Object.fromEntries(Object.entries(scores).map(([id, llm]) => [id, { llm, relevant: null, reasoning: llm === null ? null : `why ${id}`, note: llm === null ? 'unreadable-score: "x"' : null }])),
    feedback: null,
    ignored: { duplicates: 0, invented: 0 },
    calls: 1,
    durationMs: 5,
    cached: false,
    ...over,
  };
}

describe('assembleResult', () => {
  it('merges scored hits, keeps every other hit with its retrieval score and the reason, sorted', () => {
    const outcomes = new Map([
      [0, outcome(0, { c0: 0.1, c1: 0.9 })],
      [1, outcome(1, {}, { ok: false, fallbackReason: 'timeout', calls: 1 })],
      [2, outcome(2, { c4: null })], // c5 omitted, c4 unreadable
    ]);
    const r = assembleResult(meta(), candidates, outcomes, { status: 'completed', completedAt: 2_000, finalReason: 'done' });
    expect(r.hits.map((h) => h.scopeId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c0']);
    const by = Object.fromEntries(r.hits.map((h) => [h.scopeId, h.scoreBreakdown]));
    expect(by.c1).toMatchObject({ scored: true, llm: 0.9, llmReasoning: 'why c1', batch: 0, fallbackReason: null });
    expect(by.c1.merged).toBeCloseTo(0.3 * 0.9 + 0.7 * 0.9, 12);
    expect(by.c2).toMatchObject({ scored: false, llm: null, merged: 0.8, fallbackReason: 'timeout', batch: 1 });
    expect(by.c4.fallbackReason).toBe('unreadable-score: "x"');
    expect(by.c5.fallbackReason).toBe('omitted-by-llm');
    expect(r).toMatchObject({ done: 3, total: 3, fallbacks: 1, llmCalls: 3, reason: 'done', durationMs: 1_000 });
    expect(r.hits.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('marks pending batches while running and unfinished ones at the deadline', () => {
    const outcomes = new Map([[0, outcome(0, { c0: 0.5, c1: 0.5 })]]);
    const running = assembleResult(meta(), candidates, outcomes, { status: 'running', completedAt: null, finalReason: null });
    expect(running.hits.find((h) => h.scopeId === 'c3')!.scoreBreakdown.fallbackReason).toBe('pending');
    expect(running).toMatchObject({ status: 'running', done: 1, reason: null, durationMs: null });
    const expired = assembleResult(meta(), candidates, outcomes, { status: 'completed', completedAt: 11_000, finalReason: 'deadline' });
    expect(expired.hits.find((h) => h.scopeId === 'c3')!.scoreBreakdown.fallbackReason).toBe('deadline');
    expect(expired.reason).toBe('deadline');
  });

  it('candidateCount: the rest follow unscored, never dropped', () => {
    const r = assembleResult(meta({ reranked: 2, total: 1 }), candidates, new Map([[0, outcome(0, { c0: 0, c1: 0 })]]), {
      status: 'completed',
      completedAt: 2_000,
      finalReason: 'done',
    });
    expect(r.hits).toHaveLength(6);
    expect(r.hits.find((h) => h.scopeId === 'c5')!.scoreBreakdown).toMatchObject({ batch: null, fallbackReason: 'not-reranked: beyond candidateCount' });
  });

  it('minScore drops scored hits below it (only scored ones); limit cuts; ties keep retrieval order', () => {
    const outcomes = new Map([
      [0, outcome(0, { c0: 0.2, c1: 0.6 })],
      [1, outcome(1, { c2: 0.6, c3: 0.6 })],
    ]);
    const r = assembleResult(meta({}, { minScore: 0.5, limit: 3, scoreMerging: 'multiplicative' }), candidates, outcomes, {
      status: 'completed',
      completedAt: 2_000,
      finalReason: 'done',
    });
    expect(r.filteredOut).toBe(1);
    // c4 0.6 and c5 0.5 unscored (retrieval); c1 0.9·0.6 = 0.54; c2, c3 lower; c0 dropped.
    expect(r.hits.map((h) => h.scopeId)).toEqual(['c4', 'c1', 'c5']);
    const tie = assembleResult(meta({ total: 1, reranked: 2 }), candidates.slice(0, 2).map((c) => ({ ...c, retrievalNormalized: 0.5 })), new Map([[0, outcome(0, { c0: 0.4, c1: 0.4 })]]), {
      status: 'completed',
      completedAt: 2_000,
      finalReason: 'done',
    });
    expect(tie.hits.map((h) => h.scopeId)).toEqual(['c0', 'c1']);
  });

  it('a skipped rerank keeps retrieval order and says why on every hit', () => {
    const r = assembleResult(meta({ skipReason: '6 candidates <= limit 10', reranker: 'skipped', model: null, total: 0, reranked: 0 }), candidates, new Map(), {
      status: 'completed',
      completedAt: 1_000,
      finalReason: 'done',
    });
    expect(r.skipped).toBe(true);
    expect(r.reason).toBe('6 candidates <= limit 10');
    expect(r.hits.map((h) => h.scopeId)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(r.hits[0].scoreBreakdown).toMatchObject({ reranker: 'skipped', scored: false, fallbackReason: 'skipped: 6 candidates <= limit 10' });
  });
});
