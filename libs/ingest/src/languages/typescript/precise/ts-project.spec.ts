import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ParserService } from '../../../parse/parser.service';
import type { ParsedFile } from '../../../parse/types';
import { resolveRepository } from '../../../resolve/resolver';
import type { ResolveResult } from '../../../resolve/types';
import { TsProjects } from './ts-project';

const ROOT = join(__dirname, '../../../../../../test/fixtures/polyglot-repo');
const S = (p: string, qualifiedName: string, kind: string) => `${p}#${qualifiedName}|${kind}`;
const RUN = S('ts/src/tracker.ts', 'Tracker.run', 'method');
const TRACK_ALL = S('ts/src/tracker.ts', 'trackAll', 'function');
const REACTION_TRACK = S('ts/src/reactions.ts', 'Reaction.track', 'method');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

const parser = new ParserService();
let files: ParsedFile[];

beforeAll(async () => {
  await parser.init();
  files = listFiles(ROOT)
    .map((f) => relative(ROOT, f).split('\\').join('/'))
    .filter((p) => parser.supports(p))
    .sort()
    .map((p) => parser.parseFile(p, readFileSync(join(ROOT, p), 'utf8')));
});

const callsFrom = (r: ResolveResult, from: string) => r.edges.filter((e) => e.type === 'CALLS' && e.fromId === from);

describe('precise TS/JS resolution (TypeScript checker)', () => {
  it('resolves receivers only inference can type, and records which resolver decided', () => {
    const fast = resolveRepository(files);
    // `this.reaction` is a field initialised by a call, `inferred` a local: no declared type.
    expect(callsFrom(fast, RUN)).toEqual([]);
    expect(fast.unresolved.filter((u) => u.fromId === RUN).map((u) => `${u.targetName}:${u.reason}`)).toEqual(['this.reaction.track:unknown-receiver']);

    const session = new TsProjects(1000).open('fixture', undefined, files);
    expect(session.stats).toMatchObject({ options: 'inferred', rechecked: 13 });
    const precise = resolveRepository(files, { precise: session.oracle });
    expect(callsFrom(precise, RUN)).toEqual([{ fromId: RUN, toId: REACTION_TRACK, type: 'CALLS', line: 15, resolver: 'precise' }]);
    expect(precise.unresolved.find((u) => u.fromId === TRACK_ALL && u.targetName === 'inferred.track')).toBeUndefined();
    // what the fast resolver pins stays `fast`; nothing it pinned is lost or moved
    const key = (e: { fromId: string; toId: string; type: string }) => `${e.type} ${e.fromId} -> ${e.toId}`;
    const preciseKeys = new Set(precise.edges.map(key));
    expect(fast.edges.map(key).filter((k) => !preciseKeys.has(k))).toEqual([]);
    // trackAll's edge to Reaction.track is backed by both `reaction.track()` (fast) and
    // `inferred.track()` (only the compiler): an edge any precise answer backs is `precise`.
    expect(precise.edges.filter((e) => e.resolver === 'precise').map(key).sort()).toEqual([
      `CALLS ${RUN} -> ${REACTION_TRACK}`,
      `CALLS ${TRACK_ALL} -> ${REACTION_TRACK}`,
    ]);
    expect(precise.edges.find((e) => e.type === 'IMPORTS')?.resolver).toBeUndefined();
  });

  it('asked first, the compiler pins every TS reference the fast resolver pins, to the same scopes', () => {
    const session = new TsProjects(1000).open('fixture-first', undefined, files);
    const first = resolveRepository(files, { precise: session.oracle, preciseFirst: true, collectOutcomes: true });
    const fast = resolveRepository(files, { collectOutcomes: true });
    const ts = (o: { path: string }) => o.path.startsWith('ts/');
    const fastPinned = fast.outcomes!.filter((o) => ts(o) && o.targetIds);
    const byRef = new Map(first.outcomes!.map((o) => [`${o.ref.fromId} ${o.ref.kind} ${o.ref.targetName}`, o]));
    for (const f of fastPinned) {
      const p = byRef.get(`${f.ref.fromId} ${f.ref.kind} ${f.ref.targetName}`)!;
      expect({ ref: f.ref.targetName, resolver: p.resolver, targets: p.targetIds }).toEqual({ ref: f.ref.targetName, resolver: 'precise', targets: f.targetIds });
    }
    expect(fastPinned.length).toBeGreaterThan(30);
  });

  it('re-checks only changed files and their importers, and re-resolves those importers', () => {
    const projects = new TsProjects(1000);
    const first = resolveRepository(files, { precise: projects.open('repo', undefined, files).oracle });
    expect(callsFrom(first, TRACK_ALL).map((e) => e.toId)).toContain(REACTION_TRACK);

    // makeReaction() now returns another class: tracker.ts is unchanged, but what `inferred.track()`
    // and `this.reaction.track()` call moved.
    const edited = files.map((f) => {
      if (f.path !== 'ts/src/reactions.ts') return f;
      const source = f.scopes[0].source
        .replace('export function makeReaction(): Reaction {\n  return new Reaction();', 'export function makeReaction(): Eager {\n  return new Eager();')
        .concat('\nexport class Eager {\n  track(value: number): boolean {\n    return value >= 0;\n  }\n}\n');
      return parser.parseFile(f.path, source);
    });
    const session = projects.open('repo', undefined, edited);
    // reactions.ts, and what imports it directly or not: internal.ts (the barrel) and tracker.ts
    expect(session.stats.rechecked).toBe(3);
    const second = resolveRepository(edited, { precise: session.oracle });
    const eagerTrack = S('ts/src/reactions.ts', 'Eager.track', 'method');
    expect(callsFrom(second, RUN).map((e) => e.toId)).toEqual([eagerTrack]);
    expect(callsFrom(second, TRACK_ALL).map((e) => e.toId)).toEqual(expect.arrayContaining([eagerTrack, REACTION_TRACK]));

    // nothing changed: nothing re-checked, same answers
    const third = projects.open('repo', undefined, edited);
    expect(third.stats.rechecked).toBe(0);
    expect(resolveRepository(edited, { precise: third.oracle }).edges).toEqual(second.edges);
  });

  it('leaves repositories above the file limit to the fast resolver, visibly', () => {
    const session = new TsProjects(3).open('big', undefined, files);
    expect(session.oracle).toBeUndefined();
    expect(session.stats.skipped).toMatch(/TS\/JS files > limit 3/);
  });
});
