import type { ParsedScope } from '../parse/types';
import { CLASS_LIKE, SymbolTable, TYPE_LIKE } from './symbol-table';

/** What a C# file brings into scope. */
export interface CsUsings {
  usings: string[];
  aliases: Map<string, string>;
}

/**
 * C# type name lookup: nested types of the enclosing types, enclosing namespaces (innermost first),
 * fully qualified names, `using` namespaces (and static classes), then `using X = A.B.C;` aliases.
 * `findMember` follows a class's members and bases (resolved by the caller).
 */
export function csTypeLookup(
  t: SymbolTable, parts: string[], from: ParsedScope, env: CsUsings, findMember: (owners: ParsedScope[], name: string) => ParsedScope[],
): ParsedScope[] {
  const q = parts.join('.');
  // enclosing types (nested types, also inherited ones)
  for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = t.parent(s)) {
    if (CLASS_LIKE.has(s.kind)) {
      const hit = t.csTypes.get(`${s.qualifiedName}.${q}`);
      if (hit?.length) return hit;
    }
  }
  // enclosing namespaces, innermost first
  const ns = enclosingNamespace(t, from);
  if (ns) {
    const segs = ns.split('.');
    for (let i = segs.length; i >= 1; i--) {
      const hit = t.csTypes.get(`${segs.slice(0, i).join('.')}.${q}`);
      if (hit?.length) return hit;
    }
  }
  const global = t.csTypes.get(q);
  if (global?.length) return global;
  // using directives
  const found: ParsedScope[] = [];
  const names = new Set<string>();
  for (const u of env.usings) {
    const hit = t.csTypes.get(`${u}.${q}`) ?? (t.csTypes.has(u) ? findMember(t.csTypes.get(u)!, parts[0]).filter((m) => TYPE_LIKE.has(m.kind)) : undefined);
    if (hit?.length) {
      for (const h of hit) {
        found.push(h);
        names.add(h.qualifiedName);
      }
    }
  }
  if (found.length && names.size === 1) return found;
  // aliases: using X = A.B.C;
  const alias = env.aliases.get(parts[0]);
  if (alias) {
    const hit = t.csTypes.get([alias, ...parts.slice(1)].join('.'));
    if (hit?.length) return hit;
  }
  return [];
}

function enclosingNamespace(t: SymbolTable, s: ParsedScope): string | null {
  for (let p: ParsedScope | undefined = s; p; p = t.parent(p)) if (p.kind === 'namespace') return p.qualifiedName;
  return null;
}
