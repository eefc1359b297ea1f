import type { RawReference } from '../parse/types';
import type { FileEnv } from './resolver-context';
import type { SymbolTable } from './symbol-table';
import type { UnresolvedReason } from './types';

/**
 * Second thoughts on the name-based resolver's misses: an `external` name says where it comes from
 * (the package its import names). Only what every run has of every file is read (imports, scopes
 * without their text): a partial re-index, whose unchanged files come without signatures, must
 * decide exactly as a full one. Misses of the compiler or a SCIP index are theirs and left alone.
 * (Calls through callback parameters are `dynamic` from the compiler and SCIP; the name-based
 * resolver would need the parameters' declared function types, which the parse does not keep.)
 */
export class UnresolvedReasons {
  constructor(private readonly t: SymbolTable, private readonly envs: ReadonlyMap<string, FileEnv>) {}

  refine(r: RawReference, reason: UnresolvedReason): { reason: UnresolvedReason; origin?: string } {
    if (reason !== 'external') return { reason };
    const from = this.t.scopes.get(r.fromId);
    const head = r.targetName.split(/\.|::|->/)[0];
    const imp = from ? this.envs.get(from.path)?.imported.get(head) : undefined;
    return imp && imp.target.kind === 'external' ? { reason, origin: imp.target.name } : { reason };
  }
}
