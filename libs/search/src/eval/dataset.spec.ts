import { DatasetError, parseDataset, queryLanguage } from './dataset';

const line = (o: object) => JSON.stringify(o);
const ok = { id: 'q1', repo: 'rxjs', query: 'emit the last value on completion', relevant: [{ path: 'internal/AsyncSubject.ts', name: 'AsyncSubject', kind: 'class' }] };

function problemsOf(text: string): string {
  try {
    parseDataset(text, 'dev.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as Error).message;
  }
  throw new Error('expected a DatasetError');
}

describe('dataset lines', () => {
  it('parses good lines, skips blank ones and fills expansion defaults', () => {
    const text = [line(ok), '', line({ ...ok, id: 'q2', expand: { edges: ['EXTENDS'], direction: 'in' } })].join('\n');
    const queries = parseDataset(text);
    expect(queries).toHaveLength(2);
    expect(queries[0]).toEqual({ ...ok, line: 1 });
    expect(queries[1].line).toBe(3);
    expect(queries[1].expand).toEqual({ depth: 1, edges: ['EXTENDS'], direction: 'in' });
  });

  it('names the line and the field of every problem', () => {
    const text = [
      line(ok),
      '{"id": "q2", "repo": "rxjs",', // broken JSON
      line({ id: 'q3', repo: 'rxjs', relevant: ok.relevant }), // no query
      line({ ...ok, id: 'q4', relevant: [ok.relevant[0], { path: 'a.ts', name: '' }] }),
      line({ ...ok, id: 'q5', expand: { depth: 4, edges: ['CALLS', 'FRIENDS'], direction: 'up' } }),
      line({ ...ok, id: 'q1' }), // duplicate id
      line({ ...ok, id: 'q7', relevent: [] }), // typo
      line({ ...ok, id: 'q8', relevant: [] }),
      line({ ...ok, id: 'q9', relevant: [{ path: '/abs/a.ts', name: 'a', kind: 'Class' }] }),
      '[1, 2]',
    ].join('\n');
    const message = problemsOf(text);
    expect(message).toMatch(/^invalid dataset dev\.jsonl \(12 problems\):/);
    expect(message).toContain('dev.jsonl:2: not valid JSON');
    expect(message).toContain('dev.jsonl:3: query: is missing');
    expect(message).toContain('dev.jsonl:4: relevant[1].name: must be a non-empty string');
    expect(message).toContain('dev.jsonl:5: expand.depth: must be an integer from 1 to 3');
    expect(message).toContain('dev.jsonl:5: expand.edges: unknown edge type "FRIENDS"');
    expect(message).toContain('dev.jsonl:5: expand.direction: must be one of out, in, both');
    expect(message).toContain('dev.jsonl:6: id: "q1" is already used on line 1');
    expect(message).toContain('dev.jsonl:7: relevent: unknown field');
    expect(message).toContain('dev.jsonl:8: relevant: must be a non-empty array');
    expect(message).toContain('dev.jsonl:9: relevant[0].path: must be relative to the repository root');
    expect(message).toContain('dev.jsonl:9: relevant[0].kind: must be one of file, class');
    expect(message).toContain('dev.jsonl:10: must be a JSON object');
  });

  it('reads the question type and refuses an unknown one or a structural question with an expand spec', () => {
    const [typed] = parseDataset(line({ ...ok, type: 'lexical' }));
    expect(typed.type).toBe('lexical');
    expect(parseDataset(line(ok))[0]).not.toHaveProperty('type');
    const message = problemsOf([line({ ...ok, type: 'vague' }), line({ ...ok, id: 'q2', type: 'structural', expand: { edges: ['EXTENDS'] } })].join('\n'));
    expect(message).toContain('dev.jsonl:1: type: must be one of semantic, lexical, structural');
    expect(message).toContain('dev.jsonl:2: expand: a structural question is asked in plain words');
  });

  it('refuses duplicate targets, an over-long query and an empty file', () => {
    expect(problemsOf(line({ ...ok, relevant: [ok.relevant[0], ok.relevant[0]] }))).toContain('dev.jsonl:1: relevant[1]: duplicate target internal/AsyncSubject.ts AsyncSubject');
    expect(problemsOf(line({ ...ok, query: 'x'.repeat(1001) }))).toContain('dev.jsonl:1: query: must be at most 1000 characters');
    expect(problemsOf('\n\n')).toContain('no queries');
  });

  it('reads the language a question is about from meta.language, and refuses one that is not a name', () => {
    const [go, none] = parseDataset([line({ ...ok, meta: { language: 'Go', literal: 'x' } }), line({ ...ok, id: 'q2' })].join('\n'));
    expect(queryLanguage(go)).toBe('Go');
    expect(queryLanguage(none)).toBeUndefined();
    expect(problemsOf(line({ ...ok, meta: { language: 3 } }))).toContain('dev.jsonl:1: meta.language: must be a non-empty string');
  });
});
