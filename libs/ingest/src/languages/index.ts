import type { Language } from '../parse/types';
import { cFamilyPlugin } from './c-cpp';
import { cSharpPlugin } from './csharp';
import { goPlugin } from './go';
import { javaPlugin } from './java';
import { phpPlugin } from './php';
import type { LanguagePlugin } from './plugin';
import { pythonPlugin } from './python';
import { rubyPlugin } from './ruby';
import { rustPlugin } from './rust';
import { sqlPlugin } from './sql';
import { typeScriptPlugin } from './typescript';

export type { GrammarSource, LanguagePlugin } from './plugin';

/** The languages scopegraph reads, one entry each (docs/languages.md says how to add one). */
export const LANGUAGE_PLUGINS: readonly LanguagePlugin[] = [
  typeScriptPlugin,
  pythonPlugin,
  cSharpPlugin,
  sqlPlugin,
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
