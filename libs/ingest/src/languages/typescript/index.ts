import { dynamicResolver } from '../dynamic-resolver';
import type { LanguagePlugin } from '../plugin';
import { isJsBuiltin } from './builtins';
import { typeScriptSyntaxErrors } from './compiler-syntax';
import { TypeScriptExtractor } from './extractor';

/**
 * TypeScript, TSX and JavaScript: ES modules and CommonJS (module rules in ./modules.ts, tsconfig
 * `paths`/`baseUrl` included), name lookup shared with Python (../dynamic-resolver.ts), and
 * TypeScript's own checker as the precise resolver (./precise).
 */
export const typeScriptPlugin: LanguagePlugin = {
  languages: [
    { id: 'typescript', extensions: ['ts', 'mts', 'cts'], grammar: { vscode: 'tree-sitter-typescript.wasm' } },
    { id: 'tsx', extensions: ['tsx'], grammar: { vscode: 'tree-sitter-tsx.wasm' } },
    { id: 'javascript', extensions: ['js', 'mjs', 'cjs', 'jsx'], grammar: { vscode: 'tree-sitter-javascript.wasm' } },
  ],
  family: 'js',
  extractor: () => new TypeScriptExtractor(),
  resolver: dynamicResolver,
  isBuiltin: (_language, head) => isJsBuiltin(head),
  syntaxErrors: typeScriptSyntaxErrors,
};
