import type { Language } from '../../parse/types';

type Ts = typeof import('typescript');
let ts: Ts | undefined;

/** Syntax errors the TypeScript compiler reports (the most it reports per file, like the tree-sitter walk). */
const MAX_ERRORS = 5;

/**
 * What TypeScript's own parser says of a file tree-sitter's grammar rejected. The grammar errs on some
 * valid code (an `import('node:fs').Dirent[]` type, a bare `&` in JSX text); the compiler decides.
 * Loaded lazily: most files never need it, and parse threads pay for it only when one does.
 */
export function typeScriptSyntaxErrors(path: string, content: string, language: Language): string[] {
  ts ??= require('typescript') as Ts;
  const kind = language === 'tsx' ? ts.ScriptKind.TSX : language === 'javascript' ? (/\.jsx$/i.test(path) ? ts.ScriptKind.JSX : ts.ScriptKind.JS) : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, content, ts.ScriptTarget.Latest, false, kind);
  // parseDiagnostics is not in the public typings, but it is what the compiler's syntactic check returns.
  const diagnostics = (file as unknown as { parseDiagnostics?: readonly import('typescript').Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.slice(0, MAX_ERRORS).map((d) => {
    const { line, character } = file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `syntax error at line ${line + 1}, column ${character + 1}: ${ts!.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
