import type { LanguagePlugin } from '../plugin';
import { isJavaBuiltin } from './builtins';
import { JavaExtractor } from './extractor';
import { JavaResolver } from './resolver';

/** Java: packages, imports (single-type, on-demand, static), nested types, overloads (docs/graph-model.md). */
export const javaPlugin: LanguagePlugin = {
  languages: [{ id: 'java', extensions: ['java'], grammar: { vscode: 'tree-sitter-java.wasm' } }],
  family: 'java',
  extractor: () => new JavaExtractor(),
  resolver: (ctx) => new JavaResolver(ctx),
  isBuiltin: (_language, head) => isJavaBuiltin(head),
};
