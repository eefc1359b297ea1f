// What the static answer may miss. `sameName`: references nobody could pin (not external ones) whose
// name ends in the name of a scope of the answer: any of them could be a caller not in the answer
// (read from the repository's Unresolved nodes, far fewer than its edges).
// `inReached`: references out of the reached code that were not pinned (dynamic calls, unknown
// receivers): the reached code may lead elsewhere, or here, through them.
CALL {
  MATCH (u:Unresolved {repoId: $repoId})
  WHERE u.name IN $names OR any(n IN $names WHERE u.name ENDS WITH '.' + n)
  MATCH (:Scope)-[e:CALLS|REFERENCES]->(u)
  WHERE e.reason <> 'external'
  RETURN count(e) AS sameName
}
CALL {
  UNWIND $reached AS rid
  MATCH (a:Scope {id: rid})-[e:CALLS|REFERENCES]->(:Unresolved)
  WHERE e.reason <> 'external'
  RETURN count(e) AS inReached
}
RETURN sameName, inReached
