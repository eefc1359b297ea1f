// New or changed scopes: properties replaced, stale embedding dropped (re-embedded afterwards),
// kind label from a fixed allow-list in code (ingest/graph-model.ts).
UNWIND $rows AS row
MERGE (s:Scope {id: row.id})
SET s = row.props
SET s:$(row.labels)
