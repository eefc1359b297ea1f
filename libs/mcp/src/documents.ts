// The GraphQL operations behind the MCP tools. Fields are the few a coding agent needs: where the
// code is (path, lines), what it is (kind, signature) and a bounded snippet.

const SCOPE_FIELDS = 'id qualifiedName kind language path startLine endLine signature';

export const SEARCH = `query McpSearch($input: SearchInput!) {
  search(input: $input) {
    results { rank score scope { ${SCOPE_FIELDS} source sourceTruncated }
      scoreBreakdown { fusion semantic { rank } bm25 { rank } keyword { rank } }
      via { relation anchorName path { nodeIds edgeTypes directions } } }
    warnings
  }
}`;

export const SCOPE = `query McpScope($id: ID!, $sourceChars: Int) {
  scope(id: $id, sourceChars: $sourceChars) { ${SCOPE_FIELDS} docComment source sourceLength sourceTruncated }
}`;

export const NEIGHBORHOOD = `query McpNeighborhood($id: ID!, $depth: Int, $edges: [EdgeType!], $direction: Direction, $maxNodes: Int) {
  neighborhood(id: $id, depth: $depth, edges: $edges, direction: $direction, maxNodes: $maxNodes, sourceChars: 0) {
    root { ${SCOPE_FIELDS} }
    neighbors { depth fromId scope { ${SCOPE_FIELDS} } path { edgeTypes directions provenances } }
  }
}`;

export const REPOSITORIES = `query McpRepositories {
  repositories { name rootPath files scopes edges embedded indexedAt indexStatus indexError }
}`;

export const INDEX_REPOSITORY = `mutation McpIndex($input: IndexRepositoryInput!) {
  indexRepository(input: $input) { id queue }
}`;

export const ASK = `mutation McpAsk($input: AskInput!) {
  ask(input: $input) { id }
}`;

export const ASK_RESULT = `query McpAskResult($id: ID!) {
  askResult(id: $id) {
    status answerSoFar message
    result { answer modelAvailable warnings missing citations { id path startLine endLine qualifiedName } plan { mode query } }
  }
}`;

/** LOCALIZE: ranked functions with their evidence, and the files they are in. */
export const LOCALIZE = `query McpLocalize($input: SearchInput!) {
  search(input: $input) {
    results { rank score scope { id qualifiedName kind language path startLine endLine signature } evidence { signal detail edge } }
    files { path rank functions }
    warnings
  }
}`;
