// Code edges leaving the scopes of some files (those whose edges may have changed), to diff against.
UNWIND $paths AS path
MATCH (a:Scope {repoId: $repoId, path: path})-[r:DECLARES|HAS_MEMBER|CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|OVERRIDES]->(b)
RETURN a.id AS from, type(r) AS type, b.id AS to, r.line AS line, r.reason AS reason, r.resolver AS resolver,
  r.provenance AS provenance, r.origin AS origin
