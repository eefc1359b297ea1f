import { ParserService } from '../../parse/parser.service';
import { findSqlRefs, lexSql, normaliseSqlName, sqlRefsInString } from './lexer';
import type { ParsedFile } from '../../parse/types';

// SQL needs no grammar: the service works without init() for it.
const parser = new ParserService({ languages: ['sql'] });

function table(f: ParsedFile): [string, string, string, number, number][] {
  return f.scopes.map((s) => [s.id, s.kind, s.qualifiedName, s.startLine, s.endLine]);
}

function refs(f: ParsedFile): string[] {
  return f.references.map((r) => `${r.fromId.split('#')[1].split('|')[0]} ${r.kind} ${r.targetName} @${r.line}`);
}

describe('SqlExtractor', () => {
  const src = [
    'SET ANSI_NULLS ON', //                                                      1
    'GO', //                                                                     2
    '-- Invoices issued to customers.', //                                       3
    'CREATE TABLE [dbo].[Invoice] (', //                                         4
    '    [Id] INT IDENTITY(1,1) PRIMARY KEY,', //                                5
    '    CustomerId INT NOT NULL REFERENCES dbo.Customer(Id)', //                6
    ') ON [PRIMARY];', //                                                        7
    'GO', //                                                                     8
    'CREATE OR ALTER VIEW sales.vw_Open AS', //                                  9
    '  WITH recent AS (SELECT Id FROM dbo.Invoice)', //                          10
    '  SELECT r.Id, dbo.fn_Tax(i.Total) AS Tax FROM recent r', //               11
    '  JOIN Invoice i WITH (NOLOCK) ON i.Id = r.Id', //                          12
    'GO', //                                                                     13
    '/* Creates one.', //                                                        14
    '   Returns the id. */', //                                                  15
    'CREATE PROC usp_Create @CustomerId INT, @Total AS MONEY = 0 AS', //         16
    'BEGIN', //                                                                  17
    "  -- EXEC dbo.usp_Commented and FROM dbo.Nothing are ignored", //          18
    "  DECLARE @sql NVARCHAR(100) = N'SELECT * FROM dbo.InString';", //         19
    '  CREATE TABLE #tmp (Id INT);', //                                          20
    '  INSERT INTO dbo.Invoice (CustomerId) OUTPUT inserted.Id INTO #tmp VALUES (@CustomerId);', // 21
    '  UPDATE c SET c.Last = GETDATE() FROM dbo.Customer AS c WHERE c.Id = @CustomerId;', // 22
    '  EXEC @rc = dbo.usp_Log @msg = @sql;', //                                 23
    '  EXEC sp_executesql @sql;', //                                             24
    '  MERGE dbo.Totals AS t USING dbo.Staging AS s ON t.Id = s.Id', //          25
    '    WHEN MATCHED THEN UPDATE SET t.X = s.X;', //                            26
    '  SELECT * FROM OPENJSON(@json) CROSS APPLY dbo.fn_Lines(@CustomerId) l;', // 27
    'END', //                                                                    28
    'GO', //                                                                     29
    'CREATE FUNCTION dbo.fn_Tax (@Amount MONEY) RETURNS MONEY', //              30
    'AS BEGIN RETURN @Amount * 0.2 END', //                                      31
    'GO', //                                                                     32
    'CREATE TRIGGER trg_Audit ON dbo.Invoice AFTER INSERT, UPDATE AS', //        33
    '  INSERT INTO audit.Log (Id) SELECT Id FROM inserted;', //                  34
    'GO', //                                                                     35
    "INSERT INTO dbo.Status (Id, Name) VALUES (1, 'Open');", //                  36
  ].join('\n');

  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('db/schema.sql', src);
  });

  it('extracts the exact scope list (schema-qualified, brackets stripped, default dbo)', () => {
    expect(f.errors).toEqual([]);
    expect(table(f)).toEqual([
      ['db/schema.sql#db/schema.sql|file', 'file', 'db/schema.sql', 1, 36],
      ['db/schema.sql#dbo.Invoice|table', 'table', 'dbo.Invoice', 4, 7],
      ['db/schema.sql#sales.vw_Open|view', 'view', 'sales.vw_Open', 9, 12],
      ['db/schema.sql#dbo.usp_Create|procedure', 'procedure', 'dbo.usp_Create', 16, 28],
      ['db/schema.sql#dbo.fn_Tax|sql_function', 'sql_function', 'dbo.fn_Tax', 30, 31],
      ['db/schema.sql#dbo.trg_Audit|trigger', 'trigger', 'dbo.trg_Audit', 33, 34],
    ]);
  });

  it('fills names, signatures and doc comments', () => {
    const by = new Map(f.scopes.map((s) => [s.qualifiedName, s]));
    expect(by.get('dbo.Invoice')!.name).toBe('Invoice');
    expect(by.get('dbo.Invoice')!.signature).toBe('CREATE TABLE [dbo].[Invoice]');
    expect(by.get('dbo.Invoice')!.docComment).toBe('Invoices issued to customers.');
    expect(by.get('dbo.usp_Create')!.signature).toBe('CREATE PROC usp_Create @CustomerId INT, @Total AS MONEY = 0');
    expect(by.get('dbo.usp_Create')!.docComment).toBe('Creates one.\nReturns the id.');
    expect(by.get('dbo.fn_Tax')!.signature).toBe('CREATE FUNCTION dbo.fn_Tax (@Amount MONEY) RETURNS MONEY');
    expect(by.get('dbo.usp_Create')!.nameTokens).toBe('dbo usp create');
    expect(by.get('dbo.Invoice')!.source).toBe(src.split('\n').slice(3, 7).join('\n'));
  });

  it('records reads, writes, EXEC, function calls, FKs and trigger targets; skips temp tables, CTEs, aliases', () => {
    expect(refs(f)).toEqual([
      'db/schema.sql REFERENCES dbo.Status @36',
      'dbo.Invoice REFERENCES dbo.Customer @6',
      'sales.vw_Open REFERENCES dbo.Invoice @10',
      'sales.vw_Open CALLS dbo.fn_Tax @11',
      'sales.vw_Open REFERENCES Invoice @12',
      'dbo.usp_Create REFERENCES dbo.Invoice @21',
      'dbo.usp_Create REFERENCES dbo.Customer @22',
      'dbo.usp_Create CALLS dbo.usp_Log @23',
      'dbo.usp_Create REFERENCES dbo.Totals @25',
      'dbo.usp_Create REFERENCES dbo.Staging @25',
      'dbo.usp_Create CALLS dbo.fn_Lines @27',
      'dbo.trg_Audit REFERENCES dbo.Invoice @33',
      'dbo.trg_Audit REFERENCES audit.Log @34',
    ]);
  });

  it('never fails wholesale on broken SQL', () => {
    const g = parser.parseFile('bad.sql', "CREATE PROCEDURE dbo.p AS BEGIN SELECT 'unterminated FROM x /* ( [");
    expect(g.scopes.map((s) => s.id)).toEqual(['bad.sql#bad.sql|file', 'bad.sql#dbo.p|procedure']);
  });
});

describe('sql-lexer helpers', () => {
  it('normaliseSqlName', () => {
    expect(normaliseSqlName('[dbo].[Invoice]')).toBe('dbo.invoice');
    expect(normaliseSqlName('Invoice')).toBe('dbo.invoice');
    expect(normaliseSqlName('MyDb.sales.Invoice')).toBe('sales.invoice');
    expect(normaliseSqlName('"Sales"."Order"')).toBe('sales.order');
  });

  it('sqlRefsInString tells SQL from ordinary strings', () => {
    const names = (s: string, ctx = false) => sqlRefsInString(s, ctx).map((r) => r.name);
    expect(names('dbo.usp_CreateInvoice')).toEqual(['dbo.usp_CreateInvoice']);
    expect(names('[dbo].[Invoice]')).toEqual(['dbo.Invoice']);
    expect(names('EXEC usp_CreateInvoice @id')).toEqual(['usp_CreateInvoice']);
    expect(names('SELECT * FROM dbo.Invoice i JOIN Customer c ON c.Id = i.CustomerId')).toEqual(['dbo.Invoice', 'Customer']);
    expect(names('usp_Anything')).toEqual(['usp_Anything']);
    expect(names('CreateInvoice')).toEqual([]);
    expect(names('CreateInvoice', true)).toEqual(['CreateInvoice']);
    expect(names('System.Text')).toEqual([]);
    expect(names('Hello, world')).toEqual([]);
    expect(names('select the best option')).toEqual([]);
  });

  it('findSqlRefs ignores comments and strings', () => {
    const { tokens } = lexSql("-- FROM dbo.A\n/* FROM dbo.B /* nested */ FROM dbo.C */ SELECT 'FROM dbo.D' FROM dbo.E");
    expect(findSqlRefs(tokens).map((r) => r.name)).toEqual(['dbo.E']);
  });
});
