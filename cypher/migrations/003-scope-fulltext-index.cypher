// BM25 over what a reader searches code by: names, identifier sub-tokens (parseFileAnalysis ->
// "parse file analysis"), signatures, doc comments and source. No built-in analyzer splits
// camelCase, hence the separate nameTokens property.
CREATE FULLTEXT INDEX scope_fulltext IF NOT EXISTS
FOR (s:Scope) ON EACH [s.name, s.nameTokens, s.signature, s.docComment, s.source]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words' } };
