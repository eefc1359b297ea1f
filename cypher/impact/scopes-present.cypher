// Which of the given scope ids the graph holds.
UNWIND $ids AS id
MATCH (s:Scope {id: id})
RETURN s.id AS id
