import type { ScopeRecord } from '../search.types';
import { FILE_CALL_SHARE, FILE_SECOND_SHARE, fileRollup, nameSpellings, PROSE_EMBED_CHARS, proseEmbedText, proseQuery, SIBLING_SHARE, siblingFiles, withSiblings } from './localizer';
import { extractSignals } from './signals';

const scope = (path: string, qualifiedName: string) => ({ repoId: 'r', path, qualifiedName }) as ScopeRecord;

describe('LOCALIZE helpers', () => {
  it('files ranked by their best function; a second function counts a fifth, further ones only break a tie', () => {
    const files = fileRollup([
      { scope: scope('a.py', 'f'), score: 0.5 },
      { scope: scope('b.py', 'g'), score: 0.4 },
      { scope: scope('b.py', 'h'), score: 0.39 },
      { scope: scope('c.py', 'i'), score: 0.4 },
    ]);
    expect(files.map((f) => [f.path, f.rank])).toEqual([['a.py', 1], ['b.py', 2], ['c.py', 3]]);
    expect(files[1].functions).toEqual(['g', 'h']);
    expect(files[1].score).toBeCloseTo(0.4 + FILE_SECOND_SHARE * 0.39, 4);
    // Two strong functions beat one slightly stronger lone function.
    const two = fileRollup([
      { scope: scope('lone.py', 'f'), score: 0.5 },
      { scope: scope('pair.py', 'g'), score: 0.45 },
      { scope: scope('pair.py', 'h'), score: 0.4 },
      { scope: scope('pair.py', 'k'), score: 0.4 },
    ]);
    expect(two.map((f) => f.path)).toEqual(['pair.py', 'lone.py']);
    expect(two[0].score).toBeCloseTo(0.45 + FILE_SECOND_SHARE * 0.4, 4);
  });

  it('a file the best functions call into rises by its call evidence (top-neighbor), not by other evidence', () => {
    const call = (c: number) => [{ signal: 'top-neighbor', contribution: c }];
    const files = fileRollup([
      { scope: scope('card.js', 'render'), score: 0.8 },
      { scope: scope('fetcher.js', 'fetch'), score: 0.3, evidence: [{ signal: 'prose', contribution: 0.3 }] },
      { scope: scope('utils.js', 'wrapText'), score: 0.12, evidence: call(0.12) },
      { scope: scope('utils.js', 'encodeHTML'), score: 0.12, evidence: call(0.12) },
      { scope: scope('utils.js', 'kFormatter'), score: 0.12, evidence: call(0.12) },
    ]);
    expect(files.map((f) => f.path)).toEqual(['card.js', 'utils.js', 'fetcher.js']);
    expect(files[1].score).toBeCloseTo(0.12 + FILE_SECOND_SHARE * 0.12 + FILE_CALL_SHARE * 0.36, 4);
    // Without the call evidence the same scores leave utils.js below the fetcher.
    const plain = fileRollup([
      { scope: scope('card.js', 'render'), score: 0.8 },
      { scope: scope('fetcher.js', 'fetch'), score: 0.3 },
      { scope: scope('utils.js', 'wrapText'), score: 0.12 },
      { scope: scope('utils.js', 'encodeHTML'), score: 0.12 },
    ]);
    expect(plain.map((f) => f.path)).toEqual(['card.js', 'fetcher.js', 'utils.js']);
  });

  it('dotted mentions are looked up whole, then by their last two and last parts', () => {
    expect(nameSpellings('requests.sessions.Session.request').map((s) => s.name)).toEqual(['requests.sessions.Session.request', 'Session.request', 'request']);
  });

  it('the prose query keeps the title, the prose and the strongest names within the query limit', () => {
    const q = proseQuery(extractSignals(`Session.request drops the timeout\n${'words '.repeat(400)}\nsee \`merge_environment_settings\``), 1_000);
    expect(q.length).toBeLessThanOrEqual(1_000);
    expect(q.startsWith('Session.request drops the timeout')).toBe(true);
    expect(q).toMatch(/merge_environment_settings/);
  });

  it('the embedded prose is its opening within the embedding bound, cut between words, names kept', () => {
    const signals = extractSignals(`Session.request drops the timeout\n${'paragraphs '.repeat(400)}\nsee \`merge_environment_settings\``);
    const embedded = proseEmbedText(signals);
    expect(embedded.length).toBeLessThanOrEqual(PROSE_EMBED_CHARS);
    expect(embedded.length).toBeGreaterThan(PROSE_EMBED_CHARS / 2);
    expect(embedded.startsWith('Session.request drops the timeout')).toBe(true);
    expect(embedded).toMatch(/\nmerge_environment_settings Session\.request$/);
    expect(embedded.split('\n')[1].split(' ').every((w) => w === 'paragraphs')).toBe(true);
    // An issue template's HTML comments are left out of the embedded opening.
    const templated = extractSignals(`[Bug] Base64 padding breaks themes\n<!--\n  Do not delete this template!\n-->\n\n# Bug Report\nThe regex matches padded base64 images. ${'More words. '.repeat(60)}`);
    expect(proseEmbedText(templated)).not.toMatch(/template/);
    expect(proseEmbedText(templated)).toMatch(/^\[Bug\] Base64 padding breaks themes\s+# Bug Report\nThe regex matches padded base64 images\./);
    // A short issue is embedded whole, as its keyword list reads it.
    const short = extractSignals('Session.request drops the timeout');
    expect(proseEmbedText(short)).toBe(proseQuery(short, 1_000));
  });
});

describe('LOCALIZE file siblings', () => {
  const file: Record<string, string> = { a1: 'a.py', a2: 'a.py', b1: 'b.py', c1: 'c.py', d1: 'd.py' };
  const ranked = [
    { id: 'a1', score: 1, evidence: [] },
    { id: 'b1', score: 0.8, evidence: [] },
    { id: 'a2', score: 0.5, evidence: [] },
    { id: 'c1', score: 0.4, evidence: [] },
    { id: 'd1', score: 0.39, evidence: [] },
  ];
  it('takes the best files with their best score', () => {
    expect(siblingFiles(ranked, (id) => ({ repoId: 'r', path: file[id] }))).toEqual([
      { repoId: 'r', path: 'a.py', best: 1 },
      { repoId: 'r', path: 'b.py', best: 0.8 },
      { repoId: 'r', path: 'c.py', best: 0.4 },
    ]);
  });
  it('lends every function of those files a share of the file’s best, and brings in the ones no list found', () => {
    const files = siblingFiles(ranked, (id) => ({ repoId: 'r', path: file[id] }));
    const out = withSiblings(ranked, files, [
      { pathIndex: 0, id: 'a1' },
      { pathIndex: 0, id: 'a2' },
      { pathIndex: 0, id: 'a3' },
      { pathIndex: 2, id: 'c1' },
    ]);
    const score = Object.fromEntries(out.map((r) => [r.id, r.score]));
    expect(score.a2).toBeCloseTo(0.5 + SIBLING_SHARE * 1);
    expect(score.a3).toBeCloseTo(SIBLING_SHARE * 1);
    expect(score.d1).toBe(0.39);
    // a3 (no list found it) now outranks d1, which is in none of the best files.
    expect(out.findIndex((r) => r.id === 'a3')).toBeLessThan(out.findIndex((r) => r.id === 'd1'));
    expect(out.find((r) => r.id === 'a3')!.evidence[0]).toMatchObject({ signal: 'file-sibling', rank: 1 });
  });
});
