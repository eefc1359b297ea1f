import type { ResolverName } from '@scopegraph/code-model';
import type { ParsedFile, RawReference, RawReferenceKind } from '../parse/types';
import type { MissList } from './miss-list';

export type { ResolverName };

export type EdgeType = 'CALLS' | 'EXTENDS' | 'IMPLEMENTS' | 'REFERENCES' | 'IMPORTS' | 'OVERRIDES';

/** A reference resolved to a scope of the repository. IMPORTS edges link file scopes. */
export interface ResolvedEdge {
  fromId: string;
  toId: string;
  type: EdgeType;
  /** First line (1-based) in the source file where the reference occurs. */
  line?: number;
  /** Unset for IMPORTS (module resolution, not symbol resolution). */
  resolver?: ResolverName;
  /** The name-based resolver picked this target among several candidates (see provenance.ts). */
  guessed?: true;
}

export type { UnresolvedReason, UnresolvedRef } from './miss-list';
import type { UnresolvedReason } from './miss-list';

/** What the precise resolver says about one reference; `undefined` from the oracle: no answer (fall back). */
export type PreciseOutcome = { targetIds: string[] } | { reason: UnresolvedReason };

export interface PreciseOracle {
  resolve(ref: RawReference, file: ParsedFile): PreciseOutcome | undefined;
}

/* SCIP import (implemented in ../scip). */
/** What a SCIP index says about one raw reference: the scopes it names, or why none. */
export type ScipOutcome = { targetIds: string[] } | { reason: UnresolvedReason; origin?: string };

/** What the resolver asks of a SCIP index (see ResolveOptions.scip). */
export interface ScipOracle {
  /** The index's answer for a reference, or undefined: the index says nothing about it (fall back). */
  resolve(ref: RawReference, file: ParsedFile): ScipOutcome | undefined;
  /** EXTENDS / IMPLEMENTS / OVERRIDES between scopes, from the symbols' `is_implementation` relationships. */
  heritage(): ScipHeritage[];
}

export interface ScipHeritage {
  fromId: string;
  toId: string;
  type: Extract<EdgeType, 'EXTENDS' | 'IMPLEMENTS' | 'OVERRIDES'>;
  line: number;
}

/** One import statement's target: a repository file, an external package, or neither (missing file). */
export interface FileImportLink {
  fromPath: string;
  /** Repository file the import resolves to. */
  toPath?: string;
  /** Package (TS/JS: `lodash`, `@nestjs/common`, `node:fs`; Python: top-level module; C#: the namespace). */
  external?: string;
  /** As written. */
  specifier: string;
  line: number;
  /** A relative import whose file is not among the parsed files (asset, JSON, deleted file...). */
  missing?: true;
}

export interface ResolveOptions {
  /** tsconfig `paths`, repo-relative targets: `{ '@app/*': ['src/app/*'] }`. */
  tsPaths?: Record<string, string[]>;
  /** tsconfig `baseUrl`-like roots (repo-relative) tried for non-relative TS/JS specifiers before treating them as packages. */
  tsBaseUrls?: string[];
  /** Extra repo-relative roots for absolute Python imports (the repo root and detected source roots are always tried). */
  pythonRoots?: string[];
  /** The package the repository root itself is (it holds `__init__.py`): absolute imports of that name are the root's modules. */
  pythonRootPackage?: string;
  /** Contents of the language plugins' manifest files (`go.mod`, `composer.json`...) by repo-relative path. */
  manifests?: Readonly<Record<string, string>>;
  /** Default SQL schema for unqualified names (default `dbo`). */
  defaultSqlSchema?: string;
  /** Compiler-grade answers (TS/JS: TypeScript's checker; Python: pyright) for what the fast resolver cannot pin. */
  precise?: PreciseOracle;
  /**
   * An imported SCIP index (../scip): its answer wins over both resolvers for every language, and its
   * implementation relationships add EXTENDS / IMPLEMENTS / OVERRIDES edges.
   */
  scip?: ScipOracle;
  /** Resolution families `precise` answers for (default: `js` only). */
  preciseFamilies?: ReadonlySet<string>;
  /** Ask `precise` about every TS/JS reference first (default: only about what the fast resolver cannot pin). */
  preciseFirst?: boolean;
  /** Also return one {@link RefOutcome} per reference (benchmarks, diagnostics). */
  collectOutcomes?: boolean;
  /**
   * Resolve the references of these files only; every file still informs the lookups. The result is
   * exactly the part of a whole run's result that leaves these files. A re-index uses it when
   * nothing that other files' resolution reads of the changed files changed (see interfaceHash).
   */
  only?: ReadonlySet<string>;
  /**
   * The files' references other than EXTENDS / IMPLEMENTS, when they are not on the parses (an index
   * run keeps them on disk: pipeline/reference-spill.ts): resolved from here, a batch at a time.
   */
  spilled?: ReferenceBatches;
}

/** Every file's non-heritage references in the files' order, a batch of files at a time. */
export interface ReferenceBatches {
  batches(): Iterable<{ path: string; references: RawReference[] }[]>;
}

/** How one raw reference ended: its targets, or why it has none, and which resolver decided. */
export interface RefOutcome {
  ref: RawReference;
  path: string;
  resolver: ResolverName;
  targetIds?: string[];
  reason?: UnresolvedReason;
}

export interface ResolveResult {
  edges: ResolvedEdge[];
  /** Columns, read back as UnresolvedRef objects one at a time (miss-list.ts). */
  unresolved: MissList;
  fileImports: FileImportLink[];
  outcomes?: RefOutcome[];
}
