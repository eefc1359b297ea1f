// LOCALIZE looks the names an issue mentions up within the searched repositories
// (cypher/search/localize-names.cypher). Composite indexes seek (repoId, name) and (repoId,
// qualifiedName) exactly; the single-property name indexes read that name's scopes in every
// repository and filtered by repository after (thousands of rows for `__init__` or `get`).
CREATE INDEX scope_repo_name IF NOT EXISTS FOR (s:Scope) ON (s.repoId, s.name);
CREATE INDEX scope_repo_qualified_name IF NOT EXISTS FOR (s:Scope) ON (s.repoId, s.qualifiedName);
