// One part of a repository's packed running history counts, as of commit $head.
CREATE (:HistoryCounts {repoId: $repoId, head: $head, part: $part, data: $data, fileEdges: $fileEdges,
                        scopeEdges: $scopeEdges, graphEdges: $graphEdges})
