/** Two projects: the service's HTTPS integration tests (one running app shared by all files)
 * and the embedded Temporal server's conformance suite. */
const transform = { '^.+\\.ts$': ['@swc/jest'] };
module.exports = {
  testTimeout: 60000,
  // Two workers even on two cores (jest's default there is one): most of a file's time is spent
  // waiting on the service, a process it starts or a timer, so two files at once took a pass on
  // this 2-core machine from 912 s to 548 s.
  maxWorkers: 2,
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
