// One audited mutation: who (key id, never the key), what, on which repository, and how it ended.
// A retry may follow a commit that happened: the event is MERGEd on its id then (no index on it:
// a scan, paid only on a retry).
// on-retry: access/audit-append-retry
CREATE (e:AuditEvent {id: $id, at: datetime(), keyId: $keyId, operation: $operation, repository: $repository, outcome: $outcome, errorCode: $errorCode})
