import type { LanguagePlugin } from '../plugin';
import { isGoPredeclared } from './builtins';
import { GoExtractor } from './extractor';
import { GoResolver } from './resolver';

/** Go: packages are directories, import paths map through go.mod's module path (see ./resolver.ts). */
export const goPlugin: LanguagePlugin = {
  languages: [{ id: 'go', extensions: ['go'], grammar: { vscode: 'tree-sitter-go.wasm' } }],
  family: 'go',
  extractor: () => new GoExtractor(),
  resolver: (ctx) => new GoResolver(ctx),
  manifests: ['go.mod'],
  isBuiltin: (_language, head) => isGoPredeclared(head),
};
