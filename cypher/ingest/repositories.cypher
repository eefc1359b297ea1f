MATCH (r:Repository)
RETURN r.id AS id, r.name AS name, r.rootPath AS rootPath, r.files AS files, r.scopes AS scopes,
       r.edges AS edges, r.embedded AS embedded, toString(r.indexedAt) AS indexedAt,
       coalesce(r.include, []) AS include, coalesce(r.exclude, []) AS exclude,
       // Repositories indexed before runs kept a status: finished if they have counts.
       coalesce(r.indexStatus, CASE WHEN r.indexedAt IS NULL THEN 'FAILED' ELSE 'INDEXED' END) AS indexStatus,
       r.indexJobId AS indexJobId, r.indexError AS indexError
ORDER BY r.name
