// Unresolved symbols and external modules are MERGEd by id on every index run; without a key each
// MERGE would scan the label. Their repoId serves orphan clean-up and repository deletion.
CREATE CONSTRAINT unresolved_id IF NOT EXISTS FOR (u:Unresolved) REQUIRE u.id IS UNIQUE;
CREATE INDEX unresolved_repo IF NOT EXISTS FOR (u:Unresolved) ON (u.repoId);
CREATE INDEX external_module_repo IF NOT EXISTS FOR (m:ExternalModule) ON (m.repoId);
