// Every GraphQL document the console sends. Field lists follow the API's schema (apps/api/src/**/*.model.ts);
// npm run codegen checks them against the schema and types their answers (./generated.ts, named in ./types.ts).

const SCOPE = 'id repoId name qualifiedName kind language path startLine endLine signature docComment source sourceLength sourceTruncated';
const LIST = 'rank score contribution';
const PATH = 'nodeIds edgeTypes directions provenances';

export const REPOSITORIES = `query ConsoleRepositories {
  repositories { id name rootPath files scopes edges embedded indexedAt include exclude indexStatus indexError indexRun { phase scopesWritten embedded toEmbed } }
}`;

export const VOCABULARY = `query ConsoleVocabulary { searchVocabulary { kinds languages edgeTypes } }`;

export const HEALTH = `query ConsoleHealth { health { ok } }`;

export const SEARCH = `query ConsoleSearch($input: SearchInput!) {
  search(input: $input) {
    strategy warnings explain
    timings { embed semantic bm25 fuse structural rescore fetch total }
    results {
      rank score alsoAt
      scope { ${SCOPE} }
      scoreBreakdown {
        fusion filtersApplied
        semantic { ${LIST} } bm25 { ${LIST} } keyword { ${LIST} raw } graph { ${LIST} connections }
        rescore { fused keyword phrase name container link }
      }
      via { relation anchorId anchorName depth nameOnly path { ${PATH} } }
    }
  }
}`;

const RERANK_HIT = `scopeId rank score
  scope { id name qualifiedName kind path }
  scoreBreakdown { retrieval retrievalRank llm llmReasoning relevant merged scored reranker fallbackReason batch cached }`;
const FEEDBACK = `quality suggestions { type description suggestedQuery { text mode topK filters { repository pathContains pathGlob languages kinds name } } }`;

export const START_RERANK = `mutation ConsoleStartRerank($input: StartRerankInput!) {
  startRerank(input: $input) { jobId status skipped total result { jobId } }
}`;

export const RERANK_PROGRESS = `subscription ConsoleRerankProgress($jobId: ID!) {
  rerankProgress(jobId: $jobId) {
    kind status done total
    hits { ${RERANK_HIT} }
    feedback { ${FEEDBACK} }
    result { reranker model reason llmCalls fallbacks durationMs cache { hits misses } notes }
  }
}`;

export const RERANK_RESULT = `query ConsoleRerankResult($jobId: ID!) {
  rerankResult(jobId: $jobId) {
    status done total reranker model reason llmCalls fallbacks durationMs cache { hits misses } notes
    hits { ${RERANK_HIT} }
    feedback { ${FEEDBACK} }
  }
}`;

export const SCOPE_QUERY = `query ConsoleScope($id: ID!) { scope(id: $id, sourceChars: 200000) { ${SCOPE} } }`;

export const NEIGHBORHOOD = `query ConsoleNeighborhood($id: ID!, $depth: Int, $direction: Direction, $edges: [EdgeType!], $maxNodes: Int) {
  neighborhood(id: $id, depth: $depth, direction: $direction, edges: $edges, maxNodes: $maxNodes, sourceChars: 0) {
    pattern
    root { id name qualifiedName kind path startLine }
    neighbors { depth fromId scope { id name qualifiedName kind path startLine } path { ${PATH} } }
  }
}`;

export const PIPELINES = `query ConsolePipelines { pipelines { name extends } }`;

export const ASK = `mutation ConsoleAsk($input: AskInput!) { ask(input: $input) { id } }`;

const STEP = 'stepId action outcome startedMs ms modelMs modelCalls inputTokens outputTokens detail';

export const ASK_PROGRESS = `subscription ConsoleAskProgress($id: ID!) {
  askProgress(id: $id) {
    seq kind text message
    step { ${STEP} }
    result {
      answer question pipeline modelAvailable model warnings missing loops retries evidenceTokens modelCalls
      citations { id path startLine endLine qualifiedName }
      plan { mode query fallback }
      timings { totalMs modelMs overheadMs firstChunkMs }
      trace { ${STEP} }
    }
  }
}`;

export const CONVERSATION = `query ConsoleConversation($sessionId: String!) {
  conversation(sessionId: $sessionId) { sessionId turns { seq questionOriginal answer createdAt } }
}`;

export const INDEX_REPOSITORY = `mutation ConsoleIndex($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }`;

export const INDEX_PROGRESS = `subscription ConsoleIndexProgress($jobId: ID!) {
  indexProgress(jobId: $jobId) {
    phase filesTotal filesParsed filesReused scopes edges embedded toEmbed etaSeconds errors failedReason result
    recentErrors { path message }
  }
}`;

export const DELETE_REPOSITORY = `mutation ConsoleDelete($name: String!) { deleteRepository(name: $name) }`;

/** LOCALIZE: ranked functions with the evidence that brought each, and their files. */
export const LOCALIZE = `query ConsoleLocalize($input: SearchInput!) {
  search(input: $input) {
    results { rank score scope { id qualifiedName kind path startLine endLine } evidence { signal detail edge from contribution } }
    files { path rank score functions }
    warnings timings { total }
  }
}`;

const IMPACT_REF = 'id qualifiedName kind path startLine endLine';
const SUGGESTION = `score scope { ${IMPACT_REF} } sources { kind rank links depth lineDistance support confidence with }`;
const IMPACT_FIELDS = `targets { ${IMPACT_REF} } depth history elapsedMs
    levels { depth scopes { relation isTest scope { ${IMPACT_REF} } path { from edge to line resolver via } } }
    importers { path imports line isTest }
    tests { ${IMPACT_REF} }
    coverage { edges nameOnlyEdges preciseEdges unresolvedSameName unresolvedInReached testsFound truncated summary }
    coChanged { confidence support with level scope { ${IMPACT_REF} } }
    changesWith { ${SUGGESTION} } changesWithStatus`;

/** What depends on a scope, by depth, with coverage and co-changed scopes (the scope page's impact view). */
export const IMPACT = `query ConsoleImpact($input: ImpactInput!) { impact(input: $input) { ${IMPACT_FIELDS} } }`;

/** A pasted diff or two refs reviewed: changed scopes, impact, partners left alone, tests, the written review. */
export const REVIEW_CHANGE = `query ConsoleReviewChange($input: ReviewChangeInput!) {
  reviewChange(input: $input) {
    repository base head warnings
    files { path change linesAdded linesDeleted parsed isTest }
    changedScopes { graphId qualifiedName kind path change startLine endLine inGraph }
    impact { ${IMPACT_FIELDS} }
    coChangeMissing { confidence support with level scope { ${IMPACT_REF} } }
    changeSuggestions { ${SUGGESTION} }
    tests { path qualifiedName how }
    writtenReview { status text reason model inventedCitations warnings outputTruncated diffTruncated factsOmitted citations { id qualifiedName path startLine endLine } }
  }
}`;
