import hljs from 'highlight.js/lib/core';
import csharp from 'highlight.js/lib/languages/csharp';
import javascript from 'highlight.js/lib/languages/javascript';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';

// Only the languages scopegraph indexes, so the bundle carries no others.
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('python', python);
hljs.registerLanguage('csharp', csharp);
hljs.registerLanguage('sql', sql);

const GRAMMAR: Record<string, string> = { typescript: 'typescript', tsx: 'typescript', javascript: 'javascript', python: 'python', csharp: 'csharp', sql: 'sql' };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Highlighted HTML for source text (highlight.js escapes the text itself; unknown languages are escaped here). */
export function highlight(source: string, language: string): string {
  const grammar = GRAMMAR[language];
  if (!grammar) return escapeHtml(source);
  return hljs.highlight(source, { language: grammar, ignoreIllegals: true }).value;
}
