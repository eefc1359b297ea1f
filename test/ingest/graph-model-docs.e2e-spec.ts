import * as fs from 'node:fs';
import * as path from 'node:path';
import { isNode, isPath, type Node, type Path } from 'neo4j-driver';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { ROOT, runId } from '../support/processes';

/** Every ```cypher block of docs/graph-model.md, with the sentence that introduces it. */
function documentedQueries(): { title: string; query: string }[] {
  const text = fs.readFileSync(path.join(ROOT, 'docs/graph-model.md'), 'utf8');
  const out: { title: string; query: string }[] = [];
  const re = /([^\n]+)\n\n```cypher\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ title: m[1].trim(), query: m[2].trim() });
  return out;
}

type Row = Record<string, any>;

/**
 * What each documented query must return on the polyglot fixture, by the start of its introducing
 * sentence: facts of the fixture (who calls whom, what extends what), so a query that runs but
 * answers something else fails.
 */
const EXPECTED: Record<string, (rows: Row[], repo: string, scopeCount: number) => void> = {
  'What a repository holds': (rows, _repo, scopeCount) => {
    expect(rows.reduce((n, r) => n + Number(r.scopes), 0)).toBe(scopeCount);
    expect(rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['class', 'function', 'method', 'procedure']));
  },
  'A file and everything it declares': (rows) => {
    const starts = new Set(rows.map((r) => (r.p as Path).start.properties.path));
    expect(starts.size).toBe(1);
    expect(rows.every((r) => ['DECLARES', 'HAS_MEMBER'].includes((r.p as Path).segments[0].relationship.type))).toBe(true);
  },
  'Who calls a function': (rows) => {
    expect(rows).toContainEqual(expect.objectContaining({ callee: 'formatMoney', caller: 'InvoiceService.create', file: 'ts/src/services/invoice-service.ts' }));
  },
  'The class hierarchy': (rows) => {
    const edges = rows.map((r) => `${(r.p as Path).start.properties.qualifiedName} -${(r.p as Path).segments[0].relationship.type}-> ${(r.p as Path).end.properties.qualifiedName}`);
    expect(edges).toEqual(expect.arrayContaining(['Invoice -EXTENDS-> BaseEntity', 'MyApp.Data.SqlInvoiceRepository -IMPLEMENTS-> MyApp.Data.IInvoiceRepository']));
  },
  'Which application code touches which SQL object': (rows) => {
    expect(rows).toContainEqual({ from: 'MyApp.Data.SqlInvoiceRepository.Create', language: 'csharp', edge: 'REFERENCES', sqlObject: 'dbo.usp_CreateInvoice' });
  },
  'The import graph between files': (rows) => {
    expect(rows).toContainEqual(expect.objectContaining({ file: 'ts/src/services/invoice-service.ts', imports: 'ts/src/utils/format.ts', kind: 'File' }));
  },
  'What overrides or implements a member': (rows) => {
    expect(rows.find((r) => r.member === 'Trackable.track')?.overriddenBy).toContain('Reaction.track');
  },
  'How many edges each resolver produced': (rows) => {
    expect(rows.map((r) => r.edge)).toEqual(expect.arrayContaining(['CALLS', 'REFERENCES', 'EXTENDS', 'IMPLEMENTS', 'OVERRIDES']));
  },
  'What could not be resolved': (rows) => {
    // (command.ExecuteScalar() is no longer here: both calls are on a SqlCommand, one through a var
    // given connection.CreateCommand(), and the standard library is not stored as Unresolved)
    expect(rows).toContainEqual(expect.objectContaining({ name: '$notify', edge: 'CALLS', reason: 'dynamic' }));
    expect(rows).toContainEqual(expect.objectContaining({ name: 'Decimal', edge: 'REFERENCES', reason: 'external' }));
  },
  'Most-called scopes': (rows) => {
    // the polyglot fixture has more than ten called scopes: the ten with most callers, most first
    expect(rows).toHaveLength(10);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].callers).toBeGreaterThanOrEqual(rows[i].callers);
    expect(rows[0]).toMatchObject({ scope: 'Invoice.total' });
    expect(rows[0].callers).toBeGreaterThan(rows[rows.length - 1].callers);
  },
  'Full-text search over names': (rows) => {
    // The polyglot fixture names an invoice in every language: the ten best matches, best first, each
    // naming it (which language's come first depends on index-wide statistics, shared with other repositories).
    expect(rows).toHaveLength(10);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].score).toBeGreaterThanOrEqual(rows[i].score);
    for (const r of rows) expect(r.scope.toLowerCase()).toContain('invoice');
  },
  'Nearest neighbours of a scope by embedding': (rows) => {
    // Six different scopes of this repository, the scope itself first (copies of the fixture in other
    // repositories have the same vectors: a query reaching them would repeat one name).
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => `${r.neighbour} ${r.path}`)).size).toBe(6);
    expect(rows[0].neighbour).toBe(rows[0].of);
  },
};

/** Nodes anywhere in a row: returned nodes, and every node of returned paths. */
function nodesOf(value: unknown): Node[] {
  if (isNode(value as object)) return [value as Node];
  if (isPath(value as object)) return [(value as Path).start, ...(value as Path).segments.map((s) => s.end)];
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  return [];
}

describe('the Neo4j Browser queries in docs/graph-model.md', () => {
  const h = new IngestHarness();
  const repo = runId('docs');
  const queries = documentedQueries();
  let scopeCount = 0;

  beforeAll(async () => {
    await h.init();
    await h.ingest.index({ path: FIXTURE, name: repo });
    [{ scopeCount }] = await h.neo4j.runStatement<{ scopeCount: number }>('MATCH (s:Scope {repoId: $repo}) RETURN count(s) AS scopeCount', { repo });
  });

  afterAll(() => h.dispose([repo]));

  it('are all found, and each has its expectation', () => {
    expect(queries.length).toBeGreaterThanOrEqual(10);
    for (const { title } of queries) expect({ title, expected: Object.keys(EXPECTED).some((k) => title.startsWith(k)) }).toEqual({ title, expected: true });
  });

  it.each(documentedQueries().map((q) => [q.title, q.query]))('%s returns the fixture\'s rows, all from the test\'s repository', async (title, query) => {
    const rows = await h.neo4j.runStatement<Row>(query, { repo });
    expect(rows.length).toBeGreaterThan(0);
    for (const node of rows.flatMap((r) => Object.values(r).flatMap(nodesOf))) {
      const owner = node.labels.includes('Repository') ? node.properties.id : node.properties.repoId;
      expect({ node: node.properties.id ?? node.properties.name, owner }).toEqual({ node: node.properties.id ?? node.properties.name, owner: repo });
    }
    const key = Object.keys(EXPECTED).find((k) => title.startsWith(k))!;
    EXPECTED[key](rows, repo, scopeCount);
  });
});
