// Files about to be deleted take the edges pointing at their scopes along (DETACH DELETE): the other
// files those edges leave no longer hold what their edge hash says, so it is cleared.
UNWIND $paths AS path
MATCH (a:Scope)-->(:Scope {repoId: $repoId, path: path})
WHERE a.path <> path
WITH DISTINCT a.repoId AS repoId, a.path AS referrer
MATCH (f:Scope:File {repoId: repoId, path: referrer})
SET f.edgeHash = null
