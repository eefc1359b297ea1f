import { CypherFiles, splitStatements } from './cypher-files';

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
});
