/**
 * The text of a scope that is embedded. MiniLM-class models read ~256 word pieces (~1,000 characters
 * of code), so the part that carries the meaning comes first: what it is and its name (split into
 * words, since models know "parse file" better than "parseFile"), its signature, its doc comment, then
 * the head of its body for the identifiers it uses. The rest of a long body adds little and would be
 * truncated anyway.
 */
export const EMBED_SOURCE_CHARS = 1_200;
const EMBED_DOC_CHARS = 600;

export interface EmbeddableScope {
  kind: string;
  qualifiedName: string;
  signature: string | null;
  docComment: string | null;
  source: string | null;
}

export function embeddingText(scope: EmbeddableScope, words: (name: string) => string): string {
  const parts = [`${scope.kind.replace('_', ' ')} ${scope.qualifiedName} (${words(scope.qualifiedName)})`];
  if (scope.signature) parts.push(scope.signature);
  if (scope.docComment) parts.push(scope.docComment.slice(0, EMBED_DOC_CHARS));
  if (scope.source) {
    // The signature usually opens the source; do not spend the budget on it twice.
    const body = scope.signature && scope.source.startsWith(scope.signature) ? scope.source.slice(scope.signature.length) : scope.source;
    parts.push(body.slice(0, EMBED_SOURCE_CHARS));
  }
  return parts.join('\n');
}
