import { cleanBlockComment, cleanLineComments } from '../../parse/doc-comments';
import type { LanguageExtractor, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import { findSqlRefs, lexSql, parseObjectName, SqlComment, SqlToken, sqlDisplayName } from './lexer';
import type { Language, ScopeKind } from '../../parse/types';

const OBJECT_KINDS: Record<string, ScopeKind> = {
  TABLE: 'table',
  VIEW: 'view',
  PROC: 'procedure',
  PROCEDURE: 'procedure',
  FUNCTION: 'sql_function',
  TRIGGER: 'trigger',
};

interface Header {
  kind: ScopeKind;
  /** Index of CREATE/ALTER. */
  start: number;
  /** Index of the kind keyword. */
  kindAt: number;
  parts: string[];
  /** Index after the name. */
  afterName: number;
}

/**
 * SQL files, T-SQL first (also copes with most PostgreSQL/MySQL DDL).
 *
 * Own tokenizer (comments, strings, [brackets], "quotes", nested block comments, `$$` bodies), batches
 * split on `GO` lines; `CREATE [OR ALTER | OR REPLACE] | ALTER` TABLE / VIEW / PROC[EDURE] / FUNCTION /
 * TRIGGER become scopes named `schema.name` (brackets stripped, default schema `dbo`, database part
 * dropped). A routine runs to the end of its batch (or the next routine header); a table to the end of
 * its column list. References per scope come from {@link findSqlRefs}: tables/views read or written
 * (REFERENCES), `EXEC proc` and `schema.fn(...)` (CALLS), foreign keys, trigger targets; statements
 * outside any object (seed data, ALTER TABLE...) are attributed to the file scope.
 *
 * node-sql-parser's TransactSQL grammar was evaluated and not used: it rejected CREATE PROCEDURE /
 * FUNCTION bodies, views with WHERE/JOIN ... ON, inline FOREIGN KEY ... REFERENCES and MERGE, returned
 * an empty table list for CREATE VIEW, missed `schema.fn()` calls and listed CTE names as tables.
 */
export class SqlExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['sql'];
  readonly usesTreeSitter = false;

  extract(b: FileBuilder, _tree: Tree | null): void {
    const { tokens, comments } = lexSql(b.content);
    for (const [from, to] of batches(tokens)) this.batch(b, tokens, comments, from, to);
  }

  private batch(b: FileBuilder, tokens: SqlToken[], comments: SqlComment[], from: number, to: number): void {
    const headers: Header[] = [];
    let routineOpen = false;
    for (let i = from; i < to; i++) {
      const h = header(tokens, i, to);
      if (!h) continue;
      if (h.kind === 'table' && routineOpen) continue; // CREATE TABLE inside a procedure body
      headers.push(h);
      if (h.kind !== 'table') routineOpen = true;
      i = h.afterName - 1;
    }
    let cursor = from; // tokens before `cursor` are attributed
    for (let h = 0; h < headers.length; h++) {
      const hd = headers[h];
      const nextStart = h + 1 < headers.length ? headers[h + 1].start : to;
      let end = nextStart; // exclusive token index
      if (hd.kind === 'table') end = tableEnd(tokens, hd.afterName, nextStart);
      if (cursor < hd.start) this.stray(b, tokens, cursor, hd.start);
      this.object(b, tokens, comments, hd, end);
      cursor = end;
    }
    if (cursor < to) this.stray(b, tokens, cursor, to);
  }

  private object(b: FileBuilder, tokens: SqlToken[], comments: SqlComment[], h: Header, end: number): void {
    const first = tokens[h.start];
    const last = tokens[Math.max(h.start, end - 1)];
    const display = sqlDisplayName(h.parts);
    const qualified = display.includes('.') ? display : `dbo.${display}`;
    const name = h.parts[h.parts.length - 1];
    const sigEnd = signatureEnd(tokens, h, end);
    const s = b.addScope({
      name,
      qualifiedName: qualified,
      kind: h.kind,
      parent: b.file,
      startIndex: first.start,
      endIndex: last.end,
      startLine: first.line,
      endLine: last.line + countNl(last.text),
      signature: b.content.slice(first.start, tokens[sigEnd - 1].end),
      docComment: docFor(comments, tokens, h.start),
    });
    if (h.kind === 'trigger') {
      // CREATE TRIGGER t ON dbo.Invoice AFTER INSERT
      if (tokens[h.afterName]?.kw === 'ON') {
        const nm = parseObjectName(tokens, h.afterName + 1);
        if (nm) b.ref(s, 'REFERENCES', sqlDisplayName(nm.parts), tokens[h.afterName + 1].line);
      }
    }
    this.refs(b, s, tokens, h.afterName, end);
    // PostgreSQL: AS $$ body $$
    for (let i = h.afterName; i < end; i++) {
      const t = tokens[i];
      if (t.type === 'string' && t.text.startsWith('$')) {
        const open = /^\$[A-Za-z_]*\w*\$/.exec(t.text)?.[0] ?? '$$';
        const inner = t.text.slice(open.length, t.text.length - open.length);
        const lineBase = t.line - 1;
        for (const r of findSqlRefs(lexSql(inner).tokens)) b.ref(s, r.kind, r.name, lineBase + r.line);
      }
    }
  }

  private refs(b: FileBuilder, s: ScopeDraft, tokens: SqlToken[], from: number, to: number): void {
    const self = s.qualifiedName.toLowerCase();
    for (const r of findSqlRefs(tokens, from, to)) {
      const q = (r.name.includes('.') ? r.name : `dbo.${r.name}`).toLowerCase();
      if (q === self && s.kind !== 'procedure') continue; // ALTER TABLE x ... inside its own definition
      b.ref(s, r.kind, r.name, r.line);
    }
  }

  private stray(b: FileBuilder, tokens: SqlToken[], from: number, to: number): void {
    for (const r of findSqlRefs(tokens, from, to)) b.ref(b.file, r.kind, r.name, r.line);
  }
}

/** [from, to) token ranges separated by `GO` (alone on its line, optionally with a count). */
function batches(tokens: SqlToken[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kw !== 'GO' || !t.lineStart) continue;
    const next = tokens[i + 1];
    const sameLine = next && next.line === t.line;
    if (sameLine && !(next.type === 'number' && (!tokens[i + 2] || tokens[i + 2].line !== t.line)) && next.text !== ';') continue;
    if (i > start) out.push([start, i]);
    start = sameLine ? i + 2 : i + 1;
  }
  if (start < tokens.length) out.push([start, tokens.length]);
  return out;
}

/** `CREATE [OR ALTER|OR REPLACE] [DEFINER=..] [TEMP] TABLE|VIEW|PROC|... name` at token i. */
function header(tokens: SqlToken[], i: number, to: number): Header | null {
  const t = tokens[i];
  if (t.kw !== 'CREATE' && t.kw !== 'ALTER') return null;
  let k = i + 1;
  if (t.kw === 'CREATE' && tokens[k]?.kw === 'OR' && (tokens[k + 1]?.kw === 'ALTER' || tokens[k + 1]?.kw === 'REPLACE')) k += 2;
  // MySQL DEFINER = user, PostgreSQL TEMP/UNLOGGED/MATERIALIZED, SQL Server materialized flags
  for (let guard = 0; guard < 6 && k < to; guard++) {
    const kw = tokens[k]?.kw;
    if (kw === 'DEFINER') {
      k += 2;
      while (k < to && tokens[k].type !== 'word') k++;
      if (tokens[k]?.kw && !OBJECT_KINDS[tokens[k].kw]) k++;
      continue;
    }
    if (kw === 'TEMP' || kw === 'TEMPORARY' || kw === 'UNLOGGED' || kw === 'MATERIALIZED' || kw === 'ALGORITHM'
      || kw === 'SQL' || kw === 'SECURITY' || kw === 'INVOKER' || kw === 'DEFINER' || kw === 'RECURSIVE') {
      k++;
      continue;
    }
    break;
  }
  const kindTok = tokens[k];
  const kind = kindTok ? OBJECT_KINDS[kindTok.kw] : undefined;
  if (!kind) return null;
  if (t.kw === 'ALTER' && kind === 'table') return null; // ALTER TABLE changes, does not define
  let n = k + 1;
  if (tokens[n]?.kw === 'IF' && tokens[n + 1]?.kw === 'NOT' && tokens[n + 2]?.kw === 'EXISTS') n += 3;
  const nm = parseObjectName(tokens, n);
  if (!nm || nm.next > to) return null;
  const first = nm.parts[0];
  if (first.startsWith('#') || first.startsWith('@')) return null; // temp objects
  let afterName = nm.next;
  // procedure number: CREATE PROC p;2
  if (tokens[afterName]?.text === ';' && tokens[afterName + 1]?.type === 'number') afterName += 2;
  return { kind, start: i, kindAt: k, parts: nm.parts, afterName };
}

/** End (exclusive) of a CREATE TABLE: its column list's closing parenthesis (and a `;`). */
function tableEnd(tokens: SqlToken[], afterName: number, limit: number): number {
  let depth = 0;
  let opened = false;
  for (let j = afterName; j < limit; j++) {
    const t = tokens[j].text;
    if (t === '(') {
      depth++;
      opened = true;
    } else if (t === ')') {
      depth--;
      if (opened && depth === 0) {
        let e = j + 1;
        // trailing options: ON [PRIMARY], WITH (...), TEXTIMAGE_ON x, ENGINE=...; stop at ';' or next statement
        while (e < limit && tokens[e].text !== ';' && !tokens[e].lineStart) e++;
        if (tokens[e]?.text === ';' && e < limit) e++;
        return e;
      }
    } else if (t === ';' && depth === 0) {
      return j + 1;
    } else if (!opened && (tokens[j].kw === 'AS' || tokens[j].kw === 'SELECT')) {
      // CREATE TABLE x AS SELECT ...: until ';' or end
      for (let e = j; e < limit; e++) if (tokens[e].text === ';') return e + 1;
      return limit;
    }
  }
  return limit;
}

/** Exclusive token index ending the header: before the body's `AS` (routines) or the `(` (tables). */
function signatureEnd(tokens: SqlToken[], h: Header, end: number): number {
  if (h.kind === 'table') return h.afterName;
  let depth = 0;
  for (let j = h.afterName; j < end; j++) {
    const t = tokens[j];
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.kw === 'AS' && tokens[j - 1]?.type !== 'var') return j;
    else if (depth === 0 && (t.kw === 'BEGIN' || t.kw === 'SELECT' || t.kw === 'LANGUAGE')) return j;
  }
  return Math.min(end, h.afterName);
}

/** `--` lines or a block comment directly above token `i` (nothing but whitespace in between). */
function docFor(comments: SqlComment[], tokens: SqlToken[], i: number): string | null {
  const t = tokens[i];
  const prevEnd = i > 0 ? tokens[i - 1].end : -1;
  // last comment ending before the token
  let lo = 0;
  let hi = comments.length - 1;
  let idx = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid].end <= t.start) {
      idx = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (idx < 0) return null;
  const run: SqlComment[] = [];
  let line = t.line;
  for (let k = idx; k >= 0; k--) {
    const c = comments[k];
    if (c.start < prevEnd || c.endLine < line - 1) break;
    if (run.length && c.text.startsWith('/*') !== run[0].text.startsWith('/*')) break;
    run.unshift(c);
    line = c.line;
    if (c.text.startsWith('/*')) break;
  }
  if (!run.length) return null;
  if (run[0].text.startsWith('/*')) return cleanBlockComment(run[0].text);
  return cleanLineComments(run.map((c) => c.text), '--');
}

function countNl(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
