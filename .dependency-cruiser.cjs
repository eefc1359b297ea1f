// Module boundaries, checked by `npm test` (scripts/test.sh): apps hold transport and import libs;
// libs never import apps, tests or benches; a lib imports another lib only along an edge listed here.
// A new edge is a design decision: add it to LIB_DEPENDENCIES in the same change that needs it.

/** lib -> the libs it may import. Anything else between libs is an error. */
const LIB_DEPENDENCIES = {
  'code-model': [],
  errors: [],
  config: [],
  observability: [],
  'api-client': [],
  graph: ['config', 'errors'],
  llm: ['config', 'errors', 'observability'],
  queue: ['config', 'errors', 'observability'],
  health: ['graph', 'queue', 'config'],
  ingest: ['code-model', 'config', 'errors', 'graph', 'llm', 'queue', 'observability'],
  search: ['code-model', 'errors', 'graph', 'llm', 'config', 'observability'],
  rerank: ['config', 'errors', 'graph', 'llm', 'queue', 'search', 'code-model', 'observability'],
  pipeline: ['config', 'errors', 'graph', 'llm', 'queue', 'search', 'code-model', 'impact'],
  mcp: ['search', 'api-client'],
  history: ['code-model', 'config', 'errors', 'graph', 'observability'],
  impact: ['code-model', 'config', 'errors', 'graph', 'history', 'ingest', 'llm'],
};

const libEdgeRules = Object.entries(LIB_DEPENDENCIES).map(([lib, allowed]) => ({
  name: `lib-${lib}-imports-only-listed-libs`,
  comment: `libs/${lib} may import only: ${allowed.join(', ') || 'no other lib'} (see LIB_DEPENDENCIES)`,
  severity: 'error',
  from: { path: `^libs/${lib}/` },
  to: { path: '^libs/', pathNot: `^libs/(${[lib, ...allowed].join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'libs-never-import-apps',
      comment: 'Logic lives in libs; apps are transports that call it, never the other way round.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'libs-never-import-tests-or-benches',
      severity: 'error',
      from: { path: '^libs/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'apps-import-only-libs',
      comment: 'An app imports libs and its own files, never another app, a test or a bench.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(apps|test|bench)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'web-console-talks-only-graphql',
      comment: 'apps/web runs in the browser as a client of the public GraphQL API: it imports no server code, only the client behaviour every scopegraph client shares (libs/api-client: plain fetch).',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^(libs|apps|test|bench)/', pathNot: '^(apps/web|libs/api-client)/' },
    },
    {
      name: 'unknown-lib',
      comment: 'Every lib needs an entry in LIB_DEPENDENCIES.',
      severity: 'error',
      from: { path: '^libs/', pathNot: `^libs/(${Object.keys(LIB_DEPENDENCIES).join('|')})/` },
      to: {},
    },
    ...libEdgeRules,
    {
      name: 'no-circular-in-libs',
      comment: 'Two modules that import each other are one module in two files.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
