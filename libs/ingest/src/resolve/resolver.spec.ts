import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ParserService } from '../parse/parser.service';
import type { ParsedFile } from '../parse/types';
import { resolveRepository } from './resolver';
import type { ResolveResult } from './types';

const ROOT = join(__dirname, '../../../../test/fixtures/polyglot-repo');

/** File scope id. */
const F = (p: string) => `${p}#${p}|file`;
/** Scope id. */
const S = (p: string, qualifiedName: string, kind: string) => `${p}#${qualifiedName}|${kind}`;
const key = (type: string, from: string, to: string) => `${type} ${from} -> ${to}`;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]);
}

const parser = new ParserService();
let files: ParsedFile[];
let result: ResolveResult;

beforeAll(async () => {
  await parser.init();
  files = listFiles(ROOT)
    .map((f) => relative(ROOT, f).split('\\').join('/'))
    .filter((p) => parser.supports(p))
    .sort()
    .map((p) => parser.parseFile(p, readFileSync(join(ROOT, p), 'utf8')));
  result = resolveRepository(files);
});

/**
 * The four original directories' expectations are written out below; every other language has its
 * own directory with an `expected.json` (its scopes, and all its edges), checked by the last test.
 */
const ORIGINAL = /^(cs|py|sql|ts)\//;
const original = (id: string) => ORIGINAL.test(id);

// The complete edge set of the fixture, written out.
const EXPECTED: [string, string, string][] = [
  // ---- IMPORTS (file -> file)
  // TypeScript: relative imports, `import type`, re-exports of the barrel
  ['IMPORTS', F('ts/src/index.ts'), F('ts/src/services/invoice-service.ts')],
  ['IMPORTS', F('ts/src/index.ts'), F('ts/src/models/invoice.ts')],
  ['IMPORTS', F('ts/src/main.ts'), F('ts/src/index.ts')],
  ['IMPORTS', F('ts/src/main.ts'), F('ts/src/services/invoice-repository.ts')],
  ['IMPORTS', F('ts/src/models/invoice.ts'), F('ts/src/models/base-entity.ts')],
  ['IMPORTS', F('ts/src/models/invoice.ts'), F('ts/src/models/auditable.ts')],
  ['IMPORTS', F('ts/src/models/invoice.ts'), F('ts/src/utils/format.ts')],
  ['IMPORTS', F('ts/src/services/invoice-repository.ts'), F('ts/src/models/invoice.ts')],
  ['IMPORTS', F('ts/src/services/invoice-service.ts'), F('ts/src/models/invoice.ts')],
  ['IMPORTS', F('ts/src/services/invoice-service.ts'), F('ts/src/utils/format.ts')],
  ['IMPORTS', F('ts/src/services/invoice-service.ts'), F('ts/src/utils/legacy.ts')],
  ['IMPORTS', F('ts/src/services/invoice-service.ts'), F('ts/src/services/invoice-repository.ts')],
  ['IMPORTS', F('ts/src/utils/format.ts'), F('ts/src/models/base-entity.ts')],
  // a barrel and a module that re-exports it back (circular `export *`)
  ['IMPORTS', F('ts/src/internal.ts'), F('ts/src/reactions.ts')],
  ['IMPORTS', F('ts/src/internal.ts'), F('ts/src/utils/predicates.ts')],
  ['IMPORTS', F('ts/src/reactions.ts'), F('ts/src/internal.ts')],
  ['IMPORTS', F('ts/src/tracker.ts'), F('ts/src/reactions.ts')],
  // Python: relative imports, `import billing.tax` and `from billing import ...` from a source root
  ['IMPORTS', F('py/billing/__init__.py'), F('py/billing/invoice.py')],
  ['IMPORTS', F('py/billing/invoice.py'), F('py/billing/base.py')],
  ['IMPORTS', F('py/billing/invoice.py'), F('py/billing/tax.py')],
  ['IMPORTS', F('py/report.py'), F('py/billing/tax.py')],
  ['IMPORTS', F('py/report.py'), F('py/billing/__init__.py')],
  // C#: `using MyApp.Data;` -> every file declaring that namespace
  ['IMPORTS', F('cs/MyApp/Services/InvoiceService.cs'), F('cs/MyApp.Data/IInvoiceRepository.cs')],
  ['IMPORTS', F('cs/MyApp/Services/InvoiceService.cs'), F('cs/MyApp.Data/SqlInvoiceRepository.cs')],

  // ---- EXTENDS
  ['EXTENDS', S('ts/src/models/invoice.ts', 'Invoice', 'class'), S('ts/src/models/base-entity.ts', 'BaseEntity', 'class')],
  ['EXTENDS', S('py/billing/invoice.py', 'Invoice', 'class'), S('py/billing/base.py', 'Document', 'class')],
  ['EXTENDS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService', 'class'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.ServiceBase', 'class')],

  // ---- IMPLEMENTS
  ['IMPLEMENTS', S('ts/src/models/invoice.ts', 'Invoice', 'class'), S('ts/src/models/auditable.ts', 'Auditable', 'interface')],
  ['IMPLEMENTS', S('ts/src/reactions.ts', 'Reaction', 'class'), S('ts/src/reactions.ts', 'Trackable', 'interface')],
  ['IMPLEMENTS', S('cs/MyApp.Data/SqlInvoiceRepository.cs', 'MyApp.Data.SqlInvoiceRepository', 'class'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository', 'interface')],
  ['IMPLEMENTS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService', 'class'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.Auditable', 'interface')],
  // parsed as EXTENDS (first base, no I prefix), fixed up because the target is an interface
  ['IMPLEMENTS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.AuditEntry', 'class'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.Auditable', 'interface')],

  // ---- CALLS, TypeScript
  ['CALLS', S('ts/src/models/base-entity.ts', 'BaseEntity.constructor', 'constructor'), S('ts/src/models/base-entity.ts', 'validateId', 'function')],
  ['CALLS', S('ts/src/models/invoice.ts', 'Invoice.constructor', 'constructor'), S('ts/src/models/base-entity.ts', 'BaseEntity.constructor', 'constructor')], // super(id)
  ['CALLS', S('ts/src/models/invoice.ts', 'Invoice.describe', 'method'), S('ts/src/utils/format.ts', 'formatMoney', 'function')],
  ['CALLS', S('ts/src/models/invoice.ts', 'Invoice.audit', 'method'), S('ts/src/models/base-entity.ts', 'BaseEntity.touch', 'method')], // this.touch() via base
  ['CALLS', S('ts/src/models/invoice.ts', 'Invoice.audit', 'method'), S('ts/src/utils/format.ts', 'formatAudit', 'function')], // arrow const
  ['CALLS', S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method'), S('ts/src/utils/format.ts', 'parse', 'function')], // not legacy.parse
  ['CALLS', S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method'), S('ts/src/models/invoice.ts', 'Invoice', 'class')], // new Invoice()
  ['CALLS', S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method'), S('ts/src/services/invoice-repository.ts', 'InvoiceRepository.save', 'method')], // this.repo.save()
  ['CALLS', S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method'), S('ts/src/utils/format.ts', 'formatMoney', 'function')],
  ['CALLS', S('ts/src/services/invoice-service.ts', 'InvoiceService.importLegacy', 'method'), S('ts/src/utils/legacy.ts', 'legacyTotal', 'function')], // legacy.legacyTotal()
  ['CALLS', S('ts/src/services/invoice-service.ts', 'summarize.line', 'function'), S('ts/src/models/invoice.ts', 'Invoice.describe', 'method')], // typed parameter
  ['CALLS', S('ts/src/utils/format.ts', 'formatAudit', 'function'), S('ts/src/models/base-entity.ts', 'BaseEntity.describe', 'method')],
  ['CALLS', S('ts/src/main.ts', 'main', 'function'), S('ts/src/services/invoice-service.ts', 'InvoiceService', 'class')], // through export *
  ['CALLS', S('ts/src/main.ts', 'main', 'function'), S('ts/src/services/invoice-repository.ts', 'InvoiceRepository', 'class')],
  ['CALLS', S('ts/src/main.ts', 'main', 'function'), S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method')], // const service = new InvoiceService()
  ['CALLS', S('ts/src/main.ts', 'main', 'function'), S('ts/src/services/invoice-service.ts', 'summarize', 'function')],
  // a function held in a variable; found through the barrel and through the module re-exporting it
  ['CALLS', S('ts/src/reactions.ts', 'Reaction.track', 'method'), S('ts/src/utils/predicates.ts', 'isPositive', 'variable')],
  ['CALLS', S('ts/src/tracker.ts', 'trackAll', 'function'), S('ts/src/utils/predicates.ts', 'isPositive', 'variable')],
  ['CALLS', S('ts/src/utils/predicates.ts', 'isPositive', 'variable'), S('ts/src/utils/predicates.ts', 'createPredicate', 'function')],
  ['CALLS', S('ts/src/reactions.ts', 'makeReaction', 'function'), S('ts/src/reactions.ts', 'Reaction', 'class')],
  ['CALLS', S('ts/src/tracker.ts', 'Tracker', 'class'), S('ts/src/reactions.ts', 'makeReaction', 'function')], // field initialiser
  ['CALLS', S('ts/src/tracker.ts', 'trackAll', 'function'), S('ts/src/reactions.ts', 'Reaction', 'class')],
  ['CALLS', S('ts/src/tracker.ts', 'trackAll', 'function'), S('ts/src/reactions.ts', 'makeReaction', 'function')],
  ['CALLS', S('ts/src/tracker.ts', 'trackAll', 'function'), S('ts/src/reactions.ts', 'Reaction.track', 'method')], // const reaction = new Reaction()

  // ---- CALLS, Python
  ['CALLS', S('py/billing/invoice.py', 'Invoice.__init__', 'constructor'), S('py/billing/base.py', 'Document.__init__', 'constructor')], // super().__init__()
  ['CALLS', S('py/billing/invoice.py', 'Invoice.total', 'method'), S('py/billing/tax.py', 'compute_tax', 'function')], // from .tax import compute_tax
  ['CALLS', S('py/billing/invoice.py', 'Invoice.render', 'method'), S('py/billing/base.py', 'Document.render', 'method')],
  ['CALLS', S('py/billing/invoice.py', 'Invoice.render', 'method'), S('py/billing/invoice.py', 'Invoice.total', 'method')], // self.total()
  ['CALLS', S('py/billing/tax.py', 'compute_tax', 'function'), S('py/billing/tax.py', 'compute_tax._round', 'function')], // nested function
  ['CALLS', F('py/report.py'), S('py/report.py', 'main', 'function')],
  ['CALLS', S('py/report.py', 'main', 'function'), S('py/billing/invoice.py', 'Invoice', 'class')], // via billing/__init__.py
  ['CALLS', S('py/report.py', 'main', 'function'), S('py/billing/invoice.py', 'Invoice.render', 'method')],
  ['CALLS', S('py/report.py', 'main', 'function'), S('py/billing/tax.py', 'compute_tax', 'function')], // billing.tax.compute_tax()

  // ---- CALLS, C#
  ['CALLS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.CreateInvoice', 'method'), S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.Validate', 'method')],
  ['CALLS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.CreateInvoice', 'method'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.ServiceBase.Log', 'method')], // inherited
  ['CALLS', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.CreateInvoice', 'method'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository.Create', 'method')], // _repository.Create()

  // ---- CALLS, SQL
  ['CALLS', S('sql/procedures.sql', 'dbo.vw_OpenInvoices', 'view'), S('sql/procedures.sql', 'dbo.fn_InvoiceTax', 'sql_function')],
  ['CALLS', S('sql/procedures.sql', 'dbo.usp_CreateInvoice', 'procedure'), S('sql/procedures.sql', 'dbo.usp_LogAction', 'procedure')], // EXEC

  // ---- REFERENCES, C# -> SQL (string literals)
  ['REFERENCES', S('cs/MyApp.Data/SqlInvoiceRepository.cs', 'MyApp.Data.SqlInvoiceRepository.Create', 'method'), S('sql/procedures.sql', 'dbo.usp_CreateInvoice', 'procedure')],
  ['REFERENCES', S('cs/MyApp.Data/SqlInvoiceRepository.cs', 'MyApp.Data.SqlInvoiceRepository.GetOpenTotal', 'method'), S('sql/procedures.sql', 'dbo.vw_OpenInvoices', 'view')],

  // ---- REFERENCES, SQL -> SQL
  ['REFERENCES', S('sql/procedures.sql', 'dbo.vw_OpenInvoices', 'view'), S('sql/tables.sql', 'dbo.Invoice', 'table')],
  ['REFERENCES', S('sql/procedures.sql', 'dbo.vw_OpenInvoices', 'view'), S('sql/tables.sql', 'dbo.Customer', 'table')],
  ['REFERENCES', S('sql/procedures.sql', 'dbo.usp_LogAction', 'procedure'), S('sql/tables.sql', 'dbo.AuditLog', 'table')],
  ['REFERENCES', S('sql/procedures.sql', 'dbo.usp_CreateInvoice', 'procedure'), S('sql/tables.sql', 'dbo.Customer', 'table')],
  ['REFERENCES', S('sql/procedures.sql', 'dbo.usp_CreateInvoice', 'procedure'), S('sql/tables.sql', 'dbo.Invoice', 'table')],
  ['REFERENCES', S('sql/tables.sql', 'dbo.Invoice', 'table'), S('sql/tables.sql', 'dbo.Customer', 'table')], // foreign key

  // ---- OVERRIDES: method -> the base class / interface member it overrides or implements
  ['OVERRIDES', S('ts/src/models/invoice.ts', 'Invoice.describe', 'method'), S('ts/src/models/base-entity.ts', 'BaseEntity.describe', 'method')],
  ['OVERRIDES', S('ts/src/models/invoice.ts', 'Invoice.audit', 'method'), S('ts/src/models/auditable.ts', 'Auditable.audit', 'method')],
  ['OVERRIDES', S('ts/src/reactions.ts', 'Reaction.track', 'method'), S('ts/src/reactions.ts', 'Trackable.track', 'method')],
  ['OVERRIDES', S('py/billing/invoice.py', 'Invoice.render', 'method'), S('py/billing/base.py', 'Document.render', 'method')],
  ['OVERRIDES', S('cs/MyApp.Data/SqlInvoiceRepository.cs', 'MyApp.Data.SqlInvoiceRepository.Create', 'method'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository.Create', 'method')],
  ['OVERRIDES', S('cs/MyApp.Data/SqlInvoiceRepository.cs', 'MyApp.Data.SqlInvoiceRepository.GetOpenTotal', 'method'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository.GetOpenTotal', 'method')],
  ['OVERRIDES', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.AuditEntry.Describe', 'method'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.Auditable.Describe', 'method')],
  ['OVERRIDES', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.Describe', 'method'), S('cs/MyApp/Services/ServiceBase.cs', 'MyApp.Services.Auditable.Describe', 'method')],

  // ---- REFERENCES, type names
  ['REFERENCES', S('ts/src/reactions.ts', 'makeReaction', 'function'), S('ts/src/reactions.ts', 'Reaction', 'class')],
  ['REFERENCES', S('ts/src/models/invoice.ts', 'Invoice.constructor', 'constructor'), S('ts/src/models/auditable.ts', 'AuditLevel', 'type_alias')],
  ['REFERENCES', S('ts/src/services/invoice-repository.ts', 'InvoiceRepository', 'class'), S('ts/src/models/invoice.ts', 'Invoice', 'class')],
  ['REFERENCES', S('ts/src/services/invoice-repository.ts', 'InvoiceRepository.save', 'method'), S('ts/src/models/invoice.ts', 'Invoice', 'class')],
  ['REFERENCES', S('ts/src/services/invoice-repository.ts', 'InvoiceRepository.find', 'method'), S('ts/src/models/invoice.ts', 'Invoice', 'class')],
  ['REFERENCES', S('ts/src/services/invoice-service.ts', 'InvoiceService.constructor', 'constructor'), S('ts/src/services/invoice-repository.ts', 'InvoiceRepository', 'class')],
  ['REFERENCES', S('ts/src/services/invoice-service.ts', 'summarize', 'function'), S('ts/src/models/invoice.ts', 'Invoice', 'class')],
  ['REFERENCES', S('ts/src/services/invoice-service.ts', 'summarize.line', 'function'), S('ts/src/models/invoice.ts', 'Invoice', 'class')],
  ['REFERENCES', S('ts/src/utils/format.ts', 'formatAudit', 'function'), S('ts/src/models/base-entity.ts', 'BaseEntity', 'class')],
  ['REFERENCES', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService', 'class'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository', 'interface')],
  ['REFERENCES', S('cs/MyApp/Services/InvoiceService.cs', 'MyApp.Services.InvoiceService.InvoiceService', 'constructor'), S('cs/MyApp.Data/IInvoiceRepository.cs', 'MyApp.Data.IInvoiceRepository', 'interface')],
];

describe('resolveRepository over test/fixtures/polyglot-repo', () => {
  it('parses every fixture file without errors', () => {
    expect(files.filter((f) => original(f.path)).map((f) => `${f.language} ${f.path}`)).toEqual([
      'csharp cs/MyApp.Data/IInvoiceRepository.cs',
      'csharp cs/MyApp.Data/SqlInvoiceRepository.cs',
      'csharp cs/MyApp/Services/InvoiceService.cs',
      'csharp cs/MyApp/Services/ServiceBase.cs',
      'python py/billing/__init__.py',
      'python py/billing/base.py',
      'python py/billing/invoice.py',
      'python py/billing/tax.py',
      'python py/report.py',
      'sql sql/procedures.sql',
      'sql sql/tables.sql',
      'typescript ts/src/index.ts',
      'typescript ts/src/internal.ts',
      'typescript ts/src/main.ts',
      'typescript ts/src/models/auditable.ts',
      'typescript ts/src/models/base-entity.ts',
      'typescript ts/src/models/invoice.ts',
      'typescript ts/src/reactions.ts',
      'typescript ts/src/services/invoice-repository.ts',
      'typescript ts/src/services/invoice-service.ts',
      'typescript ts/src/tracker.ts',
      'typescript ts/src/utils/format.ts',
      'typescript ts/src/utils/legacy.ts',
      'typescript ts/src/utils/predicates.ts',
    ]);
    expect(files.filter((f) => f.errors.length)).toEqual([]);
  });

  it('produces exactly the expected edges', () => {
    const actual = result.edges.filter((e) => original(e.fromId)).map((e) => key(e.type, e.fromId, e.toId)).sort();
    const expected = EXPECTED.map(([t, f, to]) => key(t, f, to)).sort();
    expect(actual).toEqual(expected);
    // every edge points at real scopes
    const ids = new Set(files.flatMap((f) => f.scopes.map((s) => s.id)));
    for (const e of result.edges) {
      expect(ids.has(e.fromId)).toBe(true);
      expect(ids.has(e.toId)).toBe(true);
    }
  });

  it('resolves the `parse` collision through the import, not by name', () => {
    const parses = files.flatMap((f) => f.scopes).filter((s) => s.name === 'parse').map((s) => s.id);
    expect(parses).toEqual(['ts/src/utils/format.ts#parse|function', 'ts/src/utils/legacy.ts#parse|function']);
    const from = S('ts/src/services/invoice-service.ts', 'InvoiceService.create', 'method');
    const targets = result.edges.filter((e) => e.fromId === from && e.type === 'CALLS').map((e) => e.toId);
    expect(targets).toContain('ts/src/utils/format.ts#parse|function');
    expect(targets).not.toContain('ts/src/utils/legacy.ts#parse|function');
  });

  it('keeps the first line of each edge', () => {
    const e = result.edges.find((x) => x.type === 'REFERENCES' && x.toId === S('sql/procedures.sql', 'dbo.usp_CreateInvoice', 'procedure'));
    expect(e?.line).toBe(19);
  });

  it('returns what it cannot resolve, with a reason', () => {
    const un = (name: string) => result.unresolved.filter((u) => u.targetName === name && original(u.fromId)).map((u) => u.reason);
    expect(un('uuid')).toEqual(['external']); // import { v4 as uuid } from 'uuid'
    expect(un('Decimal')).toEqual(['external', 'external', 'external', 'external', 'external', 'external']);
    expect(un('print')).toEqual(['builtin']);
    expect(un('Console.WriteLine')).toEqual(['builtin']);
    expect(un('command.ExecuteScalar')).toEqual(['builtin', 'builtin']); // typed SqlCommand; a var given connection.CreateCommand() (SqlConnection's)
    expect(un('raw.split')).toEqual(['builtin', 'builtin']); // raw: string
    // nothing that resolved is also reported unresolved
    const resolvedFrom = new Set(result.edges.map((e) => e.fromId));
    const mine = result.unresolved.filter((u) => original(u.fromId));
    expect(mine.every((u) => resolvedFrom.has(u.fromId) || u.reason !== 'not-found')).toBe(true);
    expect(mine.filter((u) => u.reason === 'not-found')).toEqual([]);
  });

  it('lists file imports with repository targets and external packages', () => {
    const fi = result.fileImports.filter((i) => original(i.fromPath)).map((i) => `${i.fromPath} ${i.specifier} -> ${i.toPath ?? `external:${i.external}`}`).sort();
    expect(fi).toEqual([
      'cs/MyApp.Data/SqlInvoiceRepository.cs System.Data -> external:System.Data',
      'cs/MyApp.Data/SqlInvoiceRepository.cs System.Data.SqlClient -> external:System.Data.SqlClient',
      'cs/MyApp/Services/InvoiceService.cs MyApp.Data -> cs/MyApp.Data/IInvoiceRepository.cs',
      'cs/MyApp/Services/InvoiceService.cs MyApp.Data -> cs/MyApp.Data/SqlInvoiceRepository.cs',
      'cs/MyApp/Services/InvoiceService.cs System -> external:System',
      'cs/MyApp/Services/ServiceBase.cs System -> external:System',
      'py/billing/__init__.py .invoice -> py/billing/invoice.py',
      'py/billing/invoice.py .base -> py/billing/base.py',
      'py/billing/invoice.py .tax -> py/billing/tax.py',
      'py/billing/invoice.py decimal -> external:decimal',
      'py/billing/tax.py decimal -> external:decimal',
      'py/report.py billing -> py/billing/__init__.py',
      'py/report.py billing.tax -> py/billing/tax.py',
      'ts/src/index.ts ./models/invoice -> ts/src/models/invoice.ts',
      'ts/src/index.ts ./services/invoice-service -> ts/src/services/invoice-service.ts',
      'ts/src/internal.ts ./reactions -> ts/src/reactions.ts',
      'ts/src/internal.ts ./utils/predicates -> ts/src/utils/predicates.ts',
      'ts/src/main.ts ./index -> ts/src/index.ts',
      'ts/src/main.ts ./services/invoice-repository -> ts/src/services/invoice-repository.ts',
      'ts/src/models/invoice.ts ../utils/format -> ts/src/utils/format.ts',
      'ts/src/models/invoice.ts ./auditable -> ts/src/models/auditable.ts',
      'ts/src/models/invoice.ts ./base-entity -> ts/src/models/base-entity.ts',
      'ts/src/reactions.ts ./internal -> ts/src/internal.ts',
      'ts/src/reactions.ts ./internal -> ts/src/internal.ts',
      'ts/src/services/invoice-repository.ts ../models/invoice -> ts/src/models/invoice.ts',
      'ts/src/services/invoice-service.ts ../models/invoice -> ts/src/models/invoice.ts',
      'ts/src/services/invoice-service.ts ../utils/format -> ts/src/utils/format.ts',
      'ts/src/services/invoice-service.ts ../utils/legacy -> ts/src/utils/legacy.ts',
      'ts/src/services/invoice-service.ts ./invoice-repository -> ts/src/services/invoice-repository.ts',
      'ts/src/services/invoice-service.ts uuid -> external:uuid',
      'ts/src/tracker.ts ./reactions -> ts/src/reactions.ts',
      'ts/src/utils/format.ts ../models/base-entity -> ts/src/models/base-entity.ts',
    ]);
  });

  it('resolving only some files gives exactly what resolving all of them gives for those files', () => {
    const fromPath = (id: string) => id.slice(0, id.indexOf('#'));
    for (const only of [['py/billing/invoice.py'], ['ts/src/services/invoice-service.ts', 'cs/MyApp/Services/InvoiceService.cs'], files.map((f) => f.path)]) {
      const set = new Set(only);
      const part = resolveRepository(files, { only: set });
      expect(part.edges.length + part.unresolved.length).toBeGreaterThan(0);
      expect(part.edges).toEqual(result.edges.filter((e) => set.has(fromPath(e.fromId))));
      expect([...part.unresolved]).toEqual(result.unresolved.filter((u) => set.has(fromPath(u.fromId))));
      expect(part.fileImports).toEqual(result.fileImports.filter((i) => set.has(i.fromPath)));
    }
  });

  it('is deterministic', () => {
    const again = resolveRepository(files);
    expect(again.edges).toEqual(result.edges);
    expect([...again.unresolved]).toEqual([...result.unresolved]);
  });

  // Each other language's directory holds `expected.json`: { scopes: [ids], edges: ["TYPE from -> to"] },
  // its whole scope list and every edge leaving its files, written by hand.
  const languageDirs = readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !ORIGINAL.test(`${e.name}/`))
    .map((e) => e.name)
    .sort();
  // (jest refuses an empty table: before the first language directory there is nothing to check)
  if (languageDirs.length) it.each(languageDirs)('%s/: exactly the scopes and edges of its expected.json, and no parse error', (dir) => {
    const expected = JSON.parse(readFileSync(join(ROOT, dir, 'expected.json'), 'utf8')) as { scopes: string[]; edges: string[] };
    const inDir = (id: string) => id.startsWith(`${dir}/`);
    const mine = files.filter((f) => inDir(f.path));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((f) => f.errors.length).map((f) => `${f.path}: ${f.errors.join('; ')}`)).toEqual([]);
    expect(mine.flatMap((f) => f.scopes.map((x) => x.id)).sort()).toEqual([...expected.scopes].sort());
    expect(result.edges.filter((e) => inDir(e.fromId)).map((e) => key(e.type, e.fromId, e.toId)).sort()).toEqual([...expected.edges].sort());
  });
});

describe('resolveRepository on small inline repositories', () => {
  const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
  const edges = (r: ResolveResult, type?: string) =>
    r.edges.filter((e) => !type || e.type === type).map((e) => `${e.fromId.split('#')[1]} -> ${e.toId}`).sort();

  it('maps NodeNext `.js` specifiers to .ts, folders to index files, and honours tsconfig paths', () => {
    const r = resolveRepository(parse({
      'src/a.ts': "import { b } from './b.js';\nimport { c } from './lib';\nimport { d } from '@app/d';\nimport './missing';\nexport const run = () => b() + c() + d();",
      'src/b.ts': 'export function b() { return 1; }',
      'src/lib/index.ts': "export { c } from './c';",
      'src/lib/c.ts': 'export function c() { return 2; }',
      'packages/d/src/d.ts': 'export function d() { return 3; }',
    }), { tsPaths: { '@app/*': ['packages/d/src/*'] } });
    expect(edges(r, 'CALLS')).toEqual([
      'run|function -> packages/d/src/d.ts#d|function',
      'run|function -> src/b.ts#b|function',
      'run|function -> src/lib/c.ts#c|function',
    ]);
    expect(r.fileImports.find((i) => i.specifier === './missing')).toEqual({ fromPath: 'src/a.ts', specifier: './missing', line: 4, missing: true });
  });

  it('does not guess across files in ES modules, but does for unique globals of script files', () => {
    const r = resolveRepository(parse({
      'm/a.ts': 'export function go() { helper(); }',
      'm/b.ts': 'export function helper() {}',
      's/a.js': 'function start() { util(); }',
      's/b.js': 'function util() {}',
    }));
    expect(edges(r, 'CALLS')).toEqual(['start|function -> s/b.js#util|function']);
    expect(r.unresolved.map((u) => `${u.targetName}:${u.reason}`)).toEqual(['helper:not-found']);
  });

  it('resolves C# same-namespace types without a using, static members, and SQL names case-insensitively', () => {
    const r = resolveRepository(parse({
      'A.cs': 'namespace App.Core { class A { void M() { Helpers.Run(); new B(); Exec("[DBO].[USP_DO]"); } void Exec(string sql) {} } }',
      'B.cs': 'namespace App.Core { class B { } static class Helpers { public static void Run() {} } }',
      'db.sql': 'CREATE PROCEDURE dbo.usp_Do AS SELECT 1\nGO',
    }));
    expect(edges(r)).toEqual([
      'App.Core.A.M|method -> A.cs#App.Core.A.Exec|method',
      'App.Core.A.M|method -> B.cs#App.Core.B|class',
      'App.Core.A.M|method -> B.cs#App.Core.Helpers.Run|method',
      'App.Core.A.M|method -> db.sql#dbo.usp_Do|procedure',
    ]);
  });

  it('reports ambiguous bare SQL names instead of guessing', () => {
    const r = resolveRepository(parse({
      'a.sql': 'CREATE TABLE sales.Item (Id INT)\nGO\nCREATE TABLE stock.Item (Id INT)\nGO\nCREATE VIEW dbo.v AS SELECT * FROM Item\nGO',
    }));
    expect(r.unresolved.map((u) => `${u.targetName}:${u.reason}`)).toEqual(['Item:ambiguous']);
  });

  it("resolves a name through circular `export *` barrels the same whichever files' references are resolved", () => {
    // x and y re-export each other and each one more module declaring `foo`: from x the search
    // finds z's first, from y it finds w's first. A file's answer must not depend on whether the
    // other file's reference was resolved before it (a re-index may resolve only one of them).
    const repo = parse({
      'a.ts': "import { foo } from './x';\nexport function useX() { foo(); }",
      'b.ts': "import { foo } from './y';\nexport function useY() { foo(); }",
      'w.ts': 'export function foo() {}',
      'x.ts': "export * from './y';\nexport * from './w';",
      'y.ts': "export * from './x';\nexport * from './z';",
      'z.ts': 'export function foo() {}',
    });
    const all = edges(resolveRepository(repo), 'CALLS');
    expect(all).toEqual(['useX|function -> z.ts#foo|function', 'useY|function -> w.ts#foo|function']);
    expect(edges(resolveRepository(repo, { only: new Set(['b.ts']) }), 'CALLS')).toEqual(['useY|function -> w.ts#foo|function']);
    expect(edges(resolveRepository(repo, { only: new Set(['a.ts']) }), 'CALLS')).toEqual(['useX|function -> z.ts#foo|function']);
  });

  it('follows Python package re-exports, submodule imports and namespace packages', () => {
    const r = resolveRepository(parse({
      'src/app/__init__.py': 'from .core import engine',
      'src/app/core/engine.py': 'def start():\n    pass',
      'src/app/main.py': 'from app import engine\nfrom app.core import engine as e2\n\ndef run():\n    engine.start()\n    e2.start()',
    }));
    expect(edges(r, 'CALLS')).toEqual(['run|function -> src/app/core/engine.py#start|function']);
    expect(r.fileImports.map((i) => `${i.fromPath} ${i.specifier} -> ${i.toPath ?? i.external ?? 'missing'}`).sort()).toEqual([
      'src/app/__init__.py .core -> src/app/core/engine.py',
      'src/app/main.py app -> src/app/__init__.py',
      'src/app/main.py app -> src/app/core/engine.py', // `engine` is a module re-imported by app/__init__.py
      'src/app/main.py app.core -> src/app/core/engine.py',
    ]);
  });

  it('a root that is itself a package (pythonRootPackage) is found by its name; without it those imports stay external', () => {
    const files = parse({
      '__init__.py': '',
      'nodes.py': 'class Node:\n    def astext(self):\n        return ""\n\ndef make():\n    return Node()',
      'transforms/__init__.py': '',
      'transforms/parts.py': 'from docs import nodes\nfrom docs.nodes import Node\nimport docs.nodes\n\ndef run():\n    nodes.make()\n    Node()\n    docs.nodes.make()',
      'io.py': 'def StringIO():\n    pass',
      'transforms/dump.py': 'from io import StringIO\n\ndef dump():\n    StringIO()',
    });
    const own = resolveRepository(files, { pythonRootPackage: 'docs' });
    expect(edges(own, 'CALLS')).toEqual(['make|function -> nodes.py#Node|class', 'run|function -> nodes.py#Node|class', 'run|function -> nodes.py#make|function']);
    const calls = (r: ResolveResult) => r.outcomes!.filter((o) => o.ref.kind === 'CALLS' && o.path === 'transforms/parts.py').map((o) => o.reason ?? 'resolved');
    expect(calls(resolveRepository(files, { pythonRootPackage: 'docs', collectOutcomes: true }))).toEqual(['resolved', 'resolved', 'resolved']);
    expect(calls(resolveRepository(files, { collectOutcomes: true }))).toEqual(['external', 'external', 'external']);
    // The root's io.py is no `io` to its own modules (Python finds the standard library's): only without the option is it taken.
    expect(edges(resolveRepository(files), 'CALLS')).toEqual(['dump|function -> io.py#StringIO|function', 'make|function -> nodes.py#Node|class']);
  });
});
