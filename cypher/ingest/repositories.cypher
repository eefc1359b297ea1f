MATCH (r:Repository)
RETURN r.id AS id, r.name AS name, r.rootPath AS rootPath, r.files AS files, r.scopes AS scopes,
       r.edges AS edges, r.embedded AS embedded, toString(r.indexedAt) AS indexedAt,
       coalesce(r.include, []) AS include, coalesce(r.exclude, []) AS exclude
ORDER BY r.name
