// A finished rerank and its decision per candidate. MERGE on the job id: whoever stores the final
// result records it, and a second recording of the same run changes nothing. Scopes deleted since the
// rerank started are simply not linked.
MERGE (r:RerankRun {id: $run.id})
  ON CREATE SET r += $run, r.createdAt = datetime({epochMillis: $createdAt}),
    r.completedAt = datetime({epochMillis: $completedAt})
WITH r
UNWIND $hits AS hit
MATCH (s:Scope {id: hit.scopeId})
MERGE (r)-[j:RANKED]->(s)
  ON CREATE SET j += hit.decision
RETURN count(j) AS linked
