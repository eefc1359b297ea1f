// audit-append on a retried transaction (its first attempt may have committed): the event is found
// again by its id instead of recorded twice.
MERGE (e:AuditEvent {id: $id})
ON CREATE SET e.at = datetime(), e.keyId = $keyId, e.operation = $operation, e.repository = $repository, e.outcome = $outcome, e.errorCode = $errorCode
