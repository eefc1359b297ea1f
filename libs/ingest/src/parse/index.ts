export * from './types';
export { ParserService, languageForPath, normalisePath } from './parser.service';
export type { ParserServiceOptions } from './parser.service';
export type { LanguageExtractor } from './extractor';
export { normaliseSqlName, splitSqlName, sqlRefsInString, findSqlRefs, lexSql } from '../languages/sql/lexer';
export { ParsePool, PARSE_WORKER_SCRIPT } from './parse-pool';
export type { ParseTask, ParseOutcome } from './parse-task';
