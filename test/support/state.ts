import { readFileSync } from 'node:fs';

export interface TestState {
  url: string;
  temporalAddress: string;
  dataDir: string;
}

/** Where the shared service of this test run listens (written by global-setup.ts). */
export function testState(): TestState {
  const file = process.env.BACKOFFICE_TEST_STATE;
  if (!file) throw new Error('BACKOFFICE_TEST_STATE is unset: run the api tests through jest (global setup)');
  return JSON.parse(readFileSync(file, 'utf8')) as TestState;
}
