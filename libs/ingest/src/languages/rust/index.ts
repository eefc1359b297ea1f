import type { LanguagePlugin } from '../plugin';
import { isRustBuiltin } from './builtins';
import { RustExtractor } from './extractor';
import { RustResolver } from './resolver';

/** Rust: crates from Cargo.toml, `mod`/`use` paths, `impl` blocks anywhere in the crate (see resolver.ts). */
export const rustPlugin: LanguagePlugin = {
  languages: [{ id: 'rust', extensions: ['rs'], grammar: { vscode: 'tree-sitter-rust.wasm' } }],
  family: 'rust',
  extractor: () => new RustExtractor(),
  resolver: (ctx) => new RustResolver(ctx),
  manifests: ['Cargo.toml'],
  isBuiltin: (_language, head) => isRustBuiltin(head),
};
