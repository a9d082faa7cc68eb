/**
 * The workflows the worker hosts: the bundler's entry (src/temporal/worker.ts). Workflow code
 * runs in the SDK's deterministic sandbox, so it may import nothing but @temporalio/workflow,
 * other workflow files and types (.dependency-cruiser.cjs). One file per area; what each takes
 * and answers, and its id, are in ./contracts.
 */
export * from './ping';
export * from './ledger-expiry';
export * from './topup';
export * from './termination';
export * from './communications';
export * from './automations';
export * from './webhooks';
export * from './reports';
export * from './retention';
export * from './simulations';
