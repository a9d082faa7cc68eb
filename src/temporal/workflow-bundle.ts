import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowBundleOption } from '@temporalio/worker';

/**
 * The workflow bundle scripts/build.mjs made at build time (dist/workflow-bundle.js), when this
 * code runs compiled from dist/: the worker loads it instead of bundling src/workflows at every
 * start (1.5-2 s, and webpack's memory). Under tsx (tests, development) there is none: the
 * worker bundles the sources it runs.
 */
export function prebuiltWorkflowBundle(): WorkflowBundleOption | undefined {
  if (!__filename.endsWith('.js')) return undefined;
  const codePath = path.resolve(__dirname, '../../workflow-bundle.js');
  return fs.existsSync(codePath) ? { codePath } : undefined;
}
