// What history says changes with the given scopes (and their files), best first.
UNWIND $ids AS id
MATCH (t:Scope {id: id})-[e:CO_CHANGED]->(p:Scope)
WHERE NOT p.id IN $exclude
WITH p, max(e.confidence) AS confidence, max(e.support) AS support, collect(DISTINCT t.id)[0..5] AS with, head(collect(e.level)) AS level
RETURN p.id AS id, p.name AS name, p.qualifiedName AS qualifiedName, p.kind AS kind, p.path AS path,
       p.startLine AS startLine, p.endLine AS endLine, confidence, support, with, level
ORDER BY confidence DESC, support DESC, id
LIMIT $limit
