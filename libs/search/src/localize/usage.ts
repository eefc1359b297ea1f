import { escapeLuceneTerm } from '../query/lucene';
import type { IssueSignals } from './signals';

/**
 * Usage: the identifiers an issue spells that name no function are often what a function reads or
 * writes: a URL's query parameters (`title_color=...&bg_color=...`), an option (`langs_count`), a
 * field, a config key. The functions whose bodies use them are where such a value is handled; a body
 * using several of them counts most (the full-text scores of the terms add up).
 */

/** Identifiers searched in bodies, strongest first. */
export const USAGE_TERMS = 12;
/** Functions the list keeps. */
export const USAGE_HITS = 20;

/** Long options read from an issue; each gives two terms (as spelled, and as the field that holds it). */
export const USAGE_FLAGS = 4;
/** Options every command line has: they name no feature of the program. */
const COMMON_FLAGS = new Set(['help', 'version']);

/**
 * Long options an issue spells (`--max-depth`, `--strip-cwd-prefix`): a command line parser declares
 * them as string literals and the program reads them as a field named alike (`max_depth`), so both
 * spellings are searched in bodies. At most USAGE_FLAGS, in order of appearance.
 */
export function optionFlags(signals: Pick<IssueSignals, 'title' | 'prose' | 'codeSpans' | 'codeLines'>): string[] {
  const text = [signals.title, signals.prose, ...signals.codeSpans, ...signals.codeLines].join('\n');
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])/gi)) {
    const flag = m[1].toLowerCase();
    if (flag.length < 4 || COMMON_FLAGS.has(flag) || out.includes(flag)) continue;
    out.push(flag);
    if (out.length === USAGE_FLAGS) break;
  }
  return out;
}

/**
 * The issue's long options (as spelled and as snake_case fields), then whole identifiers that read as
 * code (snake_case or camelCase) without dots; at most USAGE_TERMS.
 */
export function usageTerms(signals: Pick<IssueSignals, 'identifiers'> & Partial<Pick<IssueSignals, 'title' | 'prose' | 'codeSpans' | 'codeLines'>>): string[] {
  const out: string[] = [];
  const flags = optionFlags({ title: signals.title ?? '', prose: signals.prose ?? '', codeSpans: signals.codeSpans ?? [], codeLines: signals.codeLines ?? [] });
  for (const flag of flags) for (const t of flag.includes('-') ? [flag, flag.replace(/-/g, '_')] : [flag]) if (!out.includes(t)) out.push(t);
  for (const id of signals.identifiers) {
    const last = id.split('.').pop() ?? '';
    const bare = last.replace(/^_+|_+$/g, '');
    if (bare.length < 4 || !(/_/.test(bare) || /[a-z][A-Z]/.test(bare))) continue;
    if (!out.includes(last)) out.push(last);
    if (out.length === USAGE_TERMS) break;
  }
  return out;
}

/** The full-text query: any of the terms in a body (the analyzer keeps `snake_case` whole). */
export function usageQuery(terms: readonly string[]): string {
  if (terms.length === 0) return '';
  return `source:(${terms.map((t) => `"${escapeLuceneTerm(t)}"`).join(' ')})`;
}
