// The vocabulary of the code graph, shared by ingest (which writes it) and search (which reads it).
// Pure data and functions: no Nest, no parser, no driver.
export * from './kinds';
export * from './edges';
export * from './ids';
export { identifierSubTokens, nameTokens, subTokenList } from './tokens';
