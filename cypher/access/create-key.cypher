// A new API key: its hash, role and repository patterns; the key itself is never stored. MERGE on the
// id (unique, indexed): a retried transaction whose first attempt committed finds the key instead of
// failing on the id's constraint after the key was made.
MERGE (k:ApiKey {id: $id})
ON CREATE SET k.hash = $hash, k.name = $name, k.role = $role, k.repositories = $repositories, k.createdAt = datetime()
RETURN k.id AS id, k.name AS name, k.role AS role, k.repositories AS repositories, toString(k.createdAt) AS createdAt, null AS revokedAt
