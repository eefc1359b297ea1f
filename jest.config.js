// Two tiers: fast unit specs beside the code, e2e specs under test/ against the real Neo4j and Redis.
const swc = ['@swc/jest', {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
}];
// onnxruntime-node checks typed arrays against the realm it was loaded in; jest gives each test file its
// own realm, so specs (and anything they load) run in an environment that shares the host's typed arrays.
const testEnvironment = '<rootDir>/libs/llm/src/embeddings/testing/onnx-jest-environment.ts';
const moduleNameMapper = {
  '^@scopegraph/([a-z-]+)$': '<rootDir>/libs/$1/src',
};
module.exports = {
  // e2e tests talk to real services and models; per-project testTimeout is not honoured, so the e2e
  // budget is the global default and unit specs lower it in their own setup file.
  testTimeout: 120000,
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      displayName: 'unit',
      testEnvironment,
      roots: ['<rootDir>/libs', '<rootDir>/apps'],
      testMatch: ['**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/unit-timeout.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      testEnvironment,
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/shared-vectors.ts',
      globalTeardown: '<rootDir>/test/support/shared-vectors-teardown.ts',
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
    },
  ],
};
