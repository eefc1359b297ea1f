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

/** Sub-commands read from an issue's command lines. */
export const USAGE_COMMANDS = 2;

/**
 * Sub-commands of shell invocations the issue shows (`$ flask routes`, `> tool build --x`): a program
 * names a sub-command's handler after it (`routes_command`, `routesCommand`, `cmd_routes`), so those
 * spellings are searched (a body holds its own definition line). At most USAGE_COMMANDS.
 */
export function commandNames(signals: Pick<IssueSignals, 'prose' | 'codeSpans' | 'codeLines'>): string[] {
  const lines = [...signals.codeLines, ...signals.codeSpans, ...signals.prose.split('\n')].flatMap((t) => t.split('\n'));
  const out: string[] = [];
  for (const line of lines) {
    const m = /^\s*[$>]\s+[\w.-]+\s+([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)(?=\s|$)/i.exec(line);
    if (!m || m[1].length < 3) continue;
    const sub = m[1].toLowerCase();
    if (!out.includes(sub)) out.push(sub);
    if (out.length === USAGE_COMMANDS) break;
  }
  return out;
}

/** The names a handler of sub-command `sub` is given in the languages of the dev set and beyond. */
export function commandSpellings(sub: string): string[] {
  const snake = sub.replace(/-/g, '_');
  const camel = snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return [`${snake}_command`, `${camel}Command`, `cmd_${snake}`, `${snake}_cmd`];
}

/**
 * What a test the issue names tests (`test_parse_header` → `parse_header`, `testMergeSettings` →
 * `mergeSettings`, `HeaderParserTest.testX` → `HeaderParser`), when it still reads as code.
 */
export function testedNames(identifier: string): string[] {
  const out: string[] = [];
  for (const part of identifier.split('.')) {
    const bare = part.replace(/^test_+/i, (m) => (m.length === part.length ? m : '')).replace(/^[tT]est(?=[A-Z])/, '');
    const cls = /^(\w+?)Tests?$/.exec(part)?.[1];
    for (const name of [bare !== part ? bare.charAt(0).toLowerCase() + bare.slice(1) : '', cls ?? '']) {
      if (name.length >= 4 && (/_/.test(name) || /[a-z][A-Z]/.test(name)) && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

/** How strongly a name guessed from a command line or a test's name counts in the name list (a name the issue spells counts 1). */
export const DERIVED_NAME_STRENGTH = 0.8;

/**
 * Names the issue implies without spelling them: its sub-commands' handlers (`$ flask routes` →
 * `routes_command`) and what the tests it names test (`test_parse_header` → `parse_header`); they
 * join the name list (a guess finds nothing unless a function is so named).
 */
export function derivedNames(signals: Pick<IssueSignals, 'identifiers' | 'prose' | 'codeSpans' | 'codeLines'>): { name: string; strength: number; mention: string }[] {
  const out: { name: string; strength: number; mention: string }[] = [];
  const add = (name: string, mention: string) => {
    if (!out.some((o) => o.name === name) && !signals.identifiers.includes(name)) out.push({ name, strength: DERIVED_NAME_STRENGTH, mention });
  };
  for (const sub of commandNames(signals)) for (const name of commandSpellings(sub)) add(name, `the ${sub} command`);
  for (const id of signals.identifiers) {
    for (const name of testedNames(id)) {
      add(name, id);
      // Case differs between languages (`TestParseHeader` tests Go's `ParseHeader`).
      if (/^[a-z]+[A-Z]/.test(name)) add(name.charAt(0).toUpperCase() + name.slice(1), id);
    }
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
    if (out.length >= USAGE_TERMS) break;
  }
  return out.slice(0, USAGE_TERMS);
}

/** The full-text query: any of the terms in a body (the analyzer keeps `snake_case` whole). */
export function usageQuery(terms: readonly string[]): string {
  if (terms.length === 0) return '';
  return `source:(${terms.map((t) => `"${escapeLuceneTerm(t)}"`).join(' ')})`;
}
