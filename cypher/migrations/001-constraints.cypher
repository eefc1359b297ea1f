// Node identity: every write MERGEs on these ids, so re-running a job never duplicates nodes.
CREATE CONSTRAINT schema_migration_id IF NOT EXISTS FOR (m:SchemaMigration) REQUIRE m.id IS UNIQUE;
CREATE CONSTRAINT repository_id IF NOT EXISTS FOR (r:Repository) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT repository_name IF NOT EXISTS FOR (r:Repository) REQUIRE r.name IS UNIQUE;
CREATE CONSTRAINT file_id IF NOT EXISTS FOR (f:File) REQUIRE f.id IS UNIQUE;
CREATE CONSTRAINT scope_id IF NOT EXISTS FOR (s:Scope) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT external_module_id IF NOT EXISTS FOR (m:ExternalModule) REQUIRE m.id IS UNIQUE;
// Lookups that filters and incremental re-indexing do by property.
CREATE INDEX scope_repo IF NOT EXISTS FOR (s:Scope) ON (s.repoId);
CREATE INDEX scope_path IF NOT EXISTS FOR (s:Scope) ON (s.repoId, s.path);
CREATE INDEX scope_name IF NOT EXISTS FOR (s:Scope) ON (s.name);
CREATE INDEX file_repo IF NOT EXISTS FOR (f:File) ON (f.repoId);
