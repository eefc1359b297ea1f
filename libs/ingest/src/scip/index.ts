/**
 * SCIP import: decode an index (any SCIP indexer's output), map its documents and symbols onto one
 * index run's parsed files and scopes, and answer the resolver's references from it.
 *
 *   const index = readScipIndex('index.scip');
 *   const scip = new ScipResolution(index, parsedFiles, rootPath);
 *   resolveRepository(parsedFiles, { scip });   // SCIP answers first; name-based resolution the rest
 *   scip.stats;                                 // documents used / stale / unknown, ranges outside files
 *
 * Several indexes (one per language): `new ScipOracles([tsIndex, pyIndex])`. `occurrenceEdges()` gives
 * the index's own occurrence -> definition edges for callers that do not resolve raw references.
 * testing/indexers.ts runs scip-typescript and scip-python (npm devDependencies) for tests and benches.
 */
export * from './decode';
export * from './symbol';
export * from './scip-resolution';
