/**
 * A small, forgiving T-SQL tokenizer and reference finder, shared by the SQL extractor and by the C#
 * extractor (SQL inside string literals). Comments and string literals never produce references.
 * Pure and linear-time; never throws.
 */

export type SqlTokenType = 'word' | 'quoted' | 'var' | 'string' | 'number' | 'punct' | 'op';

export interface SqlToken {
  type: SqlTokenType;
  /** Raw text. */
  text: string;
  /** Identifier value (brackets/quotes removed) for word/quoted; text otherwise. */
  value: string;
  /** Upper-cased value for unquoted words ('' otherwise): keyword tests. */
  kw: string;
  start: number;
  end: number;
  /** 1-based. */
  line: number;
  /** First token on its line. */
  lineStart: boolean;
}

export interface SqlComment {
  text: string;
  start: number;
  end: number;
  line: number;
  endLine: number;
}

export interface SqlLexResult {
  tokens: SqlToken[];
  comments: SqlComment[];
}

const isIdentStart = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
const isIdentPart = (c: number): boolean =>
  isIdentStart(c) || (c >= 48 && c <= 57) || c === 36 || c === 35 || c === 64;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export function lexSql(text: string): SqlLexResult {
  const tokens: SqlToken[] = [];
  const comments: SqlComment[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let lastTokenLine = 0;
  const countNl = (from: number, to: number): number => {
    let k = 0;
    for (let j = from; j < to; j++) if (text.charCodeAt(j) === 10) k++;
    return k;
  };
  const push = (type: SqlTokenType, start: number, end: number, value?: string): void => {
    const raw = text.slice(start, end);
    tokens.push({
      type, text: raw, value: value ?? raw, kw: type === 'word' ? raw.toUpperCase() : '',
      start, end, line, lineStart: line !== lastTokenLine,
    });
    lastTokenLine = line;
    line += countNl(start, end);
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    // whitespace
    if (c === 10) { line++; i++; continue; }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff) { i++; continue; }
    // -- comment
    if (c === 45 && text.charCodeAt(i + 1) === 45) {
      let j = text.indexOf('\n', i);
      if (j === -1) j = n;
      comments.push({ text: text.slice(i, j).replace(/\r$/, ''), start: i, end: j, line, endLine: line });
      i = j;
      continue;
    }
    // /* nested */ comment
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (text.charCodeAt(j) === 47 && text.charCodeAt(j + 1) === 42) { depth++; j += 2; }
        else if (text.charCodeAt(j) === 42 && text.charCodeAt(j + 1) === 47) { depth--; j += 2; }
        else j++;
      }
      const nl = countNl(i, j);
      comments.push({ text: text.slice(i, j), start: i, end: j, line, endLine: line + nl });
      line += nl;
      i = j;
      continue;
    }
    // 'string' / N'string'
    if (c === 39 || ((c === 78 || c === 110) && text.charCodeAt(i + 1) === 39)) {
      let j = c === 39 ? i + 1 : i + 2;
      while (j < n) {
        if (text.charCodeAt(j) === 39) {
          if (text.charCodeAt(j + 1) === 39) { j += 2; continue; }
          j++;
          break;
        }
        j++;
      }
      if (j > n) j = n;
      push('string', i, j);
      i = j;
      continue;
    }
    // "quoted identifier"
    if (c === 34) {
      let j = i + 1;
      while (j < n) {
        if (text.charCodeAt(j) === 34) {
          if (text.charCodeAt(j + 1) === 34) { j += 2; continue; }
          j++;
          break;
        }
        j++;
      }
      push('quoted', i, j, text.slice(i + 1, Math.max(i + 1, j - 1)).replace(/""/g, '"'));
      i = j;
      continue;
    }
    // [bracketed identifier]
    if (c === 91) {
      let j = i + 1;
      while (j < n) {
        if (text.charCodeAt(j) === 93) {
          if (text.charCodeAt(j + 1) === 93) { j += 2; continue; }
          j++;
          break;
        }
        if (text.charCodeAt(j) === 10) break; // unterminated: stop at end of line
        j++;
      }
      push('quoted', i, j, text.slice(i + 1, Math.max(i + 1, j - 1)).replace(/]]/g, ']'));
      i = j;
      continue;
    }
    // $$ dollar-quoted $$ (PostgreSQL bodies)
    if (c === 36) {
      const m = /^\$([A-Za-z_]\w*)?\$/.exec(text.slice(i, i + 64));
      if (m) {
        const close = text.indexOf(m[0], i + m[0].length);
        const j = close === -1 ? n : close + m[0].length;
        push('string', i, j);
        i = j;
        continue;
      }
    }
    // @var / @@global
    if (c === 64) {
      let j = i + 1;
      if (text.charCodeAt(j) === 64) j++;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      push('var', i, j);
      i = j;
      continue;
    }
    // words, incl. #temp / ##global temp
    if (isIdentStart(c) || (c === 35 && i + 1 < n && (isIdentStart(text.charCodeAt(i + 1)) || text.charCodeAt(i + 1) === 35))) {
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      push('word', i, j);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isIdentPart(text.charCodeAt(j)) || text.charCodeAt(j) === 46)) j++;
      push('number', i, j);
      i = j;
      continue;
    }
    if (c === 46 || c === 44 || c === 40 || c === 41 || c === 59) {
      push('punct', i, i + 1);
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '<=' || two === '>=' || two === '<>' || two === '!=' || two === '::' || two === '+=' || two === '-=') {
      push('op', i, i + 2);
      i += 2;
      continue;
    }
    push('op', i, i + 1);
    i++;
  }
  return { tokens, comments };
}

/** Words that never start an object name when unquoted. */
const RESERVED = new Set([
  'ADD', 'ALL', 'ALTER', 'AND', 'ANY', 'APPLY', 'AS', 'ASC', 'BEGIN', 'BETWEEN', 'BREAK', 'BY', 'CASCADE', 'CASE',
  'CHECK', 'CLOSE', 'COLUMN', 'COMMIT', 'CONSTRAINT', 'CONTINUE', 'CREATE', 'CROSS', 'CURRENT', 'CURSOR', 'DEALLOCATE',
  'DECLARE', 'DEFAULT', 'DELETE', 'DESC', 'DISTINCT', 'DROP', 'ELSE', 'END', 'EXCEPT', 'EXEC', 'EXECUTE', 'EXISTS',
  'FETCH', 'FOR', 'FOREIGN', 'FROM', 'FULL', 'FUNCTION', 'GO', 'GOTO', 'GROUP', 'HAVING', 'IF', 'IN', 'INDEX', 'INNER',
  'INSERT', 'INTERSECT', 'INTO', 'IS', 'JOIN', 'KEY', 'LEFT', 'LIKE', 'MERGE', 'NO', 'NOCOUNT', 'NOT', 'NULL', 'OF', 'OFF',
  'ON', 'OPEN', 'OR', 'ORDER', 'OUTER', 'OUTPUT', 'OVER', 'PERCENT', 'PIVOT', 'PRIMARY', 'PRINT', 'PROC', 'PROCEDURE',
  'RAISERROR', 'READONLY', 'RETURN', 'RETURNS', 'RIGHT', 'ROLLBACK', 'SAVE', 'SELECT', 'SET', 'STATISTICS', 'TABLE',
  'THEN', 'THROW', 'TOP', 'TRAN', 'TRANSACTION', 'TRIGGER', 'TRUNCATE', 'TRY', 'CATCH', 'UNION', 'UNIQUE', 'UNPIVOT',
  'UPDATE', 'USING', 'VALUES', 'VIEW', 'WAITFOR', 'WHEN', 'WHERE', 'WHILE', 'WITH', 'LATERAL', 'ONLY', 'LIMIT',
]);

/** Unqualified table-valued built-ins (`FROM OPENJSON(...)`). */
const BUILTIN_TVF = new Set([
  'OPENJSON', 'OPENROWSET', 'OPENQUERY', 'OPENXML', 'OPENDATASOURCE', 'STRING_SPLIT', 'GENERATE_SERIES', 'CHANGETABLE',
  'CONTAINSTABLE', 'FREETEXTTABLE', 'UNNEST', 'JSON_TABLE', 'VALUES',
]);

export interface SqlObjectName {
  /** Identifier parts, brackets/quotes removed (empty string for `db..obj`). */
  parts: string[];
  /** Index of the first token after the name. */
  next: number;
}

/** Parse `[db].[schema].[name]` / `schema.name` / `name` starting at token `i`. */
export function parseObjectName(tokens: SqlToken[], i: number): SqlObjectName | null {
  const t = tokens[i];
  if (!t || !(t.type === 'word' || t.type === 'quoted')) return null;
  if (t.type === 'word' && RESERVED.has(t.kw)) return null;
  const parts = [t.value];
  let j = i + 1;
  while (j < tokens.length && tokens[j].type === 'punct' && tokens[j].text === '.' && parts.length < 4) {
    const nx = tokens[j + 1];
    if (nx && (nx.type === 'word' || nx.type === 'quoted')) {
      parts.push(nx.value);
      j += 2;
    } else if (nx && nx.text === '.') {
      parts.push(''); // db..name
      j += 1;
    } else {
      break;
    }
  }
  return { parts, next: j };
}

/** Display form: parts joined with dots, at most schema.name (database dropped). */
export function sqlDisplayName(parts: string[]): string {
  const p = parts.length > 2 ? parts.slice(-2) : parts;
  if (p.length === 2 && !p[0]) return p[1];
  return p.join('.');
}

/**
 * Normalised key for matching: lower-case `schema.name`, brackets stripped, default schema `dbo`,
 * database part dropped. `[dbo].[Invoice]`, `Invoice`, `MyDb.dbo.invoice` -> `dbo.invoice`.
 */
export function normaliseSqlName(name: string | string[], defaultSchema = 'dbo'): string {
  const parts = Array.isArray(name) ? name : splitSqlName(name);
  const last = parts[parts.length - 1] ?? '';
  const schema = parts.length >= 2 && parts[parts.length - 2] ? parts[parts.length - 2] : defaultSchema;
  return `${schema}.${last}`.toLowerCase();
}

/** Split `[a].[b c]."d"` into identifier parts. */
export function splitSqlName(name: string): string[] {
  const r = parseObjectName(lexSql(name).tokens, 0);
  return r ? r.parts : [name.trim()];
}

export interface SqlRef {
  kind: 'REFERENCES' | 'CALLS';
  /** Display name (see {@link sqlDisplayName}). */
  name: string;
  parts: string[];
  /** 1-based line within the lexed text. */
  line: number;
  /** 'read' | 'write' | 'exec' | 'call' | 'fk' — how the object is used. */
  usage: 'read' | 'write' | 'exec' | 'call' | 'fk';
}

/**
 * References to database objects in tokens[from, to): FROM/JOIN/APPLY (read), INSERT/INTO/UPDATE/
 * DELETE/MERGE/USING/TRUNCATE TABLE (write), EXEC (CALLS), `schema.fn(` calls (CALLS), REFERENCES
 * (foreign keys). Temp tables, table variables, CTE names and aliases are dropped.
 */
export function findSqlRefs(tokens: SqlToken[], from = 0, to = tokens.length): SqlRef[] {
  const refs: SqlRef[] = [];
  const aliases = new Set<string>();
  const ctes = new Set<string>();
  // CTE names: WITH x AS ( / , x AS ( / WITH x (a, b) AS (
  for (let j = from; j < to; j++) {
    const t = tokens[j];
    if (!(t.kw === 'WITH' || t.text === ',')) continue;
    const name = tokens[j + 1];
    if (!name || !(name.type === 'word' || name.type === 'quoted')) continue;
    let k = j + 2;
    if (tokens[k]?.text === '(') {
      let depth = 0;
      for (; k < to; k++) {
        if (tokens[k].text === '(') depth++;
        else if (tokens[k].text === ')' && --depth === 0) break;
      }
      k++;
    }
    if (tokens[k]?.kw === 'AS' && tokens[k + 1]?.text === '(') ctes.add(name.value.toLowerCase());
  }

  let consumed = from; // tokens before this index belong to a name already handled
  const add = (kind: SqlRef['kind'], usage: SqlRef['usage'], name: SqlObjectName, line: number): void => {
    if (name.next > consumed) consumed = name.next;
    const first = name.parts[0];
    if (!first || first.startsWith('#') || first.startsWith('@')) return;
    refs.push({ kind, usage, parts: name.parts, name: sqlDisplayName(name.parts), line });
  };
  /** Skip an optional alias after a table reference; record it. */
  const alias = (k: number): number => {
    let a = k;
    if (tokens[a]?.kw === 'AS') a++;
    const t = tokens[a];
    if (t && (t.type === 'quoted' || (t.type === 'word' && !RESERVED.has(t.kw) && !JOIN_WORDS.has(t.kw)))) {
      aliases.add(t.value.toLowerCase());
      return a + 1;
    }
    return k;
  };

  for (let j = from; j < to; j++) {
    const t = tokens[j];
    if (j < consumed) continue;
    if (t.type !== 'word') {
      // schema.fn( call
      if (t.type === 'quoted') j = callAt(tokens, j, to, add) ?? j;
      continue;
    }
    switch (t.kw) {
      case 'FROM':
      case 'JOIN':
      case 'APPLY': {
        if (t.kw === 'FROM' && NOT_TABLE_FROM.has(tokens[j - 1]?.kw ?? '')) break; // DELETE FROM, FETCH NEXT FROM
        let k = j + 1;
        for (let guard = 0; guard < 64; guard++) {
          const nm = parseObjectName(tokens, k);
          if (!nm) break;
          if (tokens[nm.next]?.text === '(') {
            if (nm.parts.length > 1 || !BUILTIN_TVF.has(nm.parts[0].toUpperCase())) add('CALLS', 'call', nm, tokens[k].line);
            break;
          }
          add('REFERENCES', 'read', nm, tokens[k].line);
          k = alias(nm.next);
          // table hints WITH (NOLOCK)
          if (tokens[k]?.kw === 'WITH' && tokens[k + 1]?.text === '(') k = skipParens(tokens, k + 1, to);
          if (tokens[k]?.text !== ',' || t.kw !== 'FROM') break;
          k++;
        }
        break;
      }
      case 'INTO':
      case 'TRUNCATE':
      case 'USING': {
        let k = j + 1;
        if (t.kw === 'TRUNCATE') {
          if (tokens[k]?.kw !== 'TABLE') break;
          k++;
        }
        const nm = parseObjectName(tokens, k);
        if (nm) {
          add('REFERENCES', t.kw === 'USING' ? 'read' : 'write', nm, tokens[k].line);
          if (t.kw === 'USING') alias(nm.next);
        }
        break;
      }
      case 'INSERT':
      case 'UPDATE':
      case 'DELETE':
      case 'MERGE': {
        let k = j + 1;
        const prev = tokens[j - 1];
        if (prev && (prev.text === ',' || NOT_DML_BEFORE.has(prev.kw))) break; // trigger events, FK actions, GRANT lists
        if (tokens[k]?.kw === 'TOP') k = skipParens(tokens, k + 1, to);
        if (t.kw === 'UPDATE' && tokens[k]?.kw === 'STATISTICS') break;
        if (tokens[k]?.kw === 'INTO' || tokens[k]?.kw === 'FROM') {
          if (t.kw === 'INSERT' || t.kw === 'MERGE') break; // INTO handles it
          k++;
        }
        const nm = parseObjectName(tokens, k);
        if (nm) {
          add('REFERENCES', 'write', nm, tokens[k].line);
          if (t.kw === 'MERGE' || t.kw === 'DELETE') alias(nm.next);
        }
        break;
      }
      case 'EXEC':
      case 'EXECUTE': {
        let k = j + 1;
        if (tokens[k]?.type === 'var' && tokens[k + 1]?.text === '=') k += 2; // EXEC @rc = proc
        const nm = parseObjectName(tokens, k);
        if (nm && tokens[nm.next]?.text !== '(' && !/^sp_executesql$/i.test(nm.parts[nm.parts.length - 1])) {
          add('CALLS', 'exec', nm, tokens[k].line);
          j = nm.next - 1;
        }
        break;
      }
      case 'REFERENCES': {
        const nm = parseObjectName(tokens, j + 1);
        if (nm) add('REFERENCES', 'fk', nm, tokens[j + 1].line);
        break;
      }
      default:
        j = callAt(tokens, j, to, add) ?? j;
    }
  }
  return refs.filter((r) => {
    if (r.parts.length !== 1) {
      // alias.fn( / alias.column are not objects
      return !(r.usage === 'call' && aliases.has(r.parts[0].toLowerCase()));
    }
    const k = r.parts[0].toLowerCase();
    return !aliases.has(k) && !ctes.has(k) && k !== 'inserted' && k !== 'deleted';
  });
}

const NOT_DML_BEFORE = new Set(['ON', 'FOR', 'AFTER', 'OF', 'GRANT', 'DENY', 'REVOKE']);
const NOT_TABLE_FROM = new Set(['DELETE', 'NEXT', 'PRIOR', 'FIRST', 'LAST', 'ABSOLUTE', 'RELATIVE']);

const JOIN_WORDS = new Set(['INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS', 'OUTER', 'JOIN', 'WHERE', 'ON', 'GROUP', 'ORDER',
  'UNION', 'SET', 'OUTPUT', 'WHEN', 'OPTION', 'HAVING', 'FOR', 'PIVOT', 'UNPIVOT', 'TABLESAMPLE', 'WITH', 'VALUES', 'SELECT']);

/** `schema.fn(` (two or more parts, followed by '('): a user-defined function call. Returns the last consumed index. */
function callAt(
  tokens: SqlToken[], j: number, to: number,
  add: (kind: SqlRef['kind'], usage: SqlRef['usage'], name: SqlObjectName, line: number) => void,
): number | null {
  const prev = tokens[j - 1];
  if (prev && prev.text === '.') return null; // middle of a name
  const nm = parseObjectName(tokens, j);
  if (!nm || nm.next >= to) return nm ? nm.next - 1 : null;
  if (nm.parts.length >= 2 && tokens[nm.next]?.text === '(') add('CALLS', 'call', nm, tokens[j].line);
  return nm.next - 1;
}

/** Index after the parenthesised group starting at `k` (if any). */
function skipParens(tokens: SqlToken[], k: number, to: number): number {
  if (tokens[k]?.text !== '(') return k;
  let depth = 0;
  for (let j = k; j < to; j++) {
    if (tokens[j].text === '(') depth++;
    else if (tokens[j].text === ')' && --depth === 0) return j + 1;
  }
  return to;
}

const SQL_STATEMENT_START = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|MERGE|EXEC|EXECUTE|WITH|TRUNCATE)\s/i;
const OBJECT_NAME = /^\s*(?:\[[^\]\n]+\]|[A-Za-z_][\w$#@]*)(?:\s*\.\s*(?:\[[^\]\n]+\]|[A-Za-z_][\w$#@]*)){0,2}\s*$/;
const SQL_PREFIX = /^(?:usp|sp|fn|ufn|tvf|udf|vw|trg|tr|tbl)_/i;

/**
 * SQL object names referenced by a string literal found in application code, or [] when the string
 * does not look like SQL.
 * - SQL text (`SELECT ... FROM dbo.Invoice`, `EXEC usp_X @id`): every object it reads, writes or executes;
 * - a bare object name: `dbo.usp_CreateInvoice` / `[dbo].[Invoice]` always; an unqualified or
 *   non-dbo name only in a SQL context (`inSqlContext`: a `*Command` constructor argument, a
 *   `CommandText` assignment, a Dapper/EF call...) or with a conventional prefix (`usp_`, `fn_`, `vw_`...).
 */
export function sqlRefsInString(text: string, inSqlContext: boolean): SqlRef[] {
  if (text.length < 2 || text.length > 100_000) return [];
  if (SQL_STATEMENT_START.test(text)) return findSqlRefs(lexSql(text).tokens);
  if (!OBJECT_NAME.test(text)) return [];
  const parts = splitSqlName(text);
  const last = parts[parts.length - 1];
  const bracketed = text.includes('[');
  const ok = inSqlContext
    || SQL_PREFIX.test(last)
    || (parts.length >= 2 && (bracketed || parts[parts.length - 2].toLowerCase() === 'dbo'));
  if (!ok) return [];
  return [{ kind: 'REFERENCES', usage: 'read', parts, name: sqlDisplayName(parts), line: 1 }];
}
