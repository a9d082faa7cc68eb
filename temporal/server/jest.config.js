/** The conformance suite (README.md "Conformance"): `npm test` here, or the `temporal` project of
 * the repository's `npm test`. */
module.exports = {
  displayName: 'temporal',
  testEnvironment: 'node',
  testTimeout: 60000,
  // swc's options here, not in a .swcrc: @swc/jest reads that from the working directory, which is
  // the repository's when its `npm test` runs this project.
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
