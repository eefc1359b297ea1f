MERGE (m:SchemaMigration {id: $id})
ON CREATE SET m.checksum = $checksum, m.appliedAt = datetime()
RETURN m.checksum AS checksum
