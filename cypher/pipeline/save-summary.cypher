// A new rolling summary version; the CURRENT_SUMMARY pointer moves to it, older versions stay.
MERGE (c:Conversation {id: $sessionId})
  ON CREATE SET c.createdAt = datetime(), c.repository = $repository, c.turnCount = 0
MERGE (s:Summary {id: $summaryId})
  ON CREATE SET s.version = $version, s.text = $text, s.upToSeq = $upToSeq, s.tokens = $tokens, s.createdAt = datetime()
MERGE (c)-[:HAS_SUMMARY]->(s)
WITH c, s
OPTIONAL MATCH (c)-[old:CURRENT_SUMMARY]->(prev:Summary)
WHERE prev <> s
DELETE old
MERGE (c)-[:CURRENT_SUMMARY]->(s)
RETURN s.version AS version
