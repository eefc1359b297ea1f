import hljs from 'highlight.js/lib/core';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';

// Only the languages scopegraph indexes, so the bundle carries no others.
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('python', python);
hljs.registerLanguage('csharp', csharp);
hljs.registerLanguage('sql', sql);
hljs.registerLanguage('go', go);
hljs.registerLanguage('java', java);
hljs.registerLanguage('rust', rust);
hljs.registerLanguage('c', c);
hljs.registerLanguage('cpp', cpp);
hljs.registerLanguage('ruby', ruby);
hljs.registerLanguage('php', php);

/** highlight.js grammar per scopegraph language id (libs/code-model LANGUAGES). */
const GRAMMAR: Record<string, string> = {
  typescript: 'typescript', tsx: 'typescript', javascript: 'javascript', python: 'python', csharp: 'csharp', sql: 'sql',
  go: 'go', java: 'java', rust: 'rust', c: 'c', cpp: 'cpp', ruby: 'ruby', php: 'php',
};

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
