// Revokes a key (kept, so the audit trail's key ids still name something); revoking twice keeps the first time.
MATCH (k:ApiKey {id: $id})
SET k.revokedAt = coalesce(k.revokedAt, datetime())
RETURN k.id AS id, k.name AS name, k.role AS role, k.repositories AS repositories, toString(k.createdAt) AS createdAt, toString(k.revokedAt) AS revokedAt
