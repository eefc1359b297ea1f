// Names of references no resolver pinned to a scope (external ones excluded), with how often each occurs.
MATCH (:Scope {repoId: $repoId})-[e:CALLS|REFERENCES]->(u:Unresolved)
WHERE e.reason <> 'external'
RETURN u.name AS name, count(e) AS uses
