// Scopes whose text is unchanged but whose lines moved because code above them changed.
UNWIND $rows AS row
MATCH (s:Scope {id: row.id})
SET s.startLine = row.startLine, s.endLine = row.endLine
