import { useMemo } from 'react';
import { alignFirstLine } from '../lib/format';
import { highlight } from '../lib/highlight';

/** Source with line numbers (from the scope's start line) and highlighting; `maxLines` cuts a preview. */
export function SourceView({ source, language, startLine, maxLines, truncated }: { source: string; language: string; startLine?: number | null; maxLines?: number; truncated?: boolean }) {
  const lines = alignFirstLine(source.replace(/\n$/, '')).split('\n');
  const shown = maxLines && lines.length > maxLines ? lines.slice(0, maxLines) : lines;
  const text = shown.join('\n');
  const html = useMemo(() => highlight(text, language), [text, language]);
  const first = startLine ?? 1;
  const cut = shown.length < lines.length || truncated;
  return (
    <div className="source">
      <pre className="source-gutter" aria-hidden="true">
        {shown.map((_, i) => `${first + i}\n`).join('')}
      </pre>
      <pre className="source-code hljs">
        <code dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
      {cut && <div className="source-cut">… {shown.length < lines.length ? `${lines.length - shown.length} more lines` : 'cut by the server'}</div>}
    </div>
  );
}
