UNWIND $ids AS id
MATCH (s:Scope {id: id})
DETACH DELETE s
