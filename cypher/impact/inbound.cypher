// One step of impact: what depends on each frontier scope. Callers, referrers, overriders, subclasses
// and implementers (edges into it), and callers of what it overrides (they may dispatch to it: `via`).
// `$limit` bounds the rows of one step (a hub's thousands of callers): the caller states the cut.
// Rows come grouped by dependent, in id order, and only the first `$groups` dependents (what the node
// cap can still take, plus the already-seen ones among them) are returned: the rest would be dropped.
// Each new dependent carries its count of unpinned, non-external references out (the coverage's
// "unresolved in the reached code"): counted for those only, it was most of a hub's db hits.
CYPHER 25
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
WITH s, collect({target: t.id, edge: edge, line: line, resolver: resolver, via: via}) AS hits
ORDER BY s.id
WITH collect({s: s, hits: hits}) AS groups
WITH groups, reduce(n = 0, g IN groups | n + size(g.hits)) AS rows
UNWIND groups[0..$groups] AS g
WITH g.s AS s, g.hits AS hits, rows, g.s.id IN $seen AS old
CALL (s, old) {
  FILTER NOT old
  RETURN COUNT { (s)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' } AS unresolvedOut
  UNION ALL
  FILTER old
  RETURN null AS unresolvedOut
}
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
       s.startLine AS startLine, s.endLine AS endLine, hits, rows, unresolvedOut
