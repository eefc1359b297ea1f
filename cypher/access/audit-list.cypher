// The audit trail, newest first, filtered by key id, repository, operation and outcome (null: any), paged.
MATCH (e:AuditEvent)
WHERE ($keyId IS NULL OR e.keyId = $keyId)
  AND ($repository IS NULL OR e.repository = $repository)
  AND ($operation IS NULL OR e.operation = $operation)
  AND ($outcome IS NULL OR e.outcome = $outcome)
  AND ($since IS NULL OR e.at >= datetime($since))
RETURN e.id AS id, toString(e.at) AS at, e.keyId AS keyId, e.operation AS operation, e.repository AS repository, e.outcome AS outcome, e.errorCode AS errorCode
ORDER BY e.at DESC, e.id DESC
SKIP $offset LIMIT $limit
