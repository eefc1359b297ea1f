// Retention: audit events older than the configured number of days go, a bounded batch at a time.
MATCH (e:AuditEvent) WHERE e.at < datetime() - duration({days: $days})
WITH e LIMIT 10000
DETACH DELETE e
