/** Two projects: the service's HTTPS integration tests (one running app shared by all files)
 * and the embedded Temporal server's conformance suite. */
const transform = { '^.+\\.ts$': ['@swc/jest'] };
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'api',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      displayName: 'temporal',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/temporal/server/test/**/*.test.ts'],
    },
  ],
};
