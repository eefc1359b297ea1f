// Names of references no resolver pinned to a scope (external ones excluded), with how often each
// occurs. Read from the repository's Unresolved nodes (far fewer than its scopes) backwards.
MATCH (u:Unresolved {repoId: $repoId})
MATCH (:Scope)-[e:CALLS|REFERENCES]->(u)
WHERE e.reason <> 'external'
RETURN u.name AS name, count(e) AS uses
