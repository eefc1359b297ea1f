import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PackedBindings } from '../parse/packed-bindings';
import { ParserService } from '../parse/parser.service';
import type { ParsedFile, TypedBinding } from '../parse/types';
import { slim } from '../pipeline/parse-phase';
import { resolveRepository } from './resolver';
import { MissList } from './miss-list';
import { BindingTable } from './symbol-table';
import type { UnresolvedRef } from './types';

const b = (scopeId: string, name: string, typeName: string, member: boolean): TypedBinding => ({ scopeId, name, typeName, member });

describe('BindingTable (every scope\'s typed bindings in shared columns)', () => {
  const rows = [
    b('a.py#f|function', 'x', 'Repo', false),
    b('a.py#C|class', 'x', 'Client', true),
    b('a.py#g|function', 'y', 'Other', false),
    b('a.py#f|function', 'x', 'Shadowed', false),
    b('a.py#f|function', 'param q', 'param', false),
  ];

  for (const [form, input] of [['an array', rows], ['packed', PackedBindings.of(rows)]] as const) {
    it(`reads a file's bindings given as ${form}: per scope, first binding of a name wins, members apart`, () => {
      const local = new BindingTable();
      const member = new BindingTable();
      BindingTable.addFile(input, member, local);
      expect(local.get('a.py#f|function')?.get('x')).toBe('Repo');
      expect(local.get('a.py#f|function')?.has('param q')).toBe(true);
      expect(local.get('a.py#f|function')?.has('y')).toBe(false);
      expect(local.get('a.py#g|function')?.get('y')).toBe('Other');
      expect(local.get('a.py#C|class')).toBeUndefined();
      expect(member.get('a.py#C|class')?.get('x')).toBe('Client');
      expect(member.get('a.py#f|function')).toBeUndefined();
      expect([...local.get('a.py#f|function')!]).toEqual([['x', 'Repo'], ['param q', 'param']]);
      expect([...local].map(([id]) => id).sort()).toEqual(['a.py#f|function', 'a.py#g|function']);
    });
  }

  it('a scope with many bindings (a module\'s assignments) looks them up alike', () => {
    const many = Array.from({ length: 40 }, (_, k) => b('m.py#m.py|file', `value v${k % 30}`, `T${k}`, false));
    const t = new BindingTable();
    BindingTable.addFile(many, new BindingTable(), t);
    const s = t.get('m.py#m.py|file')!;
    for (let k = 0; k < 30; k++) expect(s.get(`value v${k}`)).toBe(`T${k}`);
    expect(s.get('value v30')).toBeUndefined();
    expect([...s]).toHaveLength(30);
  });
});

describe('PackedBindings', () => {
  it('reads back the bindings it was given, an unset member flag unset', () => {
    const given = [b('a#f', 'x', 'T', false), b('a#C', 'y', 'U', true), { scopeId: 'a#g', name: 'z', typeName: 'V' } as TypedBinding];
    const p = PackedBindings.of(given);
    expect(p.length).toBe(3);
    expect([...p]).toEqual(given);
    expect([...p][2]).not.toHaveProperty('member');
    expect(p.some((x) => x.member === true)).toBe(true);
    expect(p.filter((x) => x.name === 'z')).toEqual([given[2]]);
  });
});

describe('resolution over parses kept for resolution (slim: bindings packed)', () => {
  const ROOT = join(__dirname, '../../../../test/fixtures/polyglot-repo');
  const list = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(dir, e.name)) : [join(dir, e.name)]));
  let files: ParsedFile[];

  beforeAll(async () => {
    const parser = new ParserService();
    await parser.init();
    files = list(ROOT).map((f) => relative(ROOT, f).split('\\').join('/')).filter((p) => parser.supports(p)).sort()
      .map((p) => parser.parseFile(p, readFileSync(join(ROOT, p), 'utf8')));
  });

  it('gives every language the edges and misses it gives over the parses as made', () => {
    const slimmed = files.map(slim);
    expect(slimmed.some((f) => f.bindings instanceof PackedBindings && f.bindings.length > 0)).toBe(true);
    const asMade = resolveRepository(files);
    const kept = resolveRepository(slimmed);
    expect(kept.edges).toEqual(asMade.edges);
    expect(kept.unresolved).toEqual(asMade.unresolved);
    expect(kept.fileImports).toEqual(asMade.fileImports);
    expect(asMade.edges.length).toBeGreaterThan(100);
  });
});

describe('MissList (misses in columns)', () => {
  it('reads back each miss as it was pushed, origin only where given, and selects by source scope', () => {
    const given: UnresolvedRef[] = [
      { fromId: 'a.py#f|function', type: 'CALLS', targetName: 'requests.get', line: 3, reason: 'external', resolver: 'fast', origin: 'requests' },
      { fromId: 'b.py#g|function', type: 'REFERENCES', targetName: 'Thing', line: 70000, reason: 'not-found', resolver: 'precise' },
      { fromId: 'a.py#f|function', type: 'CALLS', targetName: 'len', line: 4, reason: 'builtin', resolver: 'fast' },
    ];
    const many = Array.from({ length: 600 }, (_, k) => ({ ...given[k % 3], line: k + 1 }));
    const list = MissList.of(many);
    expect(list.length).toBe(600);
    expect([...list]).toEqual(many);
    expect(list.at(1)).not.toHaveProperty('origin');
    expect(list.at(600)).toBeUndefined();
    expect(list.reasonAt(2)).toBe('builtin');
    expect(list.fromIdAt(1)).toBe('b.py#g|function');
    expect([...list.select((id) => id.startsWith('b.py'))]).toEqual(many.filter((u) => u.fromId.startsWith('b.py')));
    expect(list.find((u) => u.line === 70000)).toBeUndefined();
    expect(list.filter((u) => u.reason === 'external')).toHaveLength(200);
  });
});
