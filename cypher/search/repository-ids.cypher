// Ids of every indexed repository: checks a repository filter, and is the "any repository" domain
// of the filters (the vector index's SEARCH ... WHERE cannot leave a filter property out, so an
// absent filter is the list of all its values).
MATCH (r:Repository)
RETURN r.id AS id
ORDER BY id
