import type { LanguagePlugin } from '../plugin';
import { isRubyBuiltin } from './builtins';
import { RubyExtractor } from './extractor';
import { RubyResolver } from './resolver';

export const rubyPlugin: LanguagePlugin = {
  languages: [{
    id: 'ruby', extensions: ['rb', 'rake', 'gemspec'], grammar: { vscode: 'tree-sitter-ruby.wasm' }, filenames: ['Rakefile', 'Gemfile'],
  }],
  family: 'rb',
  extractor: () => new RubyExtractor(),
  resolver: (ctx) => new RubyResolver(ctx),
  isBuiltin: (_language, head) => isRubyBuiltin(head),
};
