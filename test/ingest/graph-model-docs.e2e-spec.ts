import * as fs from 'node:fs';
import * as path from 'node:path';
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

describe('the Neo4j Browser queries in docs/graph-model.md', () => {
  const h = new IngestHarness();
  const repo = runId('docs');
  const queries = documentedQueries();

  beforeAll(async () => {
    await h.init();
    await h.ingest.index({ path: FIXTURE, name: repo });
  });

  afterAll(() => h.dispose([repo]));

  it('are all found', () => {
    expect(queries.length).toBeGreaterThanOrEqual(10);
  });

  it.each(documentedQueries().map((q) => [q.title, q.query]))('%s runs and returns rows on the fixture', async (_title, query) => {
    const rows = await h.neo4j.runStatement(query, { repo });
    expect(rows.length).toBeGreaterThan(0);
  });
});
