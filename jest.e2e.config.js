/** Browser tests (`npm run test:e2e`): Debian's Chromium through playwright-core against one
 * running service, started by the same global setup as the `api` project. */
module.exports = {
  testEnvironment: 'node',
  testTimeout: 120000,
  // One browser at a time: the Temporal UI's first build (a minute of vite) beside the console's
  // pages made a click wait past its 30 s on this 2-core machine; in band the run is ~3 minutes.
  maxWorkers: 1,
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  // The package's TypeScript, as in the api project (jest.config.js).
  moduleNameMapper: { '^@backoffice/temporal-server$': '<rootDir>/temporal/server/index.ts' },
  testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
