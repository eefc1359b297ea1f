// API keys created through the API (only their SHA-256 is stored) and the audit trail of mutations.
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE;
CREATE INDEX audit_event_at IF NOT EXISTS FOR (e:AuditEvent) ON (e.at);
