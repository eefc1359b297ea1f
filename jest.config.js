// Two tiers: fast unit specs beside the code, e2e specs under test/ against the real Neo4j and Redis.
const swc = ['@swc/jest', {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
}];
const moduleNameMapper = {
  '^@scopegraph/([a-z-]+)$': '<rootDir>/libs/$1/src',
};
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/libs', '<rootDir>/apps'],
      testMatch: ['**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
      testTimeout: 120000,
    },
  ],
};
