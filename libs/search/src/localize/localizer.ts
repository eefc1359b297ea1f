import { rrfContribution } from '../fusion/rrf';
import { phraseOnlyQuery, queryPhrases } from '../query/lucene';
import type { CypherFilters, SearchRepository } from '../search.repository';
import { SEARCH_CYPHER } from '../search.repository';
import type { FileRollup, LocalizeEvidence, LocalizeExplain, ScopeRecord, SearchResponse } from '../search.types';
import { RepoPathIndex } from './paths';
import { type IssueSignals, type StackFrame } from './signals';
import { derivedNames, USAGE_HITS, usageQuery, usageTerms } from './usage';

/** What LOCALIZE ranks: the code a fix changes. */
export const CALLABLE_KINDS = ['function', 'method', 'constructor'];
/** What an identifier may name: callables, and types whose members then get evidence too. */
const NAMED_KINDS = [...CALLABLE_KINDS, 'class', 'interface'];

/**
 * Weights of the lists in the fusion (weighted RRF). A frame names the very function that ran; a name
 * the issue spells is nearly as strong; a quoted message is found verbatim in the scope that emits
 * it; the prose search (hybrid over title and description) finds what the words describe. Spreading
 * over the graph adds weaker evidence: the frames' callees and callers, the members of a named class,
 * the overriders of a named method, the functions of a named file.
 */
export const LOCALIZE_WEIGHTS = {
  frame: 4,
  name: 3,
  phrase: 2.5,
  code: 2.5,
  prose: 3,
  frameNeighbor: 0.75,
  nameNeighbor: 0.5,
  member: 1,
  overrider: 0.75,
  path: 1,
  usage: 1,
} as const;
/** Lists whose items are equals (every function of a named file): each counts as rank 1 with this share. */
const FLAT_LISTS: Partial<Record<LocalizeListName, number>> = { path: 0.5 };
export { commonPathWords, filePrior, isTestPath, issueWords, TEST_FILE_FACTOR } from './priors';
export type LocalizeListName = keyof typeof LOCALIZE_WEIGHTS;

/** RRF constant of the fusion (as hybrid's: the first ranks of a list count clearly more). */
const RRF_K = 10;
/** Caps on what each list reads, so a long issue costs bounded work. */
const PER_NAME = 15;
const PER_CLASS = 25;
const PER_SEED = 8;
export const PER_FILE = 40;
const SEEDS = 10;
/** Named functions whose callees and callers get evidence, and how common a name may be to count. */
const NAME_SEEDS = 5;
const NAME_SEED_MAX_MATCHES = 3;
const PHRASE_HITS = 20;
/** Hits of the prose search. */
export const PROSE_HITS = 60;
/** Frames of one file and line count once. */
const MAX_FRAME_QUERIES = 60;
/** How much a spelling that matches many scopes counts: 1 / (matches ^ this). */
const AMBIGUITY_EXPONENT = 0.5;
/** A class the prose search found lends its members this share of a named class's evidence. */
const PROSE_CLASS_SHARE = 0.3;
/**
 * File roll-up: a file's score is its best function's, plus FILE_SECOND_SHARE of its second best's,
 * plus FILE_CALL_SHARE of the call evidence its functions got from the best functions (`top-neighbor`:
 * the file holds what the strongest functions call, or calls them). A fix spread over files changes
 * the helper the renderer calls (`utils.js` for `repo-card.js`) and the parser the theme generator
 * calls (`parse.ts`): files the evidence reaches through several functions and through the best
 * functions' calls, where one function alone ranks them below a file with one lucky prose hit.
 * Measured on the whole dev set (bench/localize/README.md, "Fourth measurement"): second-best shares
 * 0.2-0.3 with call shares 0.3-1.0 all gave the same file Acc@5 and Acc@1 (a plateau; 0.2 / 0.5 is
 * its middle), 1.5 lost; summing every further function was worse (an earlier measurement).
 */
export const FILE_SECOND_SHARE = 0.2;
export const FILE_CALL_SHARE = 0.5;
const FILE_TIE_SHARE = 1e-6;

interface ListItem {
  id: string;
  evidence: Omit<LocalizeEvidence, 'rank' | 'contribution'>;
  /** Scales the RRF contribution (an ambiguous name counts less). */
  strength?: number;
}

export interface LocalizeInput {
  signals: IssueSignals;
  filters: CypherFilters;
  files: { repoId: string; path: string }[];
  /**
   * The hybrid search over the prose (proseQuery: title, description, names), already started by the
   * caller so that it overlaps the filters and the signal lists; null when there is no prose.
   */
  prose: Promise<SearchResponse | null>;
  limit: number;
  /** Ranked scopes whose records are read (the ranking's head), and their source characters (null: whole). */
  headDepth: number;
  sourceChars: number | null;
}

export interface LocalizeOutcome {
  ranked: { id: string; score: number; evidence: LocalizeEvidence[] }[];
  /** The records of the ranking's first `headDepth` scopes (and of a few more). */
  records: Map<string, ScopeRecord>;
  explain: Omit<LocalizeExplain, 'chosenBy'>;
  proseWarnings: string[];
}

/** The spellings of a mention to look up: as written, then shorter dotted tails (`a.b.C.m` -> `C.m`, `m`). */
export function nameSpellings(identifier: string): { name: string; strength: number }[] {
  const parts = identifier.split('.').filter(Boolean);
  const out: { name: string; strength: number }[] = [{ name: identifier, strength: 1 }];
  if (parts.length >= 3) out.push({ name: parts.slice(-2).join('.'), strength: 0.9 });
  if (parts.length >= 2) out.push({ name: parts[parts.length - 1], strength: 0.6 });
  return out;
}

/** The text the prose search gets: title, description and the strongest names, within the query limit. */
export function proseQuery(signals: IssueSignals, maxChars: number): string {
  const names = signals.identifiers.slice(0, 8).join(' ');
  const body = signals.prose.startsWith(signals.title) ? signals.prose : `${signals.title}\n${signals.prose}`;
  const text = names ? `${body}\n${names}` : body;
  if (text.length <= maxChars) return text;
  const room = maxChars - names.length - 1;
  return names && room > 100 ? `${body.slice(0, room)}\n${names}` : text.slice(0, maxChars);
}

/**
 * Characters of the prose LOCALIZE embeds (title, the description's opening, the names), where its
 * keyword list reads the whole prose text: the local model's cost grows with the tokens (~122 tokens
 * here against 256, the model's cap, that the 1,000-character text filled; 128 cost ~0.4x of 256 on
 * this machine). On the dev set 250, 300, 400 and 1,000 characters gave the same function Acc@10 and
 * file Acc@5 within one issue (bench/localize/README.md, latency section).
 */
export const PROSE_EMBED_CHARS = 250;

/** The text the prose search embeds: proseQuery within PROSE_EMBED_CHARS, its description cut between words. */
export function proseEmbedText(issue: IssueSignals, maxChars = PROSE_EMBED_CHARS): string {
  // An issue template's HTML comments (its instructions to the reporter) are not shown on the issue
  // page and say nothing about the bug: the bounded text keeps the reporter's words instead.
  const signals = { ...issue, prose: issue.prose.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').replace(/\n\s*\n(\s*\n)+/g, '\n\n') };
  const text = proseQuery(signals, maxChars);
  if (text === proseQuery(signals, Number.POSITIVE_INFINITY)) return text;
  const names = signals.identifiers.slice(0, 8).join(' ');
  const withNames = names !== '' && text.endsWith(`\n${names}`);
  const body = withNames ? text.slice(0, -names.length - 1) : text;
  // proseQuery cuts inside a word: a word piece would only add noise to the vector.
  const cut = body.search(/\s\S*$/);
  const kept = cut > body.length / 2 ? body.slice(0, cut) : body;
  return withNames ? `${kept}\n${names}` : kept;
}

/**
 * Runs each signal where it is strongest, fuses the lists by weighted RRF and keeps functions and
 * methods, each with the evidence that brought it.
 */
export async function localize(repo: SearchRepository, input: LocalizeInput): Promise<LocalizeOutcome> {
  const { signals, filters } = input;
  // Wall time of each list's query and of each phase (lists overlap: the phases are what add up).
  const stages: Record<string, number> = {};
  const timed = <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    return work().finally(() => (stages[stage] = round1(performance.now() - t0)));
  };
  let t0 = performance.now();
  const pathIndex = new RepoPathIndex(input.files);

  // Frames -> repository files (a frame in a library or the standard library matches none).
  const frameRows: { frame: number; repoId: string; path: string; line: number | null; name: string | null }[] = [];
  const frameLabel = new Map<number, string>();
  const seenFrame = new Set<string>();
  signals.frames.forEach((f, i) => {
    if (!f.path || frameRows.length >= MAX_FRAME_QUERIES) return;
    const matched = pathIndex.match(f.path);
    if (!matched) return;
    const name = f.function ? f.function.split(/[.:]+/).pop() ?? null : null;
    const key = `${matched.repoId}\u0000${matched.path}\u0000${f.line ?? name}`;
    if (seenFrame.has(key) || (f.line === null && !name)) return;
    seenFrame.add(key);
    frameRows.push({ frame: i, repoId: matched.repoId, path: matched.path, line: f.line, name });
    frameLabel.set(i, frameText(f, matched.path));
  });

  // Identifiers -> spellings, strongest mention first.
  const spellings: { name: string; strength: number; mention: string }[] = [];
  const seenSpelling = new Set<string>();
  for (const id of signals.identifiers) {
    for (const s of nameSpellings(id)) {
      if (seenSpelling.has(s.name) || s.name.length < 3) continue;
      seenSpelling.add(s.name);
      spellings.push({ ...s, mention: id });
    }
  }
  for (const d of derivedNames(signals)) {
    if (seenSpelling.has(d.name)) continue;
    seenSpelling.add(d.name);
    spellings.push(d);
  }
  const pathRows = signals.paths.map((p) => pathIndex.match(p)).filter((m): m is NonNullable<typeof m> => m !== null);
  const phrases = signals.strings.flatMap((s) => queryPhrases(`"${s.replace(/"/g, ' ')}"`)).slice(0, 8);
  const codePhrases = signals.codeLines.map((l) => codeWords(l)).filter((w) => w.length >= 2).slice(0, 8);
  const usage = usageTerms(signals);

  stages.prepare = round1(performance.now() - t0);
  t0 = performance.now();
  // Two chains at once, each as short as its dependencies allow: the signal lists and the graph
  // spreading they seed (three round trips after the filters), and the prose search (already
  // running: its own filters, the embedding, its lists and fetch); only the members of the classes
  // the prose search found wait for both.
  const signalChain = async () => {
    const [frameHits, nameHits, phraseHits, codeHits, pathHits, usageHits] = await Promise.all([
      timed('frame', () => repo.localizeFrameScopes(frameRows, CALLABLE_KINDS)),
      timed('name', () => repo.localizeNames(spellings.map((s) => s.name), filters.repoIds, NAMED_KINDS, PER_NAME)),
      phrases.length > 0 ? timed('phrase', () => repo.fullText(phraseOnlyQuery(phrases), { ...filters, kinds: CALLABLE_KINDS }, PHRASE_HITS)) : Promise.resolve([]),
      codePhrases.length > 0 ? timed('code', () => repo.fullText(phraseOnlyQuery(codePhrases), { ...filters, kinds: CALLABLE_KINDS }, PHRASE_HITS)) : Promise.resolve([]),
      timed('path', () => repo.localizeFileScopes(pathRows.map(({ repoId, path }) => ({ repoId, path })), CALLABLE_KINDS, PER_FILE)),
      usage.length > 0 ? timed('usage', () => repo.fullText(usageQuery(usage), { ...filters, kinds: CALLABLE_KINDS }, USAGE_HITS)) : Promise.resolve([]),
    ]);
    stages.lists = round1(performance.now() - t0);
    const t1 = performance.now();
    // Spreading: the frames' callees and callers, a named class's members, a named method's overriders.
    const frameSeeds = [...new Set(frameHits.map((h) => h.id))].slice(0, SEEDS);
    // The functions the issue names spread too, more weakly: the bug is often in what they call.
    const nameSeeds = [...new Set(nameHits.filter((h) => CALLABLE_KINDS.includes(h.kind) && h.total <= NAME_SEED_MAX_MATCHES && !frameSeeds.includes(h.id)).map((h) => h.id))].slice(0, NAME_SEEDS);
    const namedClasses = [...new Set(nameHits.filter((h) => h.kind === 'class' || h.kind === 'interface').map((h) => h.id))].slice(0, SEEDS);
    const namedMethods = [...new Set(nameHits.filter((h) => h.kind === 'method').map((h) => h.id))].slice(0, SEEDS);
    const [neighborHits, namedMemberHits, overriderHits] = await Promise.all([
      timed('neighbors', () => repo.localizeNeighbors([...frameSeeds, ...nameSeeds], CALLABLE_KINDS, PER_SEED)),
      timed('members', () => repo.localizeMembers(namedClasses, CALLABLE_KINDS, PER_CLASS)),
      timed('overriders', () => repo.graphOverriders(namedMethods, { ...filters, kinds: CALLABLE_KINDS }, PER_SEED)),
    ]);
    stages.spread = round1(performance.now() - t1);
    return { frameHits, nameHits, phraseHits, codeHits, pathHits, usageHits, frameSeeds, namedClasses, neighborHits, namedMemberHits, overriderHits };
  };
  const [chain, prose] = await Promise.all([signalChain(), timed('prose', () => input.prose)]);
  const { frameHits, nameHits, phraseHits, codeHits, pathHits, usageHits, frameSeeds, namedClasses, neighborHits, namedMemberHits, overriderHits } = chain;
  stages.signalsAndProse = round1(performance.now() - t0);
  t0 = performance.now();

  const rank = (memberHits: readonly { classIndex: number; fromName: string; id: string }[]) => {
    const lists: Record<LocalizeListName, ListItem[]> = {
      frame: frameHits.map((h) => ({ id: h.id, evidence: { signal: 'frame', detail: frameLabel.get(h.frame) ?? `frame ${h.frame}` } })),
      name: nameHits
        .filter((h) => CALLABLE_KINDS.includes(h.kind))
        .map((h) => {
          const s = spellings[h.nameIndex];
          return { id: h.id, strength: s.strength / Math.pow(Math.max(1, h.total), AMBIGUITY_EXPONENT), evidence: { signal: 'name', detail: s.name === s.mention ? s.name : `${s.name} (from ${s.mention})` } };
        }),
      phrase: phraseHits.map((h) => ({ id: h.id, evidence: { signal: 'phrase', detail: 'holds a message the issue quotes' } })),
      code: codeHits.map((h) => ({ id: h.id, evidence: { signal: 'code', detail: 'holds a line of code the issue quotes' } })),
      prose: (prose?.results ?? []).filter((h) => CALLABLE_KINDS.includes(h.scope.kind)).map((h) => ({ id: h.scope.id, evidence: { signal: 'prose', detail: proseDetail(h.scoreBreakdown) } })),
      frameNeighbor: neighborHits
        .filter((h) => h.seedIndex < frameSeeds.length)
        .map((h) => ({
          id: h.id,
          evidence: { signal: 'frame-neighbor', detail: h.direction === 'out' ? `called by ${h.fromName} (a frame)` : `calls ${h.fromName} (a frame)`, edge: 'CALLS', from: h.fromName },
        })),
      nameNeighbor: neighborHits
        .filter((h) => h.seedIndex >= frameSeeds.length)
        .map((h) => ({
          id: h.id,
          evidence: { signal: 'name-neighbor', detail: h.direction === 'out' ? `called by ${h.fromName} (named in the issue)` : `calls ${h.fromName} (named in the issue)`, edge: 'CALLS', from: h.fromName },
        })),
      member: memberHits.map((h) =>
        h.classIndex < namedClasses.length
          ? { id: h.id, evidence: { signal: 'member', detail: `member of ${h.fromName}, which the issue names`, edge: 'HAS_MEMBER', from: h.fromName } }
          : { id: h.id, strength: PROSE_CLASS_SHARE, evidence: { signal: 'member', detail: `member of ${h.fromName}, which the prose search found`, edge: 'HAS_MEMBER', from: h.fromName } },
      ),
      overrider: overriderHits.map((h) => ({ id: h.id, evidence: { signal: 'overrider', detail: 'overrides a method the issue names', edge: 'OVERRIDES', from: h.anchorId } })),
      path: pathHits.map((h) => ({ id: h.id, evidence: { signal: 'path', detail: `declared in ${pathRows[h.pathIndex].path}, which the issue names` } })),
      usage: usageHits.map((h) => ({ id: h.id, evidence: { signal: 'usage', detail: `its body uses names the issue spells (${usage.slice(0, 4).join(', ')})` } })),
    };
    const fused = new Map<string, { id: string; score: number; evidence: LocalizeEvidence[] }>();
    for (const name of Object.keys(lists) as LocalizeListName[]) {
      const seen = new Set<string>();
      let rank = 0;
      for (const item of lists[name]) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        rank++;
        const flat = FLAT_LISTS[name];
        const contribution = (flat !== undefined ? rrfContribution(LOCALIZE_WEIGHTS[name], RRF_K, 1) * flat : rrfContribution(LOCALIZE_WEIGHTS[name], RRF_K, rank)) * (item.strength ?? 1);
        const entry = fused.get(item.id) ?? { id: item.id, score: 0, evidence: [] };
        entry.score += contribution;
        entry.evidence.push({ ...item.evidence, rank, contribution: round(contribution) });
        fused.set(item.id, entry);
      }
    }
    const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    for (const r of ranked) r.evidence.sort((a, b) => b.contribution - a.contribution);
    return { lists, ranked };
  };
  // A class the prose search found lends its members a little evidence too (numbered after the named
  // classes). Their read, with the members' records, runs beside the read of the head's records
  // ranked without them: a scope those members do not hold can only move down when they join, so
  // every scope of the final head is in that head or among the members (one round trip, not two).
  const proseClasses = (prose?.results ?? []).filter((h) => h.scope.kind === 'class' && !namedClasses.includes(h.scope.id)).slice(0, 3).map((h) => h.scope.id);
  const headOf = (ranked: readonly { id: string }[]) => ranked.slice(0, input.headDepth).map((r) => r.id);
  let { lists, ranked } = rank(namedMemberHits);
  stages.fuse = round1(performance.now() - t0);
  let records: Map<string, ScopeRecord>;
  if (proseClasses.length === 0) {
    records = await timed('head', () => repo.scopesById(headOf(ranked), input.sourceChars));
  } else {
    const [memberRows, provisional] = await timed('head', () =>
      Promise.all([repo.localizeMemberRecords(proseClasses, CALLABLE_KINDS, PER_CLASS, input.sourceChars), repo.scopesById(headOf(ranked), input.sourceChars)]),
    );
    const t1 = performance.now();
    ({ lists, ranked } = rank([...namedMemberHits, ...memberRows.map((h) => ({ classIndex: h.classIndex + namedClasses.length, fromName: h.fromName, id: h.record.id }))]));
    stages.fuse += round1(performance.now() - t1);
    records = provisional;
    for (const m of memberRows) if (!records.has(m.record.id)) records.set(m.record.id, m.record);
  }

  return {
    ranked,
    records,
    proseWarnings: prose?.warnings ?? [],
    explain: {
      signals: {
        frames: signals.frames.length,
        framesInRepository: frameRows.length,
        identifiers: signals.identifiers,
        strings: signals.strings,
        codeSpans: signals.codeSpans.length,
        paths: signals.paths,
        proseChars: signals.prose.length,
      },
      lists: (Object.keys(lists) as LocalizeListName[]).map((name) => ({ name, weight: LOCALIZE_WEIGHTS[name], hits: new Set(lists[name].map((i) => i.id)).size, cypher: LIST_CYPHER[name] })),
      truncated: signals.truncated,
      prose: { text: proseQuery(signals, 1_000), embedded: proseEmbedText(signals), luceneQuery: prose?.explain.lists.find((l) => l.list === 'bm25')?.luceneQuery },
      stages,
    },
  };
}

const LIST_CYPHER: Record<LocalizeListName, string> = {
  frame: SEARCH_CYPHER.localizeFrameScopes,
  code: SEARCH_CYPHER.fullText,
  name: SEARCH_CYPHER.localizeNames,
  phrase: SEARCH_CYPHER.fullText,
  prose: 'hybrid search (see the hybrid explain)',
  frameNeighbor: SEARCH_CYPHER.localizeNeighbors,
  nameNeighbor: SEARCH_CYPHER.localizeNeighbors,
  member: SEARCH_CYPHER.localizeMembers,
  overrider: SEARCH_CYPHER.graphOverriders,
  path: SEARCH_CYPHER.localizeFileScopes,
  usage: SEARCH_CYPHER.fullText,
};

/**
 * File siblings: a fix is usually in the files the evidence points to, and it often changes a function
 * of such a file that no signal named (the constructor that must validate, the helper the renderer
 * calls). Every function of the SIBLING_FILES best files gains SIBLING_SHARE of its file's best score,
 * and those no list found join the ranking with that share alone. Measured on the whole dev set
 * (bench/localize/README.md): 3 files / 0.5 beat 1, 2, 4 or 5 files and shares 0.2-1.0.
 */
export const SIBLING_FILES = 3;
export const SIBLING_SHARE = 0.5;

export interface Ranked {
  id: string;
  score: number;
  evidence: LocalizeEvidence[];
}

/** The SIBLING_FILES best files of a ranking (best first) with their best score. */
export function siblingFiles(ranked: readonly Ranked[], fileOf: (id: string) => { repoId: string; path: string }): { repoId: string; path: string; best: number }[] {
  const out: { repoId: string; path: string; best: number }[] = [];
  for (const r of ranked) {
    const f = fileOf(r.id);
    if (out.some((o) => o.repoId === f.repoId && o.path === f.path)) continue;
    out.push({ ...f, best: r.score });
    if (out.length === SIBLING_FILES) break;
  }
  return out;
}

/** The ranking with the siblings' share added (new scopes appended), best first. */
export function withSiblings(ranked: readonly Ranked[], files: readonly { path: string; best: number }[], siblings: readonly { pathIndex: number; id: string }[]): Ranked[] {
  const byId = new Map(ranked.map((r) => [r.id, { ...r, evidence: [...r.evidence] }]));
  const seen = new Set<string>();
  for (const s of siblings) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    const file = files[s.pathIndex];
    const contribution = SIBLING_SHARE * file.best;
    const entry = byId.get(s.id) ?? { id: s.id, score: 0, evidence: [] };
    entry.score += contribution;
    entry.evidence.push({ signal: 'file-sibling', detail: `declared in ${file.path}, one of the ${SIBLING_FILES} files the evidence points to most`, rank: s.pathIndex + 1, contribution: round(contribution) });
    byId.set(s.id, entry);
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** Files of the ranked scopes (best first), scored by their functions: the best, a share of the second, a share of their call evidence. */
export function fileRollup(ranked: readonly { scope: Pick<ScopeRecord, 'repoId' | 'path' | 'qualifiedName'>; score: number; evidence?: readonly Pick<LocalizeEvidence, 'signal' | 'contribution'>[] }[]): FileRollup[] {
  const files = new Map<string, { repoId: string; path: string; scores: number[]; calls: number; functions: string[] }>();
  for (const { scope, score, evidence } of ranked) {
    const key = `${scope.repoId}\u0000${scope.path}`;
    const f = files.get(key) ?? { repoId: scope.repoId, path: scope.path, scores: [], calls: 0, functions: [] };
    f.scores.push(score);
    f.calls += (evidence ?? []).filter((e) => e.signal === 'top-neighbor').reduce((a, e) => a + e.contribution, 0);
    f.functions.push(scope.qualifiedName);
    files.set(key, f);
  }
  return [...files.values()]
    .map((f) => ({ repoId: f.repoId, path: f.path, score: round(f.scores[0] + FILE_SECOND_SHARE * (f.scores[1] ?? 0) + FILE_CALL_SHARE * f.calls), tie: FILE_TIE_SHARE * f.scores.length, functions: f.functions }))
    .sort((a, b) => b.score - a.score || b.tie - a.tie)
    .map(({ tie: _tie, ...f }) => f)
    .map((f, i) => ({ ...f, rank: i + 1 }));
}

/** The words of a line of code, as the full-text index tokenises a source (punctuation dropped). */
function codeWords(line: string): string[] {
  return line.split(/[^\p{L}\p{N}_]+/u).filter(Boolean).slice(0, 24);
}

function frameText(f: StackFrame, repoPath: string): string {
  return `${repoPath}${f.line !== null ? `:${f.line}` : ''}${f.function ? ` in ${f.function}` : ''} (${f.language} frame ${f.depth + 1} from the error)`;
}

function proseDetail(b: SearchResponse['results'][number]['scoreBreakdown']): string {
  const parts = [b.semantic ? `vector rank ${b.semantic.rank}` : null, b.bm25 ? `keyword rank ${b.bm25.rank}` : null].filter(Boolean);
  return `the issue's words (${parts.join(', ') || 'hybrid'})`;
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
