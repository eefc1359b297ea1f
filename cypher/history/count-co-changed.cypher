// How many co-change edges leave a repository's scopes and files (checks nothing removed them).
MATCH (:Scope {repoId: $repoId})-[e:CO_CHANGED]->()
RETURN count(e) AS edges
