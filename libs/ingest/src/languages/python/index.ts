import { dynamicResolver } from '../dynamic-resolver';
import type { LanguagePlugin } from '../plugin';
import { isPythonBuiltin } from './builtins';
import { PythonExtractor } from './extractor';

/** Python: packages and source roots (./modules.ts), name lookup shared with TS/JS (../dynamic-resolver.ts). */
export const pythonPlugin: LanguagePlugin = {
  languages: [{ id: 'python', extensions: ['py', 'pyi'], grammar: { vscode: 'tree-sitter-python.wasm' } }],
  family: 'py',
  extractor: () => new PythonExtractor(),
  resolver: dynamicResolver,
  isBuiltin: (_language, head) => isPythonBuiltin(head),
};
