// Per scope (or file, matched by its scope id): how often, how recently and by whom it changed.
UNWIND $rows AS row
MATCH (s:Scope {id: row.id})
SET s.changeCount = row.changeCount, s.lastChangedAt = row.lastChangedAt, s.lastCommit = row.lastCommit,
    s.recentChurn = row.recentChurn, s.recentChanges = row.recentChanges, s.mainAuthors = row.mainAuthors
