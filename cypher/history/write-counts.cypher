// One part of a repository's packed running history counts, as of commit $head. MERGE on the part:
// a retried transaction whose first attempt committed must not store a part twice (the parts are
// joined in order when read); a repository has a handful of parts.
MERGE (h:HistoryCounts {repoId: $repoId, part: $part})
SET h.head = $head, h.data = $data, h.fileEdges = $fileEdges, h.scopeEdges = $scopeEdges, h.graphEdges = $graphEdges
