// One step of impact: what depends on each frontier scope. Callers, referrers, overriders, subclasses
// and implementers (edges into it), and callers of what it overrides (they may dispatch to it: `via`).
// Each dependent carries its count of unpinned, non-external references out (the coverage's
// "unresolved in the reached code", read here rather than in one more round trip).
// `$limit` bounds the rows of one step (a hub's thousands of callers): the caller states the cut.
UNWIND $ids AS id
MATCH (t:Scope {id: id})
CALL (t) {
  MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
  RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
  UNION ALL
  MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
  RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
}
WITH t, s, edge, line, resolver, via
LIMIT $limit
RETURN t.id AS target, s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind,
       s.path AS path, s.startLine AS startLine, s.endLine AS endLine, edge, line, resolver, via,
       COUNT { (s)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' } AS unresolvedOut
