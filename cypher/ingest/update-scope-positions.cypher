// Scopes whose text is unchanged but whose lines moved because code above them changed.
UNWIND $rows AS row
MATCH (s:Scope {id: row.id})
SET s.startLine = toInteger(row.startLine), s.endLine = toInteger(row.endLine)
