import { MalformedOutputError } from '../rerank.errors';
import { extractJson, LocalIds, parseBatchAnswer, parseFeedback, parseScore } from './score-parser';

describe('parseScore: the tolerance table', () => {
  it.each<[unknown, number | null]>([
    [0.7, 0.7],
    [0, 0],
    [1, 1],
    [1.7, 1], // clamped
    [-0.2, 0], // clamped
    [7, 1], // a 0-10 answer cannot leave the range either
    [NaN, null],
    [Infinity, null],
    ['0.42', 0.42],
    [' 0.5 ', 0.5],
    ['0.7-0.9', 0.8], // range: midpoint
    ['0.7 – 0.9', 0.8],
    ['0.6 to 0.8', 0.7],
    ['70%-90%', 0.8],
    ['85%', 0.85],
    ['85 %', 0.85],
    ['150%', 1],
    ['7/10', 0.7],
    ['8 out of 10', 0.8],
    ['0.8 (high)', 0.8],
    ['high (0.75)', 0.75],
    ['high', 0.8],
    ['HIGH', 0.8],
    ['very high', 0.95],
    ['medium', 0.5],
    ['moderate', 0.5],
    ['low', 0.2],
    ['not relevant', 0],
    ['irrelevant', 0],
    ['NaN', null],
    ['n/a', null],
    ['', null],
    ['banana', null],
    [null, null],
    [undefined, null],
    [true, null], // a boolean is not a score: never invent one
    [[0.5], null],
    [{ value: 0.5 }, null],
  ])('%j -> %p', (input, expected) => {
    const score = parseScore(input);
    if (expected === null) expect(score).toBeNull();
    else expect(score).toBeCloseTo(expected, 10);
  });
});

describe('extractJson', () => {
  it('reads plain JSON, a fenced block, JSON inside prose, and forgives trailing commas', () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
    expect(extractJson('Here you go:\n```json\n{"a": [1, 2]}\n```\nThanks')).toEqual({ a: [1, 2] });
    expect(extractJson('Scores follow. {"evaluations": []} Hope this helps.')).toEqual({ evaluations: [] });
    expect(extractJson('{"a": [1, 2,], }')).toEqual({ a: [1, 2] });
  });

  it('refuses what is not JSON, and says so', () => {
    expect(() => extractJson('I cannot help with that.')).toThrow(MalformedOutputError);
    expect(() => extractJson('{evaluations: [s1 => 0.9')).toThrow(/not JSON/);
    expect(() => extractJson('   ')).toThrow(expect.objectContaining({ reason: 'empty-output' }));
  });
});

describe('parseBatchAnswer', () => {
  const ids: LocalIds = new Map([
    ['s1', 'repo:a.ts#a|function'],
    ['s2', 'repo:b.ts#b|function'],
    ['s3', 'repo:c.ts#c|function'],
  ]);

  it('maps local ids back to scopes, ignores invented and duplicate ids, leaves omitted ones out', () => {
    const parsed = parseBatchAnswer(
      JSON.stringify({
        evaluations: [
          { id: 's1', relevant: true, score: 0.9, reasoning: 'parses files' },
          { id: 's1', relevant: false, score: 0.1, reasoning: 'second opinion' },
          { id: 's7', relevant: true, score: 1, reasoning: 'invented' },
          { id: 'repo:zzz', score: 1 },
          { id: '3', relevant: 'no', score: '20%', reasoning: '' },
        ],
      }),
      ids,
      'pointwise',
    );
    expect(parsed.scores).toEqual({
      'repo:a.ts#a|function': { llm: 0.9, relevant: true, reasoning: 'parses files', note: null },
      'repo:c.ts#c|function': { llm: 0.2, relevant: false, reasoning: null, note: null },
    });
    expect(parsed.ignored).toEqual({ duplicates: 1, invented: 2 });
    expect(parsed.feedback).toBeNull();
  });

  it('keeps a candidate whose score cannot be read, unscored with the reason', () => {
    const parsed = parseBatchAnswer({ evaluations: [{ id: 's2', relevant: true, score: 'NaN' }, { id: 's1', score: 0.3 }] }, ids, 'pointwise');
    expect(parsed.scores['repo:b.ts#b|function']).toEqual({ llm: null, relevant: true, reasoning: null, note: 'unreadable-score: "NaN"' });
  });

  it('accepts a bare array and other common key names', () => {
    expect(Object.keys(parseBatchAnswer([{ id: 's1', score: 1 }], ids, 'pointwise').scores)).toHaveLength(1);
    expect(Object.keys(parseBatchAnswer({ results: [{ scopeId: 's2', relevance: 'high' }] }, ids, 'pointwise').scores)).toHaveLength(1);
  });

  it('treats an empty list or no usable id as an unusable answer (the batch falls back)', () => {
    expect(() => parseBatchAnswer({ evaluations: [] }, ids, 'pointwise')).toThrow(expect.objectContaining({ reason: 'empty-output' }));
    expect(() => parseBatchAnswer({ evaluations: [{ id: 's9', score: 1 }] }, ids, 'pointwise')).toThrow(/no evaluation named a candidate/);
    expect(() => parseBatchAnswer({ verdict: 'all good' }, ids, 'pointwise')).toThrow(/no list of evaluations/);
    expect(() => parseBatchAnswer('null', ids, 'pointwise')).toThrow(MalformedOutputError);
  });

  it('listwise: positions become scores 1, (n-1)/n, ...; omitted stay unscored; plain index arrays work', () => {
    const parsed = parseBatchAnswer({ ranking: [{ id: 's3', reasoning: 'best' }, 's1', 's3', 's8'] }, ids, 'listwise');
    expect(parsed.scores['repo:c.ts#c|function']).toMatchObject({ llm: 1, reasoning: 'best' });
    expect(parsed.scores['repo:a.ts#a|function'].llm).toBeCloseTo(2 / 3, 10);
    expect(parsed.scores['repo:b.ts#b|function']).toBeUndefined();
    expect(parsed.ignored).toEqual({ duplicates: 1, invented: 1 });
    // A bare array of indices, as some models answer a listwise prompt.
    const indices = parseBatchAnswer('[2, 1]', ids, 'listwise');
    expect(indices.scores['repo:b.ts#b|function'].llm).toBe(1);
    expect(() => parseBatchAnswer('[]', ids, 'listwise')).toThrow(expect.objectContaining({ reason: 'empty-output' }));
    expect(() => parseBatchAnswer('[0, 99]', ids, 'listwise')).toThrow(/no ranked id/);
  });
});

describe('parseFeedback', () => {
  it('keeps known qualities and types, structured suggested searches, and drops code', () => {
    const feedback = parseFeedback({
      feedback: {
        quality: 'Good',
        suggestions: [
          { type: 'add_filter', description: 'only python', suggestedQuery: { text: 'parse', mode: 'BM25', topK: 500, filters: { languages: ['python', 3], extra: 'x' } } },
          { type: 'rewrite_everything', description: 'vague', suggestedQuery: { text: '' } },
          { type: 'other', description: 'eval me', suggestedQuery: "rag.scope().where({}).execute(); process.exit(1)" },
          { type: 'other' },
        ],
      },
    });
    expect(feedback).toEqual({
      quality: 'good',
      suggestions: [
        {
          type: 'add_filter',
          description: 'only python',
          suggestedQuery: { text: 'parse', mode: 'bm25', topK: 200, filters: { repository: null, pathContains: null, pathGlob: null, languages: ['python'], kinds: [], name: null } },
        },
        { type: 'other', description: 'vague', suggestedQuery: null },
        { type: 'other', description: 'eval me', suggestedQuery: null },
      ],
    });
    expect(parseFeedback({ feedback: { quality: 'superb', suggestions: [] } })).toBeNull();
    expect(parseFeedback({ evaluations: [] })).toBeNull();
  });
});
