import type { LanguagePlugin } from '../plugin';
import { SqlExtractor } from './extractor';

/**
 * SQL (T-SQL flavoured): read by its own tokenizer (./lexer.ts), no tree-sitter grammar. It has no family
 * resolver: the resolution driver matches SQL names, from SQL files and C# string literals, with
 * ./resolver.ts.
 */
export const sqlPlugin: LanguagePlugin = {
  languages: [{ id: 'sql', extensions: ['sql'] }],
  family: 'sql',
  extractor: () => new SqlExtractor(),
};
