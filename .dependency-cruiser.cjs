/**
 * Import directions (ARCHITECTURE.md, layout), checked by `npm run check`.
 * Paths are relative to the repository root; dependency types: see dependency-cruiser's rules reference.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-api',
      comment:
        'Business rules are shared by the API and activities: they must not depend on HTTP code. ' +
        'The one exception: domain input types are `z.output` of the request schemas (`import type` only).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/api/', pathNot: ['^src/api/[^/]+/schemas\\.ts$', '^src/api/[^/]+/[^/]+/schemas\\.ts$'] },
    },
    {
      name: 'domain-types-from-schemas-only',
      comment: 'Request schemas reach the domain as types, never at run time.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ['^src/api/[^/]+/schemas\\.ts$', '^src/api/[^/]+/[^/]+/schemas\\.ts$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'db-not-to-domain-or-api',
      comment: 'The database layer sits below the domain and the API.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(domain|api)/' },
    },
    {
      name: 'workflows-only-temporal-workflow',
      comment:
        'Workflow code runs in the deterministic sandbox: at run time it may import only ' +
        '@temporalio/workflow and other workflow files; anything else only with `import type`.',
      severity: 'error',
      from: { path: '^src/workflows/' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: ['(^|/)node_modules/@temporalio/workflow/', '^src/workflows/'],
      },
    },
    {
      name: 'activities-not-to-api',
      comment: 'Activities use the domain directly, never the HTTP layer.',
      severity: 'error',
      from: { path: '^src/activities/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'temporal-engine-not-to-grpc',
      comment: 'The embedded Temporal engine is transport-agnostic: gRPC lives in temporal/server/grpc only.',
      severity: 'error',
      from: { path: '^temporal/server/engine/' },
      to: { path: ['(^|/)node_modules/@grpc/grpc-js/', '^@grpc/grpc-js$', '^temporal/server/grpc/'] },
    },
    {
      name: 'temporal-server-by-its-name',
      comment:
        'The embedded Temporal server is a package of its own (temporal/server/README.md): the service, its ' +
        'tests and benches reach it only as @backoffice/temporal-server, its one entry (index.ts, through ' +
        "tsconfig.json's paths), never a file of it by a path.",
      severity: 'error',
      from: { path: '^(src|test|bench|e2e|contract)/' },
      to: { path: ['^temporal/server/', '^@backoffice/temporal-server/'], dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'temporal-server-stands-alone',
      comment: 'The package imports its own files, Node and npm packages: nothing of the service.',
      severity: 'error',
      from: { path: '^temporal/server/' },
      to: { pathNot: ['^temporal/server/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'temporal-server-declares-its-packages',
      comment: "Every npm package the package imports is in its package.json (hoisting would hide a missing one).",
      severity: 'error',
      from: { path: '^temporal/server/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'temporal-server-runs-on-its-dependencies',
      comment: 'Its code (tests aside) needs only what its package.json lists under dependencies.',
      severity: 'error',
      from: { path: '^temporal/server/', pathNot: '^temporal/server/test/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-circular-in-src',
      comment: 'Cycles make load order matter and blur the layers.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/generated/' },
      // Type-only imports count too (issue 33): a type reaching back ties the layers as tightly.
      to: { path: '^src/', circular: true },
    },
  ],
  options: {
    // Type-only imports are part of the graph too (tagged "type-only"), so rules can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^src/generated/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
  },
};
