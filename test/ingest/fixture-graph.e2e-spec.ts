import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { provenanceOf } from '@scopegraph/code-model';
import { walkRepository } from '@scopegraph/ingest';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

/**
 * The four original directories (cs, py, sql, ts) are written out below; every other language's
 * directory holds `expected.json` with its scopes and edges (libs/ingest/src/resolve/resolver.spec.ts).
 */
const ORIGINAL = /^(cs|py|sql|ts)\//;
const languageDirs = readdirSync(FIXTURE, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !ORIGINAL.test(`${e.name}/`))
  .map((e) => e.name);
const perLanguage = languageDirs.map((dir) => JSON.parse(readFileSync(join(FIXTURE, dir, 'expected.json'), 'utf8')) as { scopes: string[]; edges: string[] });
const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const pathOf = (id: string) => id.slice(0, id.indexOf('#'));
const crossFile = (edge: string) => {
  const [from, to] = edge.slice(edge.indexOf(' ') + 1).split(' -> ');
  return pathOf(from) !== pathOf(to);
};

// The fixture mixes TypeScript, Python, C# and T-SQL (test/fixtures/polyglot-repo/README.md). These
// lists are the whole expected graph: every scope, and every edge that crosses a file boundary.
const EXPECTED_SCOPES = [
    'cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository.Create|method',
    'cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository.GetOpenTotal|method',
    'cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository|interface',
    'cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data|namespace',
    'cs/MyApp.Data/IInvoiceRepository.cs#cs/MyApp.Data/IInvoiceRepository.cs|file',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.ConnectionString|property',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.Create|method',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.GetOpenTotal|method',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.SqlInvoiceRepository|constructor',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository|class',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data|namespace',
    'cs/MyApp.Data/SqlInvoiceRepository.cs#cs/MyApp.Data/SqlInvoiceRepository.cs|file',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.AuditEntry.Describe|method',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.AuditEntry|class',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.CreateInvoice|method',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.Describe|method',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.InvoiceService|constructor',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.MinimumTotal|property',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.Validate|method',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService|class',
    'cs/MyApp/Services/InvoiceService.cs#MyApp.Services|namespace',
    'cs/MyApp/Services/InvoiceService.cs#cs/MyApp/Services/InvoiceService.cs|file',
    'cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable.Describe|method',
    'cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable|interface',
    'cs/MyApp/Services/ServiceBase.cs#MyApp.Services.ServiceBase.Log|method',
    'cs/MyApp/Services/ServiceBase.cs#MyApp.Services.ServiceBase|class',
    'cs/MyApp/Services/ServiceBase.cs#MyApp.Services|namespace',
    'cs/MyApp/Services/ServiceBase.cs#cs/MyApp/Services/ServiceBase.cs|file',
    'py/billing/__init__.py#py/billing/__init__.py|file',
    'py/billing/base.py#Document.__init__|constructor',
    'py/billing/base.py#Document.render|method',
    'py/billing/base.py#Document|class',
    'py/billing/base.py#py/billing/base.py|file',
    'py/billing/invoice.py#Invoice.__init__|constructor',
    'py/billing/invoice.py#Invoice.render|method',
    'py/billing/invoice.py#Invoice.total|method',
    'py/billing/invoice.py#Invoice|class',
    'py/billing/invoice.py#py/billing/invoice.py|file',
    'py/billing/tax.py#compute_tax._round|function',
    'py/billing/tax.py#compute_tax|function',
    'py/billing/tax.py#py/billing/tax.py|file',
    'py/report.py#main|function',
    'py/report.py#py/report.py|file',
    'sql/procedures.sql#dbo.fn_InvoiceTax|sql_function',
    'sql/procedures.sql#dbo.usp_CreateInvoice|procedure',
    'sql/procedures.sql#dbo.usp_LogAction|procedure',
    'sql/procedures.sql#dbo.vw_OpenInvoices|view',
    'sql/procedures.sql#sql/procedures.sql|file',
    'sql/tables.sql#dbo.AuditLog|table',
    'sql/tables.sql#dbo.Customer|table',
    'sql/tables.sql#dbo.Invoice|table',
    'sql/tables.sql#sql/tables.sql|file',
    'ts/src/index.ts#ts/src/index.ts|file',
    'ts/src/internal.ts#ts/src/internal.ts|file',
    'ts/src/main.ts#main|function',
    'ts/src/main.ts#ts/src/main.ts|file',
    'ts/src/models/auditable.ts#AuditLevel|type_alias',
    'ts/src/models/auditable.ts#Auditable.audit|method',
    'ts/src/models/auditable.ts#Auditable|interface',
    'ts/src/models/auditable.ts#ts/src/models/auditable.ts|file',
    'ts/src/models/base-entity.ts#BaseEntity.constructor|constructor',
    'ts/src/models/base-entity.ts#BaseEntity.describe|method',
    'ts/src/models/base-entity.ts#BaseEntity.touch|method',
    'ts/src/models/base-entity.ts#BaseEntity|class',
    'ts/src/models/base-entity.ts#ts/src/models/base-entity.ts|file',
    'ts/src/models/base-entity.ts#validateId|function',
    'ts/src/models/invoice.ts#Invoice.audit|method',
    'ts/src/models/invoice.ts#Invoice.constructor|constructor',
    'ts/src/models/invoice.ts#Invoice.describe|method',
    'ts/src/models/invoice.ts#Invoice|class',
    'ts/src/models/invoice.ts#ts/src/models/invoice.ts|file',
    'ts/src/reactions.ts#Reaction.track|method',
    'ts/src/reactions.ts#Reaction|class',
    'ts/src/reactions.ts#Trackable.track|method',
    'ts/src/reactions.ts#Trackable|interface',
    'ts/src/reactions.ts#makeReaction|function',
    'ts/src/reactions.ts#ts/src/reactions.ts|file',
    'ts/src/services/invoice-repository.ts#InvoiceRepository.find|method',
    'ts/src/services/invoice-repository.ts#InvoiceRepository.save|method',
    'ts/src/services/invoice-repository.ts#InvoiceRepository|class',
    'ts/src/services/invoice-repository.ts#ts/src/services/invoice-repository.ts|file',
    'ts/src/services/invoice-service.ts#InvoiceService.constructor|constructor',
    'ts/src/services/invoice-service.ts#InvoiceService.create|method',
    'ts/src/services/invoice-service.ts#InvoiceService.importLegacy|method',
    'ts/src/services/invoice-service.ts#InvoiceService|class',
    'ts/src/services/invoice-service.ts#summarize.line|function',
    'ts/src/services/invoice-service.ts#summarize|function',
    'ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file',
    'ts/src/tracker.ts#Tracker.run|method',
    'ts/src/tracker.ts#Tracker|class',
    'ts/src/tracker.ts#trackAll|function',
    'ts/src/tracker.ts#ts/src/tracker.ts|file',
    'ts/src/utils/format.ts#formatAudit|function',
    'ts/src/utils/format.ts#formatMoney|function',
    'ts/src/utils/format.ts#parse|function',
    'ts/src/utils/format.ts#ts/src/utils/format.ts|file',
    'ts/src/utils/legacy.ts#legacyTotal|function',
    'ts/src/utils/legacy.ts#parse|function',
    'ts/src/utils/legacy.ts#ts/src/utils/legacy.ts|file',
    'ts/src/utils/predicates.ts#createPredicate|function',
    'ts/src/utils/predicates.ts#isPositive|variable',
    'ts/src/utils/predicates.ts#ts/src/utils/predicates.ts|file',
];

const EXPECTED_CROSS_FILE_EDGES = [
    'CALLS cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.CreateInvoice|method -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository.Create|method',
    'CALLS cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.CreateInvoice|method -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.ServiceBase.Log|method',
    'CALLS py/billing/invoice.py#Invoice.__init__|constructor -> py/billing/base.py#Document.__init__|constructor',
    'CALLS py/billing/invoice.py#Invoice.render|method -> py/billing/base.py#Document.render|method',
    'CALLS py/billing/invoice.py#Invoice.total|method -> py/billing/tax.py#compute_tax|function',
    'CALLS py/report.py#main|function -> py/billing/invoice.py#Invoice.render|method',
    'CALLS py/report.py#main|function -> py/billing/invoice.py#Invoice|class',
    'CALLS py/report.py#main|function -> py/billing/tax.py#compute_tax|function',
    'CALLS ts/src/main.ts#main|function -> ts/src/services/invoice-repository.ts#InvoiceRepository|class',
    'CALLS ts/src/main.ts#main|function -> ts/src/services/invoice-service.ts#InvoiceService.create|method',
    'CALLS ts/src/main.ts#main|function -> ts/src/services/invoice-service.ts#InvoiceService|class',
    'CALLS ts/src/main.ts#main|function -> ts/src/services/invoice-service.ts#summarize|function',
    'CALLS ts/src/models/invoice.ts#Invoice.audit|method -> ts/src/models/base-entity.ts#BaseEntity.touch|method',
    'CALLS ts/src/models/invoice.ts#Invoice.audit|method -> ts/src/utils/format.ts#formatAudit|function',
    'CALLS ts/src/models/invoice.ts#Invoice.constructor|constructor -> ts/src/models/base-entity.ts#BaseEntity.constructor|constructor',
    'CALLS ts/src/models/invoice.ts#Invoice.describe|method -> ts/src/utils/format.ts#formatMoney|function',
    'CALLS ts/src/reactions.ts#Reaction.track|method -> ts/src/utils/predicates.ts#isPositive|variable',
    'CALLS ts/src/services/invoice-service.ts#InvoiceService.create|method -> ts/src/models/invoice.ts#Invoice|class',
    'CALLS ts/src/services/invoice-service.ts#InvoiceService.create|method -> ts/src/services/invoice-repository.ts#InvoiceRepository.save|method',
    'CALLS ts/src/services/invoice-service.ts#InvoiceService.create|method -> ts/src/utils/format.ts#formatMoney|function',
    'CALLS ts/src/services/invoice-service.ts#InvoiceService.create|method -> ts/src/utils/format.ts#parse|function',
    'CALLS ts/src/services/invoice-service.ts#InvoiceService.importLegacy|method -> ts/src/utils/legacy.ts#legacyTotal|function',
    'CALLS ts/src/services/invoice-service.ts#summarize.line|function -> ts/src/models/invoice.ts#Invoice.describe|method',
    'CALLS ts/src/tracker.ts#Tracker.run|method -> ts/src/reactions.ts#Reaction.track|method',
    'CALLS ts/src/tracker.ts#Tracker|class -> ts/src/reactions.ts#makeReaction|function',
    'CALLS ts/src/tracker.ts#trackAll|function -> ts/src/reactions.ts#Reaction.track|method',
    'CALLS ts/src/tracker.ts#trackAll|function -> ts/src/reactions.ts#Reaction|class',
    'CALLS ts/src/tracker.ts#trackAll|function -> ts/src/reactions.ts#makeReaction|function',
    'CALLS ts/src/tracker.ts#trackAll|function -> ts/src/utils/predicates.ts#isPositive|variable',
    'CALLS ts/src/utils/format.ts#formatAudit|function -> ts/src/models/base-entity.ts#BaseEntity.describe|method',
    'EXTENDS cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService|class -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.ServiceBase|class',
    'EXTENDS py/billing/invoice.py#Invoice|class -> py/billing/base.py#Document|class',
    'EXTENDS ts/src/models/invoice.ts#Invoice|class -> ts/src/models/base-entity.ts#BaseEntity|class',
    'IMPLEMENTS cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository|class -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository|interface',
    'IMPLEMENTS cs/MyApp/Services/InvoiceService.cs#MyApp.Services.AuditEntry|class -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable|interface',
    'IMPLEMENTS cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService|class -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable|interface',
    'IMPLEMENTS ts/src/models/invoice.ts#Invoice|class -> ts/src/models/auditable.ts#Auditable|interface',
    'IMPORTS cs/MyApp/Services/InvoiceService.cs#cs/MyApp/Services/InvoiceService.cs|file -> cs/MyApp.Data/IInvoiceRepository.cs#cs/MyApp.Data/IInvoiceRepository.cs|file',
    'IMPORTS cs/MyApp/Services/InvoiceService.cs#cs/MyApp/Services/InvoiceService.cs|file -> cs/MyApp.Data/SqlInvoiceRepository.cs#cs/MyApp.Data/SqlInvoiceRepository.cs|file',
    'IMPORTS py/billing/__init__.py#py/billing/__init__.py|file -> py/billing/invoice.py#py/billing/invoice.py|file',
    'IMPORTS py/billing/invoice.py#py/billing/invoice.py|file -> py/billing/base.py#py/billing/base.py|file',
    'IMPORTS py/billing/invoice.py#py/billing/invoice.py|file -> py/billing/tax.py#py/billing/tax.py|file',
    'IMPORTS py/report.py#py/report.py|file -> py/billing/__init__.py#py/billing/__init__.py|file',
    'IMPORTS py/report.py#py/report.py|file -> py/billing/tax.py#py/billing/tax.py|file',
    'IMPORTS ts/src/index.ts#ts/src/index.ts|file -> ts/src/models/invoice.ts#ts/src/models/invoice.ts|file',
    'IMPORTS ts/src/index.ts#ts/src/index.ts|file -> ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file',
    'IMPORTS ts/src/internal.ts#ts/src/internal.ts|file -> ts/src/reactions.ts#ts/src/reactions.ts|file',
    'IMPORTS ts/src/internal.ts#ts/src/internal.ts|file -> ts/src/utils/predicates.ts#ts/src/utils/predicates.ts|file',
    'IMPORTS ts/src/main.ts#ts/src/main.ts|file -> ts/src/index.ts#ts/src/index.ts|file',
    'IMPORTS ts/src/main.ts#ts/src/main.ts|file -> ts/src/services/invoice-repository.ts#ts/src/services/invoice-repository.ts|file',
    'IMPORTS ts/src/models/invoice.ts#ts/src/models/invoice.ts|file -> ts/src/models/auditable.ts#ts/src/models/auditable.ts|file',
    'IMPORTS ts/src/models/invoice.ts#ts/src/models/invoice.ts|file -> ts/src/models/base-entity.ts#ts/src/models/base-entity.ts|file',
    'IMPORTS ts/src/models/invoice.ts#ts/src/models/invoice.ts|file -> ts/src/utils/format.ts#ts/src/utils/format.ts|file',
    'IMPORTS ts/src/reactions.ts#ts/src/reactions.ts|file -> ts/src/internal.ts#ts/src/internal.ts|file',
    'IMPORTS ts/src/services/invoice-repository.ts#ts/src/services/invoice-repository.ts|file -> ts/src/models/invoice.ts#ts/src/models/invoice.ts|file',
    'IMPORTS ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file -> ts/src/models/invoice.ts#ts/src/models/invoice.ts|file',
    'IMPORTS ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file -> ts/src/services/invoice-repository.ts#ts/src/services/invoice-repository.ts|file',
    'IMPORTS ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file -> ts/src/utils/format.ts#ts/src/utils/format.ts|file',
    'IMPORTS ts/src/services/invoice-service.ts#ts/src/services/invoice-service.ts|file -> ts/src/utils/legacy.ts#ts/src/utils/legacy.ts|file',
    'IMPORTS ts/src/tracker.ts#ts/src/tracker.ts|file -> ts/src/reactions.ts#ts/src/reactions.ts|file',
    'IMPORTS ts/src/utils/format.ts#ts/src/utils/format.ts|file -> ts/src/models/base-entity.ts#ts/src/models/base-entity.ts|file',
    'OVERRIDES cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.Create|method -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository.Create|method',
    'OVERRIDES cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.GetOpenTotal|method -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository.GetOpenTotal|method',
    'OVERRIDES cs/MyApp/Services/InvoiceService.cs#MyApp.Services.AuditEntry.Describe|method -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable.Describe|method',
    'OVERRIDES cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.Describe|method -> cs/MyApp/Services/ServiceBase.cs#MyApp.Services.Auditable.Describe|method',
    'OVERRIDES py/billing/invoice.py#Invoice.render|method -> py/billing/base.py#Document.render|method',
    'OVERRIDES ts/src/models/invoice.ts#Invoice.audit|method -> ts/src/models/auditable.ts#Auditable.audit|method',
    'OVERRIDES ts/src/models/invoice.ts#Invoice.describe|method -> ts/src/models/base-entity.ts#BaseEntity.describe|method',
    'REFERENCES cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.Create|method -> sql/procedures.sql#dbo.usp_CreateInvoice|procedure',
    'REFERENCES cs/MyApp.Data/SqlInvoiceRepository.cs#MyApp.Data.SqlInvoiceRepository.GetOpenTotal|method -> sql/procedures.sql#dbo.vw_OpenInvoices|view',
    'REFERENCES cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService.InvoiceService|constructor -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository|interface',
    'REFERENCES cs/MyApp/Services/InvoiceService.cs#MyApp.Services.InvoiceService|class -> cs/MyApp.Data/IInvoiceRepository.cs#MyApp.Data.IInvoiceRepository|interface',
    'REFERENCES sql/procedures.sql#dbo.usp_CreateInvoice|procedure -> sql/tables.sql#dbo.Customer|table',
    'REFERENCES sql/procedures.sql#dbo.usp_CreateInvoice|procedure -> sql/tables.sql#dbo.Invoice|table',
    'REFERENCES sql/procedures.sql#dbo.usp_LogAction|procedure -> sql/tables.sql#dbo.AuditLog|table',
    'REFERENCES sql/procedures.sql#dbo.vw_OpenInvoices|view -> sql/tables.sql#dbo.Customer|table',
    'REFERENCES sql/procedures.sql#dbo.vw_OpenInvoices|view -> sql/tables.sql#dbo.Invoice|table',
    'REFERENCES ts/src/models/invoice.ts#Invoice.constructor|constructor -> ts/src/models/auditable.ts#AuditLevel|type_alias',
    'REFERENCES ts/src/services/invoice-repository.ts#InvoiceRepository.find|method -> ts/src/models/invoice.ts#Invoice|class',
    'REFERENCES ts/src/services/invoice-repository.ts#InvoiceRepository.save|method -> ts/src/models/invoice.ts#Invoice|class',
    'REFERENCES ts/src/services/invoice-repository.ts#InvoiceRepository|class -> ts/src/models/invoice.ts#Invoice|class',
    'REFERENCES ts/src/services/invoice-service.ts#InvoiceService.constructor|constructor -> ts/src/services/invoice-repository.ts#InvoiceRepository|class',
    'REFERENCES ts/src/services/invoice-service.ts#summarize.line|function -> ts/src/models/invoice.ts#Invoice|class',
    'REFERENCES ts/src/services/invoice-service.ts#summarize|function -> ts/src/models/invoice.ts#Invoice|class',
    'REFERENCES ts/src/utils/format.ts#formatAudit|function -> ts/src/models/base-entity.ts#BaseEntity|class',
];

describe('the polyglot fixture in the graph', () => {
  const h = new IngestHarness();
  const repo = runId('fixture');

  beforeAll(async () => {
    await h.init();
    await h.ingest.index({ path: FIXTURE, name: repo });
  });

  afterAll(() => h.dispose([repo]));

  it('holds exactly the expected scopes, each with its kind label', async () => {
    const rows = await h.neo4j.runStatement<{ id: string; labels: string[] }>(
      'MATCH (s:Scope {repoId: $repo}) RETURN s.localId AS id, labels(s) AS labels ORDER BY id',
      { repo },
    );
    expect(rows.map((r) => r.id)).toEqual(sorted([...EXPECTED_SCOPES, ...perLanguage.flatMap((l) => l.scopes)]));
    for (const r of rows) expect(r.labels.length).toBe(2);
  });

  it('holds exactly the expected cross-file CALLS, IMPORTS, EXTENDS, IMPLEMENTS, REFERENCES and OVERRIDES edges', async () => {
    const rows = await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (a:Scope {repoId: $repo})-[r:CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|OVERRIDES]->(b:Scope)
       WHERE a.path <> b.path
       RETURN type(r) + ' ' + a.localId + ' -> ' + b.localId AS edge ORDER BY edge`,
      { repo },
    );
    expect(rows.map((r) => r.edge)).toEqual(sorted([...EXPECTED_CROSS_FILE_EDGES, ...perLanguage.flatMap((l) => l.edges.filter(crossFile))]));
  });

  it('counts each language\'s references by how they ended, exactly as the resolver decided them', async () => {
    // Recomputed from a resolution of its own, then compared with what the repository reports from the graph.
    const walk = await walkRepository(FIXTURE, (p) => h.parser.supports(p));
    const files = walk.files.map((f) => h.parser.parseFile(f.path, f.content));
    const { result } = await h.resolver.resolve(runId('coverage'), FIXTURE, files);
    const languageOf = new Map(files.flatMap((f) => f.scopes.map((x) => [x.id, f.language] as const)));
    type Row = { language: string; resolved: number; external: number; dynamic: number; unresolved: number; notFound: number; callsResolved: number; callsNotFound: number } & Record<'byCompiler' | 'byScip' | 'byName' | 'byHeuristic', number>;
    const expected = new Map<string, Row>();
    const row = (id: string) => {
      const language = languageOf.get(id)!;
      let r = expected.get(language);
      if (!r) expected.set(language, (r = { language, resolved: 0, byCompiler: 0, byScip: 0, byName: 0, byHeuristic: 0, external: 0, dynamic: 0, unresolved: 0, notFound: 0, callsResolved: 0, callsNotFound: 0 }));
      return r;
    };
    const byProvenance = { compiler: 'byCompiler', scip: 'byScip', name: 'byName', heuristic: 'byHeuristic' } as const;
    for (const f of files) row(f.scopes[0].id);
    for (const e of result.edges) {
      if (e.type === 'IMPORTS' || e.type === 'OVERRIDES') continue;
      const r = row(e.fromId);
      r.resolved++;
      r[byProvenance[provenanceOf(e.resolver, e.guessed)]]++;
      if (e.type === 'CALLS') r.callsResolved++;
    }
    for (const u of result.unresolved) {
      const r = row(u.fromId);
      if (u.reason === 'external' || u.reason === 'builtin') r.external++;
      else if (u.reason === 'dynamic' || u.reason === 'local') r.dynamic++;
      else {
        r.unresolved++;
        r.notFound++;
        if (u.type === 'CALLS') r.callsNotFound++;
      }
    }
    const coverage = await h.repo.referenceCoverage(repo);
    expect(coverage).toEqual([...expected.values()].sort((a, b) => (a.language < b.language ? -1 : 1)));
    expect(coverage.map((c) => c.language)).toEqual(expect.arrayContaining(['csharp', 'python', 'sql', 'typescript']));
    expect(coverage.find((c) => c.language === 'typescript')!.resolved).toBeGreaterThan(10);
  });

  it('resolves a call through its import, not to a same-named function elsewhere', async () => {
    const rows = await h.neo4j.runStatement<{ path: string }>(
      'MATCH (:Scope {repoId: $repo, qualifiedName: "InvoiceService.create"})-[:CALLS]->(p:Scope {name: "parse"}) RETURN p.path AS path',
      { repo },
    );
    expect(rows.map((r) => r.path)).toEqual(['ts/src/utils/format.ts']);
  });

  it('records on each reference edge which resolver produced it', async () => {
    const rows = await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (a:Scope {repoId: $repo})-[r:CALLS]->(b:Scope) WHERE a.path = 'ts/src/tracker.ts'
       RETURN a.qualifiedName + ' -> ' + b.qualifiedName + ' ' + r.resolver AS edge ORDER BY edge`,
      { repo },
    );
    // `this.reaction` and `inferred` have no declared type: only the compiler (precise) pins them.
    expect(rows.map((r) => r.edge)).toEqual([
      'Tracker -> makeReaction fast',
      'Tracker.run -> Reaction.track precise',
      'trackAll -> Reaction fast',
      'trackAll -> Reaction.track precise',
      'trackAll -> isPositive fast',
      'trackAll -> makeReaction fast',
    ]);
    const containment = await h.neo4j.runStatement<{ n: number }>(
      'MATCH (:Scope {repoId: $repo})-[r:DECLARES|HAS_MEMBER|IMPORTS]->() WHERE r.resolver IS NOT NULL RETURN count(r) AS n',
      { repo },
    );
    expect(Number(containment[0].n)).toBe(0);
  });

  it('answers "what overrides X" through OVERRIDES', async () => {
    const rows = await h.neo4j.runStatement<{ m: string }>(
      `MATCH (m:Scope)-[:OVERRIDES]->(:Scope {repoId: $repo, qualifiedName: 'MyApp.Services.Auditable.Describe'})
       RETURN m.qualifiedName AS m ORDER BY m`,
      { repo },
    );
    expect(rows.map((r) => r.m)).toEqual(['MyApp.Services.AuditEntry.Describe', 'MyApp.Services.InvoiceService.Describe']);
  });

  it('links C# code to the SQL objects it names', async () => {
    const rows = await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (c:Scope {repoId: $repo, language: 'csharp'})-[:REFERENCES]->(s:Scope {language: 'sql'})
       RETURN c.qualifiedName + ' -> ' + s.qualifiedName AS edge ORDER BY edge`,
      { repo },
    );
    expect(rows.map((r) => r.edge)).toEqual([
      'MyApp.Data.SqlInvoiceRepository.Create -> dbo.usp_CreateInvoice',
      'MyApp.Data.SqlInvoiceRepository.GetOpenTotal -> dbo.vw_OpenInvoices',
    ]);
  });

  it('records unresolved references and external imports instead of dropping them', async () => {
    const external = await h.neo4j.runStatement<{ name: string }>(
      'MATCH (:File {repoId: $repo})-[:IMPORTS]->(m:ExternalModule) RETURN DISTINCT m.name AS name ORDER BY name',
      { repo },
    );
    expect(external.map((e) => e.name)).toEqual(expect.arrayContaining(['uuid']));
    const unresolved = await h.neo4j.runStatement<{ reason: string }>(
      'MATCH (:Scope {repoId: $repo})-[r]->(:Unresolved) RETURN DISTINCT r.reason AS reason',
      { repo },
    );
    expect(unresolved.length).toBeGreaterThan(0);
    expect(unresolved.every((u) => typeof u.reason === 'string')).toBe(true);
  });
});
