import { createHash } from 'node:crypto';
import type { ParsedFile } from '../parse/types';

/**
 * A hash of everything the resolution of other files' references reads of this file (the fast
 * resolvers of resolver.ts and the language plugins' resolvers, ../languages):
 * - its scopes in order: id, name, qualified name, kind, language, parent, exported (symbol table,
 *   member and export lookups, C# types and namespaces, SQL objects, script globals);
 * - its imports and export lists without their lines (what its names and re-exports denote);
 * - its typed bindings (`this.repo.save()` through a field declared here; a type name is resolved
 *   from the scope that declares it);
 * - its EXTENDS / IMPLEMENTS references without their lines (lookups through its classes' bases).
 * Left out, because only this file's own edges are made of them: other references, every line and
 * the scopes' text, signatures and docs. Two parses with the same hash leave every other file's
 * resolution as it was, as long as the set of files and the resolver settings are the same too.
 *
 * TypeScript's checker (`INGEST_TS_RESOLVER=precise`) infers types from bodies, so for TS/JS files
 * under it this says nothing: the caller resolves everything when one of those changed.
 */
export function interfaceHash(file: ParsedFile): string {
  const h = createHash('sha256');
  // JSON keeps the fields apart, and an unset flag (null) apart from false.
  const field = (...parts: (string | number | boolean | null | undefined)[]) => h.update(`${JSON.stringify(parts)}\n`);
  field('file', file.path, file.language);
  for (const s of file.scopes) field('s', s.id, s.name, s.qualifiedName, s.kind, s.language, s.parentId, s.exported);
  for (const i of file.imports) {
    field('i', i.specifier, i.isNamespace, i.reexport, i.isStatic, i.names.length);
    for (const n of i.names) field('n', n.imported, n.local);
    if (i.namespace) field('ns', i.namespace);
  }
  for (const e of file.exports ?? []) field('x', e.local, e.exported);
  for (const b of file.bindings ?? []) field('b', b.scopeId, b.name, b.typeName, b.member);
  for (const r of file.references) if (r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS') field('h', r.fromId, r.kind, r.targetName, r.targetLanguage);
  return h.digest('hex');
}
