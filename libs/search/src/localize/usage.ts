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

/** Whole identifiers that read as code (snake_case or camelCase), without dots, at most USAGE_TERMS. */
export function usageTerms(signals: Pick<IssueSignals, 'identifiers'>): string[] {
  const out: string[] = [];
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
