import { gql } from '../support/graphql-client';

/** Strings that would change a query if they were ever pasted into Cypher text. */
export const INJECTION_STRINGS = [
  "' }) MATCH (n) DETACH DELETE n //",
  '" }) MATCH (n) DETACH DELETE n //',
  "x' OR 1=1 WITH 1 AS x MATCH (n) DETACH DELETE n //",
  '$x',
  '$repoIds',
  '{{PATTERN}}',
  '`',
  '`) DETACH DELETE n //',
  "\\' // ;",
];

/** Strings that are Lucene syntax, and syntax errors when unbalanced. */
export const LUCENE_STRINGS = ['*:*', 'a && b || c', '"unterminated', 'foo~2 bar^3', '[a TO z}', '/.*/', '\\', 'title:(x OR', 'AND', 'NOT -', ')('];

/** SearchInput string fields, and whether validation may refuse a value (then only BAD_USER_INPUT). */
export const STRING_FIELDS: Record<string, boolean> = {
  text: false,
  repository: true,
  pathContains: false,
  pathGlob: true,
  name: false,
  language: true,
  kind: true,
};

const QUERY = 'query($input: SearchInput!) { search(input: $input) { strategy results { scope { id repoId } } } }';

/**
 * Sends every string in every string field of SearchInput (hybrid mode: both lists run) and returns
 * what went wrong: any error that is not BAD_USER_INPUT, a BAD_USER_INPUT on a field without
 * validation, or a result from another repository.
 */
export async function collectInjectionFailures(url: string, repoId: string): Promise<string[]> {
  const failures: string[] = [];
  for (const value of [...INJECTION_STRINGS, ...LUCENE_STRINGS]) {
    for (const [field, validated] of Object.entries(STRING_FIELDS)) {
      const input: Record<string, unknown> = { text: 'invoice', repository: repoId, mode: 'HYBRID', topK: 5, [field]: value };
      const { status, body } = await gql(url, QUERY, { input });
      const label = `${field}=${JSON.stringify(value)}`;
      if (status !== 200) failures.push(`${label}: HTTP ${status}`);
      for (const error of body.errors ?? []) {
        if (error.extensions?.code !== 'BAD_USER_INPUT') failures.push(`${label}: ${error.extensions?.code} ${error.message}`);
        else if (!validated) failures.push(`${label}: refused although ${field} takes any text (${error.message})`);
      }
      if (!body.errors) {
        const results = body.data?.search?.results as { scope: { repoId: string } }[] | undefined;
        if (!Array.isArray(results)) failures.push(`${label}: no results array`);
        else if (results.some((r) => r.scope.repoId !== repoId)) failures.push(`${label}: a result from another repository`);
      }
    }
  }
  return failures;
}
