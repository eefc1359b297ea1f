import type { LanguagePlugin } from '../plugin';
import { isCSharpBuiltin } from './builtins';
import { CSharpExtractor } from './extractor';
import { CSharpResolver } from './resolver';

/** C#: namespaces and `using`s (./resolver.ts); SQL in string literals is referenced as SQL (../sql). */
export const cSharpPlugin: LanguagePlugin = {
  languages: [{ id: 'csharp', extensions: ['cs'], grammar: { vscode: 'tree-sitter-c-sharp.wasm' } }],
  family: 'cs',
  extractor: () => new CSharpExtractor(),
  resolver: (ctx) => new CSharpResolver(ctx),
  isBuiltin: (_language, head) => isCSharpBuiltin(head),
};
