import type { LanguagePlugin } from '../plugin';
import { isPhpBuiltin } from './builtins';
import { PhpExtractor } from './extractor';
import { PhpResolver } from './resolver';

export const phpPlugin: LanguagePlugin = {
  // the grammar with inline HTML (`text` outside `<?php ... ?>`), not php_only
  languages: [{ id: 'php', extensions: ['php', 'phtml'], grammar: { vscode: 'tree-sitter-php.wasm' } }],
  family: 'php',
  extractor: () => new PhpExtractor(),
  resolver: (ctx) => new PhpResolver(ctx),
  manifests: ['composer.json'],
  isBuiltin: (_language, head) => isPhpBuiltin(head),
};
