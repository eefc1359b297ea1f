// Every API key, newest first, without its hash.
MATCH (k:ApiKey)
RETURN k.id AS id, k.name AS name, k.role AS role, k.repositories AS repositories, toString(k.createdAt) AS createdAt, toString(k.revokedAt) AS revokedAt
ORDER BY k.createdAt DESC
