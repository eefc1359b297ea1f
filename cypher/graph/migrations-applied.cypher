MATCH (m:SchemaMigration) RETURN m.id AS id, m.checksum AS checksum ORDER BY id
