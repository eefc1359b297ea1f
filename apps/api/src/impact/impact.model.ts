import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { DEAD_CODE_LIMITS, IMPACT_LIMITS } from '@scopegraph/impact';

@ObjectType('ImpactScope', { description: 'A scope named by an impact, review, history or dead-code answer' })
export class ImpactScopeRef {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field() qualifiedName: string;
  @Field() kind: string;
  @Field() path: string;
  @Field(() => Int, { nullable: true }) startLine: number | null;
  @Field(() => Int, { nullable: true }) endLine: number | null;
}

@ObjectType({ description: 'One edge of an impact path: `from` depends on `to`' })
export class ImpactPathEdge {
  @Field() from: string;
  @Field() edge: string;
  @Field() to: string;
  @Field(() => Int, { nullable: true }) line: number | null;
  @Field(() => String, { nullable: true, description: 'fast: matched by name only; precise: the compiler; null: no resolver' }) resolver: string | null;
  @Field(() => String, { nullable: true, description: 'Set when `to` is a base member that `via` overrides: reached by dynamic dispatch' }) via: string | null;
}

@ObjectType()
export class ImpactedScope {
  @Field(() => ImpactScopeRef) scope: ImpactScopeRef;
  @Field(() => Int) depth: number;
  @Field({ description: 'caller, referrer, overrider, subclass, implementer or dispatch-caller' }) relation: string;
  @Field() isTest: boolean;
  @Field(() => [ImpactPathEdge], { description: 'From this scope to a changed one, edge by edge' }) path: ImpactPathEdge[];
}

@ObjectType()
export class ImpactLevel {
  @Field(() => Int) depth: number;
  @Field(() => [ImpactedScope]) scopes: ImpactedScope[];
}

@ObjectType()
export class ImpactImporter {
  @Field() path: string;
  @Field() imports: string;
  @Field(() => Int, { nullable: true }) line: number | null;
  @Field() isTest: boolean;
}

@ObjectType({ description: 'How far the answer can be trusted' })
export class ImpactCoverage {
  @Field(() => Int) edges: number;
  @Field(() => Int, { description: 'Edges matched by name only (resolver fast)' }) nameOnlyEdges: number;
  @Field(() => Int) preciseEdges: number;
  @Field(() => Int, { description: 'Unpinned references anywhere whose name ends in a name of the answer: possible dependents not shown' }) unresolvedSameName: number;
  @Field(() => Int, { description: 'Unpinned (dynamic, unknown-receiver) references out of the reached code' }) unresolvedInReached: number;
  @Field() testsFound: boolean;
  @Field({ description: 'The node cap stopped the walk before the depth did' }) truncated: boolean;
  @Field() summary: string;
}

@ObjectType({ description: 'A scope that history says changes with the asked ones, linked by no static edge of the answer' })
export class CoChangedScope {
  @Field(() => ImpactScopeRef) scope: ImpactScopeRef;
  @Field(() => Float, { description: 'Share of the commits changing the asked scope that changed this one too' }) confidence: number;
  @Field(() => Int, { description: 'Commits that changed both' }) support: number;
  @Field(() => [String]) with: string[];
  @Field({ description: 'file or scope' }) level: string;
}

@ObjectType({ description: 'One list that ranked a change suggestion, and what it saw' })
export class SuggestionSource {
  @Field({ description: 'static (edges of the graph), same-file (nearest functions of an asked scope\'s file) or co-change (git history)' }) kind: string;
  @Field(() => Int, { description: 'Rank within that list, from 1' }) rank: number;
  @Field(() => Int, { nullable: true, description: 'static: asked scopes it shares an edge with (0: reached as a dependent only)' }) links: number | null;
  @Field(() => Int, { nullable: true, description: 'static: 1 when linked directly, else its depth in the impact walk' }) depth: number | null;
  @Field(() => Int, { nullable: true, description: 'same-file: lines from the nearest asked scope' }) lineDistance: number | null;
  @Field(() => Int, { nullable: true, description: 'co-change: commits that changed it with an asked scope (strongest rule)' }) support: number | null;
  @Field(() => Float, { nullable: true, description: 'co-change: 1 - product of (1 - confidence) over the asked scopes\' rules' }) confidence: number | null;
  @Field(() => [String], { description: 'same-file / co-change: the asked scopes it is near or changes with' }) with: string[];
}

@ObjectType({ description: 'A scope that usually changes with the asked ones: static edges, same-file neighbours and co-change, fused by rank' })
export class ChangeSuggestion {
  @Field(() => ImpactScopeRef) scope: ImpactScopeRef;
  @Field(() => Float, { description: 'Fused reciprocal-rank score (only the order means anything)' }) score: number;
  @Field(() => [SuggestionSource], { description: 'Why: each list that ranked it' }) sources: SuggestionSource[];
}

@ObjectType()
export class ImpactResult {
  @Field() repository: string;
  @Field(() => [ImpactScopeRef]) targets: ImpactScopeRef[];
  @Field(() => Int) depth: number;
  @Field(() => [ImpactLevel]) levels: ImpactLevel[];
  @Field(() => [ImpactImporter]) importers: ImpactImporter[];
  @Field(() => [ImpactScopeRef]) tests: ImpactScopeRef[];
  @Field(() => ImpactCoverage) coverage: ImpactCoverage;
  @Field(() => [CoChangedScope], { description: 'History alone: partners no static edge of the answer links (see changesWith)' }) coChanged: CoChangedScope[];
  @Field(() => [ChangeSuggestion], { description: 'What usually changes with the asked scopes: static edges, same-file neighbours and co-change fused, with provenance. Only when asked (input changesWith > 0); otherwise empty, and changesWithStatus says so' }) changesWith: ChangeSuggestion[];
  @Field({ description: 'computed (changesWith was read; it may still be empty) or not-asked (input changesWith was 0, the default: nothing was read; ask with changesWith: N to see what usually changes with these scopes)' }) changesWithStatus: string;
  @Field({ description: 'git, none (not a git checkout) or not-read' }) history: string;
  @Field(() => Int) elapsedMs: number;
}

@InputType()
export class ImpactInput {
  @Field() repository: string;
  @Field(() => [ID], { nullable: true, description: `Scope ids (at most ${IMPACT_LIMITS.maxTargets} ids and names together)` }) scopeIds?: string[];
  @Field(() => [String], { nullable: true, description: 'Exact qualified names (Invoice.total)' }) qualifiedNames?: string[];
  @Field(() => Int, { nullable: true, description: `1-${IMPACT_LIMITS.maxDepth} (default ${IMPACT_LIMITS.defaultDepth})` }) depth?: number;
  @Field(() => Int, { nullable: true, description: `Dependents at most, 1-${IMPACT_LIMITS.maxNodes} (default ${IMPACT_LIMITS.defaultNodes})` }) maxNodes?: number;
  @Field(() => Int, { nullable: true, description: `Co-changed scopes at most, 0-${IMPACT_LIMITS.maxCoChanged} (default ${IMPACT_LIMITS.defaultCoChanged})` }) coChanged?: number;
  @Field(() => Int, { nullable: true, description: `Change suggestions at most, 0-${IMPACT_LIMITS.maxChangesWith} (default ${IMPACT_LIMITS.defaultChangesWith}: not computed, no read for them; ask for them when the user wants "what else usually changes": on a hub the read costs about as much as the walk)` }) changesWith?: number;
}

@InputType()
export class ReviewChangeInput {
  @Field() repository: string;
  @Field({ nullable: true, description: 'A unified diff against the indexed tree (git diff, diff -u)' }) diff?: string;
  @Field({ nullable: true, description: 'With head: review what changed between two git refs of the repository' }) base?: string;
  @Field({ nullable: true }) head?: string;
  @Field(() => Int, { nullable: true, description: 'Impact depth, 1-6 (default 2)' }) depth?: number;
  @Field({ nullable: true, description: 'Also a short written review by the chat model, citing scopes (needs a configured model; waits at most REVIEW_MODEL_TIMEOUT_MS)' }) writtenReview?: boolean;
}

@ObjectType()
export class ReviewedFile {
  @Field() path: string;
  @Field({ description: 'added, modified or removed' }) change: string;
  @Field(() => Int) linesAdded: number;
  @Field(() => Int) linesDeleted: number;
  @Field({ description: 'False when the parser does not read this kind of file' }) parsed: boolean;
  @Field() isTest: boolean;
}

@ObjectType()
export class ChangedScope {
  @Field(() => ID, { description: "The graph's id (repository-qualified)" }) graphId: string;
  @Field() name: string;
  @Field() qualifiedName: string;
  @Field() kind: string;
  @Field() path: string;
  @Field({ description: 'added, modified or removed' }) change: string;
  @Field(() => Int, { description: 'In the new version (the old one for removed)' }) startLine: number;
  @Field(() => Int) endLine: number;
  @Field() inGraph: boolean;
}

@ObjectType()
export class CoveringTest {
  @Field() path: string;
  @Field(() => String, { nullable: true }) qualifiedName: string | null;
  @Field() how: string;
}

@ObjectType({ description: 'A scope the written review cites' })
export class ReviewCitation {
  @Field(() => ID) id: string;
  @Field() qualifiedName: string;
  @Field() path: string;
  @Field(() => Int, { nullable: true }) startLine: number | null;
  @Field(() => Int, { nullable: true }) endLine: number | null;
}

@ObjectType({ description: "The chat model's short review of the change, or why there is none" })
export class WrittenReview {
  @Field({ description: 'written, or unavailable (reason says why; the rest of the review is unaffected)' }) status: string;
  @Field(() => String, { nullable: true, description: 'The review; scopes cited as [cite:<scope id>], only ids the model was given' }) text: string | null;
  @Field(() => String, { nullable: true, description: '"written review unavailable: ..." when status is unavailable' }) reason: string | null;
  @Field(() => [ReviewCitation]) citations: ReviewCitation[];
  @Field(() => [String], { description: 'Cited ids the model was not given: removed from the text' }) inventedCitations: string[];
  @Field(() => String, { nullable: true }) model: string | null;
  @Field(() => Int, { description: 'Prompt tokens (local o200k count)' }) promptTokens: number;
  @Field(() => Int) maxPromptTokens: number;
  @Field(() => Int, { description: 'Facts left out to fit the prompt budget' }) factsOmitted: number;
  @Field() diffTruncated: boolean;
  @Field({ description: 'The answer was cut to REVIEW_MAX_OUTPUT_TOKENS' }) outputTruncated: boolean;
  @Field(() => Int) ms: number;
  @Field(() => [String]) warnings: string[];
}

@ObjectType()
export class ChangeReview {
  @Field() repository: string;
  @Field(() => String, { nullable: true }) base: string | null;
  @Field(() => String, { nullable: true }) head: string | null;
  @Field(() => [ReviewedFile]) files: ReviewedFile[];
  @Field(() => [ChangedScope]) changedScopes: ChangedScope[];
  @Field(() => ImpactResult, { nullable: true }) impact: ImpactResult | null;
  @Field(() => [CoChangedScope], { description: 'Usual partners of the changed scopes that this change leaves alone' }) coChangeMissing: CoChangedScope[];
  @Field(() => [ChangeSuggestion], { description: 'What usually changes with the changed scopes and this change leaves alone (static, same-file, co-change fused, with provenance)' }) changeSuggestions: ChangeSuggestion[];
  @Field(() => [CoveringTest]) tests: CoveringTest[];
  @Field(() => [String]) warnings: string[];
  @Field(() => WrittenReview, { nullable: true, description: 'Only when the input asks for it (writtenReview: true)' }) writtenReview?: WrittenReview | null;
}

@ObjectType()
export class HistoryAuthor {
  @Field() name: string;
  @Field(() => String, { nullable: true, description: 'Only with includeEmails: true' }) email: string | null;
  @Field(() => Int) commits: number;
}

@ObjectType()
export class CoChangePartner {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) qualifiedName: string | null;
  @Field() path: string;
  @Field(() => Int) support: number;
  @Field(() => Float) confidence: number;
}

@ObjectType({ description: 'How often, how recently and by whom a file or scope changed' })
export class ChangeStatsEntry {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) qualifiedName: string | null;
  @Field() kind: string;
  @Field() path: string;
  @Field(() => Int) changeCount: number;
  @Field({ description: 'ISO time of the last commit that changed it' }) lastChangedAt: string;
  @Field() lastCommit: string;
  @Field(() => Int, { description: 'Lines changed in the 90 days before the newest commit' }) recentChurn: number;
  @Field(() => Int) recentChanges: number;
  @Field(() => [String], { description: 'Up to three authors, most commits first: "name (commits)"' }) mainAuthors: string[];
  @Field(() => [CoChangePartner]) coChanged: CoChangePartner[];
}

@ObjectType()
export class HistoryCommit {
  @Field() sha: string;
  @Field() time: string;
  @Field() author: string;
  @Field(() => String, { nullable: true, description: 'Only with includeEmails: true' }) email: string | null;
  @Field() subject: string;
  @Field(() => Int) files: number;
}

@ObjectType()
export class RepositoryHistory {
  @Field() repository: string;
  @Field({ description: 'git; none: not a git checkout (no history); not-read: indexed before history was read' }) status: string;
  @Field(() => String, { nullable: true }) head: string | null;
  @Field(() => Int) commits: number;
  @Field(() => String, { nullable: true }) newest: string | null;
  @Field(() => String, { nullable: true }) oldest: string | null;
  @Field(() => Int, { description: 'Commits above HISTORY_MASS_COMMIT_FILES files: no co-change evidence' }) massCommits: number;
  @Field(() => [HistoryAuthor]) authors: HistoryAuthor[];
  @Field(() => [ChangeStatsEntry], { description: 'The most changed files (or the asked path/scope)' }) files: ChangeStatsEntry[];
  @Field(() => [ChangeStatsEntry], { description: 'The most changed scopes (or the asked scope)' }) scopes: ChangeStatsEntry[];
  @Field(() => [HistoryCommit]) recentCommits: HistoryCommit[];
}

@ObjectType()
export class DeadCodeCandidate {
  @Field(() => ImpactScopeRef) scope: ImpactScopeRef;
  @Field() language: string;
  @Field(() => Float, { description: '0-1: how sure the graph is that nothing uses it' }) confidence: number;
  @Field(() => [String], { description: 'Why it could still be live' }) reasons: string[];
}

@ObjectType()
export class DeadCodeExclusion {
  @Field() reason: string;
  @Field(() => Int) count: number;
}

@ObjectType()
export class DeadCodeResult {
  @Field() repository: string;
  @Field(() => [DeadCodeCandidate]) candidates: DeadCodeCandidate[];
  @Field(() => [DeadCodeExclusion], { description: 'Unreferenced declarations left out as entry points, by why' }) excluded: DeadCodeExclusion[];
  @Field(() => Int) considered: number;
  @Field(() => Float) minConfidence: number;
}

@InputType()
export class DeadCodeInput {
  @Field() repository: string;
  @Field(() => Float, { nullable: true, description: `0-1 (default ${DEAD_CODE_LIMITS.defaultMinConfidence})` }) minConfidence?: number;
  @Field(() => Int, { nullable: true, description: `1-${DEAD_CODE_LIMITS.maxResults} (default ${DEAD_CODE_LIMITS.defaultResults})` }) limit?: number;
  @Field({ nullable: true }) language?: string;
  @Field({ nullable: true }) pathPrefix?: string;
}
