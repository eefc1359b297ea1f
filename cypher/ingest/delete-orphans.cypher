// ExternalModule and Unresolved nodes nothing points at any more.
MATCH (n:ExternalModule|Unresolved {repoId: $repoId})
WHERE NOT EXISTS { (n)<--() }
DELETE n
RETURN count(*) AS deleted
