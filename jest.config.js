/** Two projects: the service's HTTPS integration tests (one running app shared by all files)
 * and the embedded Temporal server's conformance suite (its package's own jest project). */
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
      transform: { '^.+\\.ts$': ['@swc/jest'] },
      // The package's TypeScript, as tsx reads it through tsconfig.json's paths (compiled code
      // requires its dist/: docs/DEVELOPING.md "Build").
      moduleNameMapper: { '^@backoffice/temporal-server$': '<rootDir>/temporal/server/index.ts' },
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    '<rootDir>/temporal/server',
  ],
};
