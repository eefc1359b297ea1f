import { z } from 'zod';
import type { GraphqlCall } from './graphql-call';

// The GraphQL operations behind the impact, review_change, history and dead_code tools, and their
// text renderings: paths and coverage in a few lines an agent can act on.

const REF = 'id qualifiedName kind path startLine endLine';
const COCHANGED = `coChanged { confidence support scope { ${REF} } }`;
const SUGGESTION = `scope { ${REF} } sources { kind links depth lineDistance support confidence }`;
const IMPACT_FIELDS = `targets { ${REF} } depth
    levels { depth scopes { relation isTest scope { ${REF} } path { from edge to line resolver via } } }
    importers { path imports isTest } tests { ${REF} }
    coverage { summary edges nameOnlyEdges unresolvedSameName unresolvedInReached testsFound truncated }
    ${COCHANGED} changesWith { ${SUGGESTION} } changesWithStatus history`;

export const IMPACT = `query McpImpact($input: ImpactInput!) { impact(input: $input) { ${IMPACT_FIELDS} } }`;
export const REVIEW = `query McpReview($input: ReviewChangeInput!) {
  reviewChange(input: $input) {
    base head files { path change linesAdded linesDeleted parsed }
    changedScopes { graphId qualifiedName kind path change startLine endLine inGraph }
    impact { ${IMPACT_FIELDS} }
    coChangeMissing { confidence support with scope { ${REF} } }
    changeSuggestions { ${SUGGESTION} }
    tests { path qualifiedName how } warnings
    writtenReview { status text reason model inventedCitations warnings citations { id qualifiedName path startLine endLine } }
  }
}`;
export const HISTORY = `query McpHistory($repository: String!, $path: String, $scopeId: String, $limit: Int) {
  history(repository: $repository, path: $path, scopeId: $scopeId, limit: $limit) {
    status head commits newest oldest massCommits authors { name commits }
    files { path changeCount lastChangedAt recentChurn mainAuthors coChanged { path confidence support } }
    scopes { id qualifiedName path changeCount lastChangedAt recentChurn mainAuthors coChanged { qualifiedName path confidence support } }
    recentCommits { sha time author subject files }
  }
}`;
export const DEAD_CODE = `query McpDeadCode($input: DeadCodeInput!) {
  deadCode(input: $input) { considered minConfidence excluded { reason count } candidates { confidence reasons scope { ${REF} } } }
}`;

type Ref = { id: string; qualifiedName: string; kind: string; path: string; startLine: number | null; endLine: number | null };
type ImpactData = {
  targets: Ref[];
  depth: number;
  levels: { depth: number; scopes: { relation: string; isTest: boolean; scope: Ref; path: { from: string; edge: string; to: string; line: number | null; resolver: string | null; via: string | null }[] }[] }[];
  importers: { path: string; imports: string; isTest: boolean }[];
  tests: Ref[];
  coverage: { summary: string };
  coChanged: { confidence: number; support: number; scope: Ref }[];
  changesWith: Suggestion[];
  changesWithStatus: string;
  history: string;
};
type Suggestion = {
  scope: Ref;
  sources: { kind: string; links: number | null; depth: number | null; lineDistance: number | null; support: number | null; confidence: number | null }[];
};

/** A suggestion's provenance in a few words: static edge, same file, co-change with support and confidence. */
const why = (s: Suggestion) =>
  s.sources
    .map((x) =>
      x.kind === 'static' ? (x.links ? `static: linked to ${x.links}` : `static: dependent at depth ${x.depth}`) : x.kind === 'same-file' ? `same file: ${x.lineDistance} lines away` : `co-change: ${pct(x.confidence ?? 0)} of ${x.support}+ commits`,
    )
    .join('; ');
const suggestionLines = (items: Suggestion[]) => items.map((c) => `  ${c.scope.qualifiedName} ${at(c.scope)} (${why(c)}) [id ${c.scope.id}]`);

const at = (s: Pick<Ref, 'path' | 'startLine' | 'endLine'>) => `${s.path}${s.startLine ? `:${s.startLine}${s.endLine && s.endLine !== s.startLine ? `-${s.endLine}` : ''}` : ''}`;
const pct = (x: number) => `${Math.round(x * 100)}%`;

export function formatImpact(r: ImpactData): string {
  const out = [`Impact of ${r.targets.map((t) => t.qualifiedName).slice(0, 10).join(', ')}${r.targets.length > 10 ? ` and ${r.targets.length - 10} more` : ''} (depth ${r.depth})`, `coverage: ${r.coverage.summary}`];
  for (const level of r.levels) {
    out.push(`depth ${level.depth}:`);
    for (const s of level.scopes) {
      const first = s.path[0];
      const how = first ? `${first.edge}${first.line ? ` line ${first.line}` : ''}${first.resolver === 'fast' ? ', by name' : ''}${first.via ? `, dispatch via ${first.to}` : ''}` : '';
      out.push(`  ${s.relation}${s.isTest ? ' [test]' : ''} ${s.scope.qualifiedName} ${at(s.scope)} (${how}) [id ${s.scope.id}]`);
    }
  }
  if (r.importers.length) out.push(`importers: ${r.importers.map((i) => `${i.path}${i.isTest ? ' [test]' : ''}`).join(', ')}`);
  if (r.changesWith.length) out.push('usually changes with it (static edges, same file, co-change fused):', ...suggestionLines(r.changesWith));
  else if (r.changesWithStatus === 'not-asked') out.push('usually changes with it: not asked (pass changesWith: N for N suggestions)');
  if (r.coChanged.length) {
    out.push('history alone (no static edge):');
    for (const c of r.coChanged) out.push(`  ${c.scope.qualifiedName} ${at(c.scope)} ${pct(c.confidence)} of ${c.support}+ commits [id ${c.scope.id}]`);
  } else if (r.history !== 'git') out.push(r.history === 'none' ? 'no history (not a git checkout)' : 'history not read yet');
  return out.join('\n');
}

export interface ImpactToolDef {
  name: 'impact' | 'review_change' | 'history' | 'dead_code';
  meta: { title: string; description: string };
  shape: z.ZodRawShape;
  handler: (args: never) => Promise<string>;
}

/** Tool definitions registered by tools.ts (which owns registration and error mapping). */
export function impactTools(call: GraphqlCall): ImpactToolDef[] {
  return [
    {
      name: 'impact' as const,
      meta: {
        title: 'Impact of changing code',
        description:
          'What depends on the given scopes: callers, overriders, implementers, importers and tests, by depth with the edge path of each; how far to trust it (name-only edges, unresolved references that could also lead here, tests found); scopes that git history says change with them and no static edge links. Use before editing a function. To ask "what else usually changes with this" (static edges, same-file neighbours and co-change fused), set changesWith (e.g. 10): not computed otherwise.',
      },
      shape: {
        repository: z.string().min(1).describe('repository (see list_repositories)'),
        scopeIds: z.array(z.string().min(1)).max(200).optional().describe('scope ids (from search or get_scope)'),
        qualifiedNames: z.array(z.string().min(1)).max(200).optional().describe('or exact qualified names, e.g. Invoice.total'),
        depth: z.number().int().min(1).max(6).optional().describe('default 3'),
        maxNodes: z.number().int().min(1).max(2_000).optional().describe('default 500'),
        changesWith: z.number().int().min(0).max(50).optional().describe('what else usually changes with these scopes: that many suggestions (static edges, same file, co-change fused); default 0, not computed'),
      },
      handler: async (args: { repository: string; scopeIds?: string[]; qualifiedNames?: string[]; depth?: number; maxNodes?: number; changesWith?: number }) => {
        const { impact } = await call<{ impact: ImpactData }>(IMPACT, { input: args });
        return formatImpact(impact);
      },
    },
    {
      name: 'review_change' as const,
      meta: {
        title: 'Review a change',
        description: 'Map a unified diff (against the indexed tree) or two git refs onto the scopes it adds, modifies and removes (by line ranges); their impact; scopes that usually change with them but were left alone; the tests that cover them.',
      },
      shape: {
        repository: z.string().min(1),
        diff: z.string().min(1).max(2_000_000).optional().describe('unified diff (git diff output)'),
        base: z.string().min(1).max(200).optional().describe('with head: git refs to compare'),
        head: z.string().min(1).max(200).optional(),
        depth: z.number().int().min(1).max(6).optional(),
        writtenReview: z.boolean().optional().describe('also a short review written by the chat model, citing scopes (when one is configured)'),
      },
      handler: async (args: { repository: string; diff?: string; base?: string; head?: string; depth?: number; writtenReview?: boolean }) => {
        type Review = {
          files: { path: string; change: string; linesAdded: number; linesDeleted: number; parsed: boolean }[];
          changedScopes: { graphId: string; qualifiedName: string; kind: string; path: string; change: string; startLine: number; endLine: number; inGraph: boolean }[];
          impact: ImpactData | null;
          coChangeMissing: { confidence: number; support: number; with: string[]; scope: Ref }[];
          changeSuggestions: Suggestion[];
          tests: { path: string; qualifiedName: string | null; how: string }[];
          warnings: string[];
          writtenReview: { status: string; text: string | null; reason: string | null; model: string | null; inventedCitations: string[]; warnings: string[]; citations: Omit<Ref, 'kind'>[] } | null;
        };
        const { reviewChange: r } = await call<{ reviewChange: Review }>(REVIEW, { input: args });
        const out = [`${r.files.length} file(s): ${r.files.map((f) => `${f.path} (${f.change} +${f.linesAdded} -${f.linesDeleted}${f.parsed ? '' : ', not parsed'})`).join(', ')}`, 'changed scopes:'];
        for (const s of r.changedScopes) out.push(`  ${s.change} ${s.kind} ${s.qualifiedName} ${s.path}:${s.startLine}-${s.endLine} [id ${s.graphId}]`);
        if (r.changeSuggestions.length) out.push('usually changes with this, left alone here:', ...suggestionLines(r.changeSuggestions));
        if (r.coChangeMissing.length) {
          out.push('history alone: changed together before, not in this change:');
          for (const c of r.coChangeMissing) out.push(`  ${c.scope.qualifiedName} ${at(c.scope)} (${pct(c.confidence)} with ${c.with.join(', ')})`);
        }
        out.push(r.tests.length ? `tests: ${r.tests.map((t) => `${t.qualifiedName ?? t.path} (${t.how})`).join('; ')}` : 'tests: none found');
        if (r.impact) out.push('', formatImpact(r.impact));
        if (r.warnings.length) out.push(`warnings: ${r.warnings.join('; ')}`);
        const w = r.writtenReview;
        if (w?.status === 'written') {
          out.push('', `written review (${w.model}):`, w.text ?? '', ...w.citations.map((c) => `  [cite:${c.id}] ${c.qualifiedName} ${at(c)}`));
          if (w.warnings.length) out.push(`written review warnings: ${w.warnings.join('; ')}`);
        } else if (w) out.push('', w.reason ?? 'written review unavailable');
        return out.join('\n');
      },
    },
    {
      name: 'history' as const,
      meta: {
        title: 'Change history',
        description: 'Git history as the graph holds it: how often, how recently and by whom files and scopes changed, what changes with them (co-change), recent commits. Narrow with path or scopeId.',
      },
      shape: {
        repository: z.string().min(1),
        path: z.string().min(1).optional().describe('path prefix (files, scopes); exact file for recent commits'),
        scopeId: z.string().min(1).optional(),
        limit: z.number().int().min(1).max(200).optional().describe('entries per list (default 20)'),
      },
      handler: async (args: { repository: string; path?: string; scopeId?: string; limit?: number }) => {
        type Stat = { id?: string; qualifiedName?: string; path: string; changeCount: number; lastChangedAt: string; recentChurn: number; mainAuthors: string[]; coChanged: { qualifiedName?: string; path: string; confidence: number; support: number }[] };
        type H = { status: string; head: string | null; commits: number; newest: string | null; oldest: string | null; massCommits: number; authors: { name: string; commits: number }[]; files: Stat[]; scopes: Stat[]; recentCommits: { sha: string; time: string; author: string; subject: string; files: number }[] };
        const { history: h } = await call<{ history: H }>(HISTORY, args);
        if (h.status !== 'git') return h.status === 'none' ? 'No history: the repository is not a git checkout.' : 'History not read yet (index the repository again).';
        const out = [`${h.commits} commits from ${h.oldest?.slice(0, 10)} to ${h.newest?.slice(0, 10)} (head ${h.head?.slice(0, 12)}, ${h.massCommits} mass commits not used for co-change)`, `authors: ${h.authors.map((a) => `${a.name} (${a.commits})`).join(', ')}`];
        const stat = (s: Stat) => `  ${s.qualifiedName ?? s.path} ${s.qualifiedName ? s.path : ''} changed ${s.changeCount}x, last ${s.lastChangedAt.slice(0, 10)}, recent churn ${s.recentChurn} lines, by ${s.mainAuthors.join(', ')}${s.coChanged.length ? `; changes with ${s.coChanged.map((p) => `${p.qualifiedName ?? p.path} ${pct(p.confidence)}`).join(', ')}` : ''}`;
        if (h.files.length) out.push('files:', ...h.files.map(stat));
        if (h.scopes.length) out.push('scopes:', ...h.scopes.map(stat));
        if (h.recentCommits.length) out.push('recent commits:', ...h.recentCommits.map((c) => `  ${c.sha.slice(0, 12)} ${c.time.slice(0, 10)} ${c.author}: ${c.subject} (${c.files} files)`));
        return out.join('\n');
      },
    },
    {
      name: 'dead_code' as const,
      meta: {
        title: 'Dead-code candidates',
        description: 'Functions, methods and classes nothing in the repository references, entry points excluded (public API, main, decorator-registered handlers, tests, dunder methods, overriders of outside classes), each with a confidence and the reasons it could still be live. Verify before deleting.',
      },
      shape: {
        repository: z.string().min(1),
        minConfidence: z.number().min(0).max(1).optional().describe('default 0.7'),
        limit: z.number().int().min(1).max(2_000).optional().describe('default 200'),
        language: z.string().min(1).optional(),
        pathPrefix: z.string().min(1).optional(),
      },
      handler: async (args: { repository: string; minConfidence?: number; limit?: number; language?: string; pathPrefix?: string }) => {
        type D = { considered: number; minConfidence: number; excluded: { reason: string; count: number }[]; candidates: { confidence: number; reasons: string[]; scope: Ref }[] };
        const { deadCode: d } = await call<{ deadCode: D }>(DEAD_CODE, { input: args });
        const out = [`${d.candidates.length} candidate(s) at confidence >= ${d.minConfidence} of ${d.considered} unreferenced declarations; excluded as entry points: ${d.excluded.map((e) => `${e.reason} ${e.count}`).join(', ') || 'none'}`];
        for (const c of d.candidates) out.push(`  ${c.confidence.toFixed(2)} ${c.scope.kind} ${c.scope.qualifiedName} ${at(c.scope)}${c.reasons.length ? ` — could be live: ${c.reasons.join('; ')}` : ''} [id ${c.scope.id}]`);
        return out.join('\n');
      },
    },
  ];
}
