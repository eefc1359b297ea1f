/**
 * Retrieval evaluation: dataset parsing and checks, judging ranked lists against targets, metric
 * math, and the per-system report. Pure (no I/O): the `scopegraph eval` command and the benchmarks
 * run the searches and hand the ranked lists in.
 */
export * from './metrics';
export * from './match';
export * from './dataset';
export * from './report';
export * from './doc-query';
export * from './localization';
