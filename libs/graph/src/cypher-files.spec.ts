import { createsUnconditionally, CypherFiles, retryTwinOf, splitStatements } from './cypher-files';

describe('splitStatements', () => {
  it('splits on a trailing semicolon and drops comment lines', () => {
    const text = '// header\nCREATE INDEX a IF NOT EXISTS\nFOR (n:A) ON (n.x);\n\n// two\nCREATE INDEX b IF NOT EXISTS FOR (n:B) ON (n.y);\n';
    expect(splitStatements(text)).toEqual(['CREATE INDEX a IF NOT EXISTS\nFOR (n:A) ON (n.x)', 'CREATE INDEX b IF NOT EXISTS FOR (n:B) ON (n.y)']);
  });

  it('keeps a semicolon inside a line', () => {
    expect(splitStatements("RETURN 'a;b' AS x;")).toEqual(["RETURN 'a;b' AS x"]);
  });
});

describe('CypherFiles', () => {
  const files = new CypherFiles();

  it('loads migrations in order, each with idempotent statements (CREATE … IF NOT EXISTS, DROP … IF EXISTS)', () => {
    const migrations = files.migrations();
    expect(migrations.map((m) => m.id)).toEqual([...migrations.map((m) => m.id)].sort());
    expect(migrations.length).toBeGreaterThanOrEqual(3);
    for (const m of migrations) {
      for (const statement of splitStatements(m.text)) expect(statement).toMatch(/IF (NOT )?EXISTS/);
    }
  });

  it('refuses names that could escape the cypher folder', () => {
    expect(() => files.get('../package')).toThrow(/invalid Cypher file name/);
  });

  it('reads a query by name', () => {
    expect(files.get('health/components')).toContain('dbms.components');
  });

  it('every query that CREATEs names a retry-safe twin (a retried write transaction may follow one that committed)', () => {
    const creating = files.names().filter((name) => createsUnconditionally(files.get(name)));
    expect(creating).toEqual(expect.arrayContaining(['ingest/create-scope-edges', 'ingest/create-external-edges', 'ingest/create-unresolved-edges', 'history/write-co-changed']));
    for (const name of creating) {
      const twin = retryTwinOf(files.get(name));
      expect({ name, twin }).toEqual({ name, twin: expect.any(String) });
      expect({ twin, creates: createsUnconditionally(files.get(twin!)) }).toEqual({ twin, creates: false });
      expect(files.retrySafe(name)).toBe(files.get(twin!));
    }
  });

  it('runs a query without a twin again as it is', () => {
    expect(files.retrySafe('ingest/merge-scope-edges')).toBe(files.get('ingest/merge-scope-edges'));
  });
});

describe('createsUnconditionally', () => {
  it('sees CREATE clauses, not ON CREATE, comments or schema statements', () => {
    expect(createsUnconditionally('MATCH (a)\nCREATE (a)-[:X]->(b)')).toBe(true);
    expect(createsUnconditionally('CREATE (:N {id: 1})')).toBe(true);
    expect(createsUnconditionally('MERGE (n:N {id: 1})\nON CREATE SET n.x = 1')).toBe(false);
    expect(createsUnconditionally('// CREATE (a) is too slow\nMERGE (a:A {id: 1})')).toBe(false);
    expect(createsUnconditionally('CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x)')).toBe(false);
  });
});
