// Scopes about to be deleted take the edges pointing at them along (DETACH DELETE): the files those
// edges leave no longer hold what their edge hash says, so it is cleared.
UNWIND $ids AS id
MATCH (a:Scope)-->(:Scope {id: id})
WITH DISTINCT a.repoId AS repoId, a.path AS path
MATCH (f:Scope:File {repoId: repoId, path: path})
SET f.edgeHash = null
