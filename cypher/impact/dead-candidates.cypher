// Declarations nothing in the repository points at: no call, reference, inheritance or override
// into them, and not overriding anything themselves (dispatch reaches overriders). What decides
// whether each is really dead (entry points, names used dynamically) is judged by DeadCodeService.
MATCH (s:Scope {repoId: $repoId})
WHERE s.kind IN $kinds AND ($language IS NULL OR s.language = $language)
  AND ($pathPrefix IS NULL OR s.path STARTS WITH $pathPrefix)
  AND NOT EXISTS { (s)<-[:CALLS|REFERENCES|EXTENDS|IMPLEMENTS|OVERRIDES]-(:Scope) }
  AND NOT EXISTS { (s)-[:OVERRIDES]->() }
// repoBase/externalBase: what the parent class extends (for methods); extends: the scope's own bases.
OPTIONAL MATCH (p:Scope {id: s.parentId})
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.language AS language,
       s.path AS path, s.startLine AS startLine, s.endLine AS endLine, coalesce(s.exported, false) AS exported,
       left(s.source, 400) AS head, p.kind AS parentKind,
       coalesce(p.exported, false) AS parentExported,
       EXISTS { (p)-[:EXTENDS|IMPLEMENTS]->(:Unresolved) } OR EXISTS { (p)-[:EXTENDS|IMPLEMENTS]->(:ExternalModule) } AS externalBase,
       EXISTS { (p)-[:EXTENDS|IMPLEMENTS]->(:Scope) } AS repoBase,
       EXISTS { (s)-[:EXTENDS|IMPLEMENTS]->() } AS extends,
       // Python hooks: the parent class's decorators (zope @implementer) and the outside classes it
       // inherits through classes of the repository (a method may override one of theirs).
       // Classes nested in a class get the same: frameworks read inner classes (Meta, Config).
       CASE WHEN s.language = 'python' AND (s.kind = 'method' OR (s.kind = 'class' AND p.kind = 'class')) THEN left(p.source, 400) END AS parentHead,
       CASE WHEN s.language = 'python' AND (s.kind = 'method' OR (s.kind = 'class' AND p.kind = 'class'))
            THEN [(p)-[:EXTENDS|IMPLEMENTS*2..8]->(x) WHERE x:Unresolved OR x:ExternalModule | x.name] END AS outsideAncestors
ORDER BY s.path, s.startLine
