// History for a prompt: the current summary (if any) and only the turns newer than what it covers,
// so the whole log is never read once a summary exists.
OPTIONAL MATCH (c:Conversation {id: $sessionId})
OPTIONAL MATCH (c)-[:CURRENT_SUMMARY]->(s:Summary)
WITH c, s, coalesce(s.upToSeq, 0) AS upTo
OPTIONAL MATCH (c)-[:HAS_TURN]->(t:Turn)
WHERE t.seq > upTo
WITH s, upTo, t
ORDER BY t.seq
RETURN s.text AS summary, coalesce(s.version, 0) AS version, upTo,
  [x IN collect(t) | {seq: x.seq, questionEn: x.questionEn, answerEn: x.answerEn}] AS turns
