import { normaliseSqlName } from './lexer';
import type { ParsedScope } from '../../parse/types';
import type { SymbolTable } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';

/**
 * SQL object names (from SQL files and C# string literals): case-insensitive `schema.name` with the
 * default schema, then a bare name that only one object carries.
 */
export function resolveSqlName(t: SymbolTable, name: string): { targets: ParsedScope[] } | { reason: UnresolvedReason } {
  const targets = t.sqlByKey.get(normaliseSqlName(name, t.sqlSchema));
  if (targets?.length) return { targets };
  if (!name.includes('.')) {
    const byName = t.sqlByName.get(name.replace(/[[\]"]/g, '').toLowerCase());
    if (byName?.length) {
      const keys = new Set(byName.map((s) => normaliseSqlName(s.qualifiedName, t.sqlSchema)));
      return keys.size === 1 ? { targets: byName } : { reason: 'ambiguous' };
    }
  }
  return { reason: 'not-found' };
}
