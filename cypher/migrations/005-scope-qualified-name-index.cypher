// Relationship questions name their target by name or qualified name (Subject, Subject.next):
// GRAPH search looks both up (cypher/search/graph-anchors.cypher).
CREATE INDEX scope_qualified_name IF NOT EXISTS FOR (s:Scope) ON (s.qualifiedName);
