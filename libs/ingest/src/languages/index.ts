import { CSharpExtractor } from '../parse/csharp.extractor';
import { PythonExtractor } from '../parse/python.extractor';
import { SqlExtractor } from '../parse/sql.extractor';
import type { Language } from '../parse/types';
import { TypeScriptExtractor } from '../parse/typescript.extractor';
import { CSharpResolver } from '../resolve/csharp';
import { DynamicResolver } from '../resolve/dynamic';
import { cFamilyPlugin } from './c-cpp';
import { goPlugin } from './go';
import { javaPlugin } from './java';
import { phpPlugin } from './php';
import type { LanguagePlugin } from './plugin';
import { rubyPlugin } from './ruby';
import { rustPlugin } from './rust';
import { typeScriptSyntaxErrors } from './typescript/compiler-syntax';

export type { GrammarSource, LanguagePlugin } from './plugin';

/**
 * TS/JS and Python share one resolver (their module systems differ, their name lookup does not): plugins
 * with the same factory function get one instance per resolution run.
 */
const dynamic: NonNullable<LanguagePlugin['resolver']> = (ctx) => new DynamicResolver(ctx);

/** The languages scopegraph reads, one entry each (docs/languages.md says how to add one). */

export const LANGUAGE_PLUGINS: readonly LanguagePlugin[] = [
  {
    languages: [
      { id: 'typescript', extensions: ['ts', 'mts', 'cts'], grammar: { vscode: 'tree-sitter-typescript.wasm' } },
      { id: 'tsx', extensions: ['tsx'], grammar: { vscode: 'tree-sitter-tsx.wasm' } },
      { id: 'javascript', extensions: ['js', 'mjs', 'cjs', 'jsx'], grammar: { vscode: 'tree-sitter-javascript.wasm' } },
    ],
    family: 'js',
    extractor: () => new TypeScriptExtractor(),
    resolver: dynamic,
    syntaxErrors: typeScriptSyntaxErrors,
  },
  {
    languages: [{ id: 'python', extensions: ['py', 'pyi'], grammar: { vscode: 'tree-sitter-python.wasm' } }],
    family: 'py',
    extractor: () => new PythonExtractor(),
    resolver: dynamic,
  },
  {
    languages: [{ id: 'csharp', extensions: ['cs'], grammar: { vscode: 'tree-sitter-c-sharp.wasm' } }],
    family: 'cs',
    extractor: () => new CSharpExtractor(),
    resolver: (ctx) => new CSharpResolver(ctx),
  },
  {
    languages: [{ id: 'sql', extensions: ['sql'] }],
    family: 'sql',
    extractor: () => new SqlExtractor(),
  },
  goPlugin,
  javaPlugin,
  rustPlugin,
  cFamilyPlugin,
  rubyPlugin,
  phpPlugin,
];

const byLanguage = new Map<Language, { plugin: LanguagePlugin; entry: LanguagePlugin['languages'][number] }>();
const byExtension = new Map<string, Language>();
const byFilename = new Map<string, Language>();
for (const plugin of LANGUAGE_PLUGINS) {
  for (const entry of plugin.languages) {
    if (byLanguage.has(entry.id)) throw new Error(`language ${entry.id} is registered twice`);
    byLanguage.set(entry.id, { plugin, entry });
    for (const ext of entry.extensions) {
      if (byExtension.has(ext)) throw new Error(`extension .${ext} is registered twice`);
      byExtension.set(ext, entry.id);
    }
    for (const name of entry.filenames ?? []) byFilename.set(name, entry.id);
  }
}

/** Every registered language id. */
export const REGISTERED_LANGUAGES: readonly Language[] = [...byLanguage.keys()];

export function pluginOf(language: Language): LanguagePlugin | undefined {
  return byLanguage.get(language)?.plugin;
}

export function grammarOf(language: Language): LanguagePlugin['languages'][number]['grammar'] {
  return byLanguage.get(language)?.entry.grammar;
}

/** The resolution family of a language ('sql' for unknown ones: no family resolver). */
export function familyOf(language: Language): string {
  return byLanguage.get(language)?.plugin.family ?? 'sql';
}

/** Language of a path by extension (case-insensitive) or by whole file name (`Rakefile`), or null. */
export function languageForPath(path: string): Language | null {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1);
  const named = byFilename.get(base);
  if (named) return named;
  const dot = base.lastIndexOf('.');
  if (dot < 0 || dot === base.length - 1) return null;
  return byExtension.get(base.slice(dot + 1).toLowerCase()) ?? null;
}

/** Manifest file names the registered plugins read (see LanguagePlugin.manifests), per family. */
export function manifestNames(): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const p of LANGUAGE_PLUGINS) if (p.manifests?.length) out.set(p.family, p.manifests);
  return out;
}
