// One audited mutation: who (key id, never the key), what, on which repository, and how it ended.
CREATE (e:AuditEvent {id: $id, at: datetime(), keyId: $keyId, operation: $operation, repository: $repository, outcome: $outcome, errorCode: $errorCode})
