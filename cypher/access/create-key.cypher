// A new API key: its hash, role and repository patterns; the key itself is never stored.
CREATE (k:ApiKey {id: $id, hash: $hash, name: $name, role: $role, repositories: $repositories, createdAt: datetime()})
RETURN k.id AS id, k.name AS name, k.role AS role, k.repositories AS repositories, toString(k.createdAt) AS createdAt, null AS revokedAt
