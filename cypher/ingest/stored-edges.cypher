// Every code edge leaving a scope of this repository (containment and references).
MATCH (a:Scope {repoId: $repoId})-[r:DECLARES|HAS_MEMBER|CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|OVERRIDES]->(b)
RETURN a.id AS from, type(r) AS type, b.id AS to, r.line AS line, r.reason AS reason, r.resolver AS resolver
