// impact's walk in one round trip: the repository, the scopes asked (a class, interface or file
// stands for its members too), what depends on them level by level down to $depth, the files
// importing the targets' files, and the coverage's edge counts. One level's dependents: callers,
// referrers, overriders, subclasses, implementers (edges in) and callers of what a scope overrides
// (they may dispatch to it: `via`).
// Bounds inside the query, per level: at most $rowLimit edge rows, and of the dependents not yet in
// the answer the first (by id) that the node cap still has room for ($maxNodes in all); properties,
// first edge and count of unpinned references out are read for those alone. A level cut by either
// bound stops the walk (the caller states `truncated`). Edges are counted into the dependents kept
// and the ones already in the answer (up to the first dependent a cut level leaves out), here, so the
// edge rows (thousands for a hub) never travel to the caller.
// The block is repeated per depth (1-6): a LIMIT takes no variable and Cypher has no loop that
// carries a frontier from one MATCH to the next. Keep the six blocks identical but for their numbers
// (impact.spec.ts checks). Counts are read over rows (UNWIND), not inside a list comprehension,
// where the planner runs them as a nested plan per element.
OPTIONAL MATCH (r:Repository {id: $repoId})
CALL () {
  MATCH (t:Scope {repoId: $repoId})
  WHERE t.id IN $ids OR t.qualifiedName IN $names
  OPTIONAL MATCH (t)-[:HAS_MEMBER|DECLARES*1..3]->(m:Scope)
  WITH collect(DISTINCT t) + collect(DISTINCT m) AS all
  UNWIND all AS s
  WITH DISTINCT s WHERE s IS NOT NULL
  RETURN collect(s) AS f0
}
WITH r, f0, [s IN f0 | s.id] AS seen0, $maxNodes AS room0, false AS stop0
CALL (f0) {
  UNWIND f0 AS t
  WITH DISTINCT t.path AS path
  MATCH (f:File {id: $repoId + ':' + path + '#' + path + '|file'})<-[e:IMPORTS]-(g:File)
  RETURN collect({imported: f.path, id: g.id, path: g.path, line: e.line}) AS importers
}
// Depth 1.
CALL (f0, seen0, room0, stop0) {
  UNWIND CASE WHEN $depth >= 1 AND NOT stop0 THEN f0 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen0] AS fresh
  WITH groups, fresh[..room0] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room0 THEN fresh[room0].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level1, hits AS hits1,
         [g IN kept | g.s] AS f1, seen0 + [g IN kept | g.id] AS seen1, room0 - size(kept) AS room1,
         rowCut OR cutId IS NOT NULL AS cut1, stop0 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop1
}
// Depth 2.
CALL (f1, seen1, room1, stop1) {
  UNWIND CASE WHEN $depth >= 2 AND NOT stop1 THEN f1 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen1] AS fresh
  WITH groups, fresh[..room1] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room1 THEN fresh[room1].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level2, hits AS hits2,
         [g IN kept | g.s] AS f2, seen1 + [g IN kept | g.id] AS seen2, room1 - size(kept) AS room2,
         rowCut OR cutId IS NOT NULL AS cut2, stop1 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop2
}
// Depth 3.
CALL (f2, seen2, room2, stop2) {
  UNWIND CASE WHEN $depth >= 3 AND NOT stop2 THEN f2 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen2] AS fresh
  WITH groups, fresh[..room2] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room2 THEN fresh[room2].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level3, hits AS hits3,
         [g IN kept | g.s] AS f3, seen2 + [g IN kept | g.id] AS seen3, room2 - size(kept) AS room3,
         rowCut OR cutId IS NOT NULL AS cut3, stop2 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop3
}
// Depth 4.
CALL (f3, seen3, room3, stop3) {
  UNWIND CASE WHEN $depth >= 4 AND NOT stop3 THEN f3 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen3] AS fresh
  WITH groups, fresh[..room3] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room3 THEN fresh[room3].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level4, hits AS hits4,
         [g IN kept | g.s] AS f4, seen3 + [g IN kept | g.id] AS seen4, room3 - size(kept) AS room4,
         rowCut OR cutId IS NOT NULL AS cut4, stop3 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop4
}
// Depth 5.
CALL (f4, seen4, room4, stop4) {
  UNWIND CASE WHEN $depth >= 5 AND NOT stop4 THEN f4 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen4] AS fresh
  WITH groups, fresh[..room4] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room4 THEN fresh[room4].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level5, hits AS hits5,
         [g IN kept | g.s] AS f5, seen4 + [g IN kept | g.id] AS seen5, room4 - size(kept) AS room5,
         rowCut OR cutId IS NOT NULL AS cut5, stop4 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop5
}
// Depth 6.
CALL (f5, seen5, room5, stop5) {
  UNWIND CASE WHEN $depth >= 6 AND NOT stop5 THEN f5 ELSE [] END AS t
  CALL (t) {
    MATCH (t)<-[e:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, null AS via
    UNION ALL
    MATCH (t)-[:OVERRIDES]->(b:Scope)<-[e:CALLS]-(s:Scope)
    RETURN s, type(e) AS edge, e.line AS line, e.resolver AS resolver, b.id AS via
  }
  WITH t, s, edge, line, resolver, via
  LIMIT $rowLimit
  WITH t.id AS target, s, s.id AS id, edge, line, resolver, via
  ORDER BY id, target
  WITH s, id, collect({target: target, edge: edge, line: line, resolver: resolver, via: via}) AS edges
  ORDER BY id
  WITH collect({s: s, id: id, edges: edges}) AS groups, sum(size(edges)) AS rowCount
  WITH groups, rowCount, [g IN groups WHERE NOT g.id IN seen5] AS fresh
  WITH groups, fresh[..room5] AS kept, rowCount >= $rowLimit AS rowCut,
       CASE WHEN size(fresh) > room5 THEN fresh[room5].id END AS cutId
  CALL (kept) {
    UNWIND kept AS g
    WITH g.s AS k, g.edges[0] AS first
    RETURN collect(k {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine, first: first,
      unresolvedOut: COUNT { (k)-[u:CALLS|REFERENCES]->(:Unresolved) WHERE u.reason <> 'external' }}) AS hits
  }
  RETURN [g IN groups WHERE cutId IS NULL OR g.id < cutId] AS level6, hits AS hits6,
         [g IN kept | g.s] AS f6, seen5 + [g IN kept | g.id] AS seen6, room5 - size(kept) AS room6,
         rowCut OR cutId IS NOT NULL AS cut6, stop5 OR rowCut OR cutId IS NOT NULL OR size(kept) = 0 AS stop6
}
// Distinct edges followed (one edge may reach several scopes that override the same base).
CALL (level1, level2, level3, level4, level5, level6) {
  UNWIND level1 + level2 + level3 + level4 + level5 + level6 AS g
  UNWIND g.edges AS e
  WITH g.id AS from, e.edge AS edge, coalesce(e.via, e.target) AS to, e.line AS line, head(collect(e.resolver)) AS resolver
  RETURN count(*) AS edgeCount, count(CASE WHEN resolver = 'fast' THEN 1 END) AS nameOnly,
         count(CASE WHEN resolver = 'precise' THEN 1 END) AS precise
}
// Direct callers of the asked scopes (changesWith's static neighbours on the in side), when asked for.
CALL (level1, f0) {
  WITH [s IN f0 WHERE s.id IN $ids OR s.qualifiedName IN $names | s.id] AS asked
  UNWIND CASE WHEN $callers THEN level1 ELSE [] END AS g
  UNWIND g.edges AS e
  WITH g, e, asked WHERE e.via IS NULL AND e.target IN asked
  RETURN collect([g.id, e.target]) AS callers
}
RETURN r {.id, .rootPath, history: r.historyStatus, indexedAt: toString(r.indexedAt), .edges} AS repository,
       [s IN f0 | s {.id, .name, .qualifiedName, .kind, .path, .startLine, .endLine,
         asked: s.id IN $ids OR s.qualifiedName IN $names}] AS targets,
       importers, [hits1, hits2, hits3, hits4, hits5, hits6] AS hits,
       cut1 OR cut2 OR cut3 OR cut4 OR cut5 OR cut6 AS truncated, edgeCount, nameOnly, precise, callers
