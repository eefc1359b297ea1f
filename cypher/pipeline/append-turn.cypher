// One finished turn. SET on the conversation first takes its write lock, so concurrent turns of one
// session get distinct sequence numbers; MERGE on the turn id makes a retried job a no-op.
MERGE (c:Conversation {id: $sessionId})
  ON CREATE SET c.createdAt = datetime(), c.repository = $repository, c.owner = $owner, c.turnCount = 0
SET c.updatedAt = datetime()
MERGE (t:Turn {id: $turnId})
  ON CREATE SET t.seq = c.turnCount + 1, t.questionOriginal = $questionOriginal, t.questionEn = $questionEn,
    t.answerEn = $answerEn, t.answer = $answer, t.createdAt = datetime(), c.turnCount = c.turnCount + 1
MERGE (c)-[:HAS_TURN]->(t)
RETURN t.seq AS seq
