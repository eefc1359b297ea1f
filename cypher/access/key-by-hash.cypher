// The key a presented secret stands for (by its hash); revoked keys are found too, and refused by the caller.
MATCH (k:ApiKey {hash: $hash})
RETURN k.id AS id, k.role AS role, k.repositories AS repositories, k.revokedAt IS NOT NULL AS revoked
