/**
 * Identifier splitting shared by indexing (ParsedScope.nameTokens) and search (query identifiers).
 * Pure, no dependencies.
 *
 *   identifierSubTokens('parseFileAnalysis')         -> 'parse file analysis'
 *   identifierSubTokens('parse_file_analysis')       -> 'parse file analysis'
 *   identifierSubTokens('HTTPServer')                -> 'http server'
 *   identifierSubTokens('InvoiceService.create')     -> 'invoice service create'
 *   identifierSubTokens('utf8Decode')                -> 'utf8 decode'   (digits stay on the word before)
 *   identifierSubTokens('[dbo].[usp_CreateInvoice]') -> 'dbo usp create invoice'
 *   subTokenList('getHTTPResponse')                  -> ['get', 'http', 'response']
 *
 * Any character that is neither a letter nor a digit separates words (`.`, `_`, `-`, `$`, `/`,
 * spaces, brackets...). Inside a word, a new token starts at a lower->upper transition and before the
 * last capital of an upper-case run followed by a lower-case letter (`HTTPServer` -> `HTTP`,`Server`).
 */

// Order matters: an upper-case run that ends before a Capitalised word, a (Capitalised) lower-case
// word, an upper-case run, any other letters (caseless scripts); each may carry trailing digits.
const SUB_TOKEN_RE = /(?:\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{Lo}+|\p{L}+)\p{N}*|\p{N}+/gu;

/** Lower-case sub-tokens of every identifier in `text`, in order (duplicates kept). */
export function subTokenList(text: string): string[] {
  if (!text) return [];
  const out: string[] = [];
  SUB_TOKEN_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SUB_TOKEN_RE.exec(text)) !== null) out.push(m[0].toLowerCase());
  return out;
}

/** Lower-case sub-tokens of every identifier in `text`, space separated, in order (duplicates kept). */
export function identifierSubTokens(text: string): string {
  return subTokenList(text).join(' ');
}

/**
 * Space-separated, de-duplicated (first occurrence wins) sub-tokens of all `parts`:
 * `nameTokens('InvoiceService.create')` -> `'invoice service create'`.
 */
export function nameTokens(...parts: string[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    for (const t of subTokenList(part)) {
      if (!seen.has(t)) {
        seen.add(t);
        out.push(t);
      }
    }
  }
  return out.join(' ');
}
