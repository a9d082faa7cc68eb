/** Contract tests (`npm run test:contract`): tools from outside npm (the `.venv-contract` venv of
 * PyPI's schemathesis and openapi-python-client, .ci/run) against one running service, started by
 * the same global setup as the `api` project. A test whose tool is absent says so in one line. */
module.exports = {
  testEnvironment: 'node',
  testTimeout: 300000,
  // One file at a time: each runs a generator or a fuzzer that keeps a core busy.
  maxWorkers: 1,
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  // The package's TypeScript, as in the api project (jest.config.js).
  moduleNameMapper: { '^@backoffice/temporal-server$': '<rootDir>/temporal/server/index.ts' },
  testMatch: ['<rootDir>/contract/**/*.contract.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
