// A whole conversation for display: every turn in order and the current summary.
MATCH (c:Conversation {id: $sessionId})
OPTIONAL MATCH (c)-[:CURRENT_SUMMARY]->(s:Summary)
OPTIONAL MATCH (c)-[:HAS_TURN]->(t:Turn)
WITH c, s, t
ORDER BY t.seq
RETURN c.id AS sessionId, c.repository AS repository, c.owner AS owner,
  CASE WHEN s IS NULL THEN null ELSE {text: s.text, version: s.version, upToSeq: s.upToSeq} END AS summary,
  [x IN collect(t) | {seq: x.seq, questionOriginal: x.questionOriginal, questionEn: x.questionEn, answerEn: x.answerEn, answer: x.answer, createdAt: toString(x.createdAt)}] AS turns
