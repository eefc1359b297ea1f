// Graph questions of the dev set: every scope reachable from the anchor within $depth hops over the
// $edges types, walking them in $direction ('in' = towards the anchor: subclasses, implementers,
// callers; 'out' = away from it: what it calls). The walk is the one `search(expand: ...)` does.
// Used by bench/search/derive-graph-questions.ts, read-only.
MATCH (anchor:Scope {repoId: $repo, path: $path, qualifiedName: $name})
MATCH p = (anchor)-[rels*1..3]-(n:Scope)
WHERE length(p) <= $depth
  AND n <> anchor
  AND all(i IN range(0, length(p) - 1) WHERE
        type(rels[i]) IN $edges
        AND CASE $direction
              WHEN 'out' THEN startNode(rels[i]) = nodes(p)[i]
              WHEN 'in' THEN endNode(rels[i]) = nodes(p)[i]
              ELSE true
            END)
RETURN n.path AS path, n.qualifiedName AS name, n.kind AS kind, n.source AS source, min(length(p)) AS depth, anchor.id AS anchorId
ORDER BY path, name
