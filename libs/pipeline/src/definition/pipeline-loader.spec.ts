import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadPipelineDir, parsePipeline, PipelineDefinitionError, RawPipeline, resolvePipeline, validatePipelineText } from './pipeline-loader';

const SETTINGS = `
    entry_step_id: a
    max_context_tokens: 100
    max_history_tokens: 50
    max_turn_loops: 2
    graph_max_depth: 1
    graph_max_nodes: 10
    graph_edge_allowlist: [CALLS]
    node_text_fetch_top_n: 2
    node_text_chars: 100
    retrieval_top_k: 5
    retrieval_modes: [hybrid]
    corrective: { threshold: 0.3, max_retries: 1, nested: { keep: 1, change: 1 } }`;

const ROOT = `pipeline:
  name: root
  settings:${SETTINGS}
  steps:
    - { id: a, action: translate_in_if_needed, next: b }
    - { id: b, action: load_conversation_history, next: c }
    - { id: c, action: finalize }
`;

function known(...texts: Array<[string, string]>): Map<string, RawPipeline> {
  const map = new Map<string, RawPipeline>();
  for (const [file, text] of texts) {
    const raw = parsePipeline(text, file);
    map.set(raw.name, raw);
  }
  return map;
}

function issuesOf(work: () => unknown) {
  try {
    work();
  } catch (error) {
    if (error instanceof PipelineDefinitionError) return error.issues;
    throw error;
  }
  throw new Error('expected a PipelineDefinitionError');
}

describe('pipeline loader', () => {
  const MID = `pipeline:
  name: mid
  extends: root
  settings:
    max_turn_loops: 4
    corrective: { nested: { change: 2 } }
  steps:
    - { id: b, action: check_context_budget, with: { target: history }, on_ok: c, on_over_limit: d }
    - { id: d, action: call_model, with: { prompt: history_summary }, next: c }
`;
  const LEAF = `pipeline:
  name: leaf
  extends: mid
  settings:
    graph_edge_allowlist: [EXTENDS, IMPLEMENTS]
  steps:
    - { id: c, action: persist_turn_and_finalize }
`;

  it('resolves three levels of extends root first: settings deep-merged, steps replaced or added by id', () => {
    const p = resolvePipeline('leaf', known(['root.yaml', ROOT], ['mid.yaml', MID], ['leaf.yaml', LEAF]));
    expect(p.lineage).toEqual(['root', 'mid', 'leaf']);
    expect(p.settings.max_turn_loops).toBe(4); // mid overrides root
    expect(p.settings.max_context_tokens).toBe(100); // only in root: kept
    expect(p.settings.graph_edge_allowlist).toEqual(['EXTENDS', 'IMPLEMENTS']); // lists are replaced whole
    expect(p.settings.corrective).toEqual({ threshold: 0.3, max_retries: 1, nested: { keep: 1, change: 2 } });
    const byId = Object.fromEntries(p.steps.map((s) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(byId.b).toMatchObject({ action: 'check_context_budget', branches: { ok: 'c', over_limit: 'd' } }); // replaced by mid
    expect(byId.d.action).toBe('call_model'); // added by mid
    expect(byId.c.action).toBe('persist_turn_and_finalize'); // replaced by leaf
    expect(p.warnings).toEqual([]);
  });

  it('refuses a cycle in extends, naming the file and the field', () => {
    const a = 'pipeline:\n  name: x\n  extends: y\n';
    const b = 'pipeline:\n  name: y\n  extends: x\n';
    expect(issuesOf(() => resolvePipeline('x', known(['x.yaml', a], ['y.yaml', b])))).toEqual([{ file: 'y.yaml', field: 'extends', message: 'extends forms a cycle: x -> y -> x' }]);
  });

  it('refuses an unknown parent', () => {
    expect(issuesOf(() => resolvePipeline('x', known(['x.yaml', 'pipeline:\n  name: x\n  extends: ghost\n'])))).toEqual([
      { file: 'x.yaml', field: 'extends', message: 'extends unknown pipeline "ghost"' },
    ]);
  });

  it('refuses a missing or unknown entry step', () => {
    const noEntry = ROOT.replace('entry_step_id: a', 'entry_step_id: zz');
    expect(issuesOf(() => resolvePipeline('root', known(['r.yaml', noEntry])))).toContainEqual({ file: 'r.yaml', field: 'settings.entry_step_id', message: 'names no step ("zz")' });
  });

  it('refuses next and branch targets that do not exist, naming the step and the field', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  steps:\n    - { id: a, action: translate_in_if_needed, next: nowhere }\n    - { id: b, action: loop_guard, on_ok: c, on_exhausted: gone }\n';
    expect(issuesOf(() => resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])))).toEqual([
      { file: 'k.yaml', stepId: 'a', field: 'next', message: 'names no step ("nowhere")' },
      { file: 'k.yaml', stepId: 'b', field: 'on_exhausted', message: 'names no step ("gone")' },
    ]);
  });

  it('refuses a non-final step that has no transition for one of its outcomes (the run would end unanswered)', () => {
    const child =
      'pipeline:\n  name: k\n  extends: root\n  steps:\n' +
      '    - { id: b, action: check_context_budget, with: { target: history }, on_ok: c }\n' +
      '    - { id: d, action: handle_prefix, with: { protocol: router }, on_retrieve: c }\n';
    const issues = issuesOf(() => resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])));
    expect(issues).toEqual([
      { file: 'k.yaml', stepId: 'b', field: 'on_over_limit', message: 'is missing: check_context_budget can end with "over_limit" and the step has no next' },
      { file: 'k.yaml', stepId: 'd', field: 'on_direct', message: 'is missing: handle_prefix can end with "direct" and the step has no next' },
    ]);
  });

  it('lets a run end on finalize or persist, and a next cover every outcome', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  steps:\n    - { id: b, action: loop_guard, on_exhausted: c, next: a }\n    - { id: c, action: persist_turn_and_finalize }\n';
    expect(resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])).warnings).toEqual([]);
  });

  it('reports unreachable steps as warnings', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  steps:\n    - { id: orphan, action: finalize }\n';
    expect(resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])).warnings).toEqual([
      { file: 'k.yaml', stepId: 'orphan', message: 'is unreachable from entry step "a"' },
    ]);
  });

  it.each([
    ['an unknown action', '    - { id: s, action: launch_rockets }', { stepId: 's', field: 'action' }],
    ['an unknown step field', '    - { id: s, action: finalize, then: x }', { stepId: 's', field: 'then' }],
    ['a step id defined twice', '    - { id: s, action: finalize }\n    - { id: s, action: finalize }', { stepId: 's', field: 'id' }],
    ['an unknown parameter', '    - { id: s, action: call_model, with: { temperature: 2 } }', { stepId: 's', field: 'with.temperature' }],
    ['a parameter value out of its set', '    - { id: s, action: call_model, with: { prompt: poem } }', { stepId: 's', field: 'with.prompt' }],
    ['a branch that is not a step id', '    - { id: s, action: loop_guard, on_ok: [a] }', { stepId: 's', field: 'on_ok' }],
  ])('refuses %s', (_what, step, where) => {
    const issues = issuesOf(() => parsePipeline(`pipeline:\n  name: k\n  steps:\n${step}\n`, 'k.yaml'));
    expect(issues[0]).toMatchObject({ file: 'k.yaml', ...where });
  });

  it('refuses settings of the wrong type after the merge', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  settings:\n    max_turn_loops: -1\n    corrective: { threshold: high }\n';
    const fields = issuesOf(() => resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child]))).map((i) => i.field);
    expect(fields).toEqual(['settings.max_turn_loops', 'settings.corrective']);
  });

  it('refuses text that is not YAML or not a pipeline', () => {
    expect(issuesOf(() => parsePipeline('pipeline: [unclosed', 'bad.yaml'))[0].message).toMatch(/not valid YAML/);
    expect(issuesOf(() => parsePipeline('steps: []', 'bad.yaml'))[0]).toMatchObject({ field: 'pipeline' });
    // An alias without its anchor (found by the API fuzz: it answered INTERNAL_SERVER_ERROR).
    expect(issuesOf(() => parsePipeline('*:*', 'bad.yaml'))[0].message).toMatch(/not valid YAML: Unresolved alias/);
  });

  it('refuses YAML warnings (an unknown tag) instead of printing them to stderr', () => {
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(issuesOf(() => parsePipeline('pipeline: !custom\n  name: k', 'tag.yaml'))[0].message).toMatch(/^is not valid YAML: .*!custom/);
      expect(emitted).not.toHaveBeenCalled();
    } finally {
      emitted.mockRestore();
    }
  });

  it('validates user YAML against the shipped pipelines, which it may extend', () => {
    const shipped = known(['root.yaml', ROOT]);
    expect(validatePipelineText('pipeline:\n  name: mine\n  extends: root\n', shipped).lineage).toEqual(['root', 'mine']);
  });

  it('refuses a pipeline without entry_step_id after the merge', () => {
    const noEntry = ROOT.replace('    entry_step_id: a\n', '');
    expect(issuesOf(() => resolvePipeline('root', known(['r.yaml', noEntry])))).toContainEqual({ file: 'r.yaml', field: 'settings.entry_step_id', message: 'is required and must name a step' });
  });

  it('refuses an edge allow-list that is not a list of edge types', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  settings:\n    graph_edge_allowlist: CALLS\n';
    expect(issuesOf(() => resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])))).toEqual([{ file: 'k.yaml', field: 'settings.graph_edge_allowlist', message: 'must be a list of edge types' }]);
  });

  it('refuses unknown edge types and settings past what the search accepts', () => {
    const child = 'pipeline:\n  name: k\n  extends: root\n  settings:\n    graph_edge_allowlist: [CALLS, CALLED_BY]\n    retrieval_top_k: 500\n    graph_max_depth: 4\n    graph_max_nodes: 1000\n';
    expect(issuesOf(() => resolvePipeline('k', known(['root.yaml', ROOT], ['k.yaml', child])))).toEqual([
      { file: 'k.yaml', field: 'settings.graph_edge_allowlist', message: expect.stringMatching(/^must list edge types of .*CALLS.*\(unknown: CALLED_BY\)$/) },
      { file: 'k.yaml', field: 'settings.retrieval_top_k', message: 'must be at most 200 (the search\'s limit)' },
      { file: 'k.yaml', field: 'settings.graph_max_depth', message: 'must be at most 3 (the search\'s limit)' },
      { file: 'k.yaml', field: 'settings.graph_max_nodes', message: 'must be at most 200 (the search\'s limit)' },
    ]);
  });

  describe('a pipelines/ folder (what the boot loads)', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipelines-'));
      fs.writeFileSync(path.join(dir, 'root.yaml'), ROOT);
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = (name: string) => path.join(path.basename(dir), name);

    it('refuses two files defining the same pipeline name, naming both', () => {
      fs.writeFileSync(path.join(dir, 'root-copy.yaml'), ROOT);
      expect(issuesOf(() => loadPipelineDir(dir))).toEqual([{ file: file('root.yaml'), field: 'name', message: `pipeline "root" is also defined in ${file('root-copy.yaml')}` }]);
    });

    it('fails the whole load on one bad file, with every issue naming its file, step and field', () => {
      fs.writeFileSync(path.join(dir, 'good.yaml'), 'pipeline:\n  name: good\n  extends: root\n');
      fs.writeFileSync(path.join(dir, 'bad.yaml'), 'pipeline:\n  name: bad\n  extends: root\n  steps:\n    - { id: c, action: finalize, next: missing }\n');
      expect(issuesOf(() => loadPipelineDir(dir))).toEqual([{ file: file('bad.yaml'), stepId: 'c', field: 'next', message: 'names no step ("missing")' }]);
    });

    it('ignores files that are not .yaml', () => {
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a pipeline');
      expect([...loadPipelineDir(dir).keys()]).toEqual(['root']);
    });
  });

  it('loads and validates the shipped pipelines/ folder', () => {
    const all = loadPipelineDir(path.resolve(__dirname, '../../../../pipelines'));
    expect([...all.keys()].sort()).toEqual(['base', 'compact', 'thorough']);
    expect(all.get('compact')!.lineage).toEqual(['base', 'thorough', 'compact']);
    for (const p of all.values()) expect(p.warnings).toEqual([]);
  });
});
