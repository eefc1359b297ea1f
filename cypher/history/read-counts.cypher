// The running history counts of a repository (packed, in parts) and the head they were counted to.
MATCH (h:HistoryCounts {repoId: $repoId})
RETURN h.head AS head, h.part AS part, h.data AS data, h.fileEdges AS fileEdges,
       h.scopeEdges AS scopeEdges, h.graphEdges AS graphEdges
ORDER BY h.part
