import * as fs from 'node:fs';

/**
 * A SCIP index as plain data: only what scopegraph reads (documents, occurrences, symbols and their
 * relationships, the tool and project root). Ranges are SCIP's: 0-based, `[line, startChar, endChar]`
 * or `[startLine, startChar, endLine, endChar]`.
 */
export interface ScipIndex {
  tool: { name: string; version: string };
  /** URI of the directory the indexer ran in (`file:///...`); document paths are relative to it. */
  projectRoot: string;
  documents: ScipDocument[];
  /** Symbols the index describes but does not define (dependencies, standard library). */
  externalSymbols: ScipSymbolInfo[];
}

export interface ScipDocument {
  relativePath: string;
  language: string;
  /** The document's text when the indexer embedded it (most do not). */
  text: string;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInfo[];
}

export interface ScipOccurrence {
  range: number[];
  symbol: string;
  /** Bit set of SymbolRole (Definition = 1, Import = 2, WriteAccess = 4, ReadAccess = 8...). */
  roles: number;
  enclosingRange: number[];
}

export interface ScipRelationship {
  symbol: string;
  isReference: boolean;
  isImplementation: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

export interface ScipSymbolInfo {
  symbol: string;
  relationships: ScipRelationship[];
}

export const SCIP_ROLE_DEFINITION = 1;
export const SCIP_ROLE_IMPORT = 2;

/** Raised for bytes that are not a SCIP index. */
export class ScipDecodeError extends Error {}

// The binding generated from the SCIP project's scip.proto ships inside @sourcegraph/scip-typescript
// (dist/src/scip.js, google-protobuf runtime): using it avoids vendoring and hand-decoding the schema.
// It has no type declarations; the shapes below are the parts of it this file reads.
interface PbRelationship { symbol: string; is_reference: boolean; is_implementation: boolean; is_type_definition: boolean; is_definition: boolean }
interface PbSymbolInformation { symbol: string; relationships: PbRelationship[] }
interface PbOccurrence { range: number[]; symbol: string; symbol_roles: number; enclosing_range: number[] }
interface PbDocument { relative_path: string; language: string; text: string; occurrences: PbOccurrence[]; symbols: PbSymbolInformation[] }
interface PbIndex {
  metadata: { project_root: string; tool_info: { name: string; version: string } };
  documents: PbDocument[];
  external_symbols: PbSymbolInformation[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const binding = require('@sourcegraph/scip-typescript/dist/src/scip') as { scip: { Index: { deserializeBinary(bytes: Uint8Array): PbIndex } } };

const symbolInfo = (s: PbSymbolInformation): ScipSymbolInfo => ({
  symbol: s.symbol,
  relationships: s.relationships.map((r) => ({
    symbol: r.symbol, isReference: r.is_reference, isImplementation: r.is_implementation, isTypeDefinition: r.is_type_definition, isDefinition: r.is_definition,
  })),
});

/** Decodes a SCIP index (protobuf bytes). Throws ScipDecodeError for anything else. */
export function decodeScipIndex(bytes: Uint8Array): ScipIndex {
  let pb: PbIndex;
  try {
    pb = binding.scip.Index.deserializeBinary(bytes);
  } catch (error) {
    throw new ScipDecodeError(`not a SCIP index (protobuf decoding failed: ${(error as Error).message})`);
  }
  const documents = pb.documents.map((d): ScipDocument => ({
    relativePath: d.relative_path,
    language: d.language,
    text: d.text,
    occurrences: d.occurrences.map((o) => ({ range: o.range, symbol: o.symbol, roles: o.symbol_roles, enclosingRange: o.enclosing_range })),
    symbols: d.symbols.map(symbolInfo),
  }));
  // Protobuf decodes almost any bytes into some message: an index with no tool and no documents is not one.
  if (!pb.metadata?.tool_info?.name && documents.length === 0) throw new ScipDecodeError('not a SCIP index (no metadata and no documents)');
  if (documents.some((d) => !d.relativePath)) throw new ScipDecodeError('not a SCIP index (a document without a path)');
  return {
    tool: { name: pb.metadata?.tool_info?.name ?? '', version: pb.metadata?.tool_info?.version ?? '' },
    projectRoot: pb.metadata?.project_root ?? '',
    documents,
    externalSymbols: pb.external_symbols.map(symbolInfo),
  };
}

/** Reads and decodes a SCIP index file. */
export function readScipIndex(file: string): ScipIndex {
  return decodeScipIndex(fs.readFileSync(file));
}
