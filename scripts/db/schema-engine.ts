// Loads Prisma's schema engine compiled to WebAssembly (@prisma/schema-engine-wasm). The package's
// entry imports the .wasm file as an ES module, which Node cannot do without a flag, so we
// instantiate the module ourselves and hand it to the generated bindings.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

// The project compiles without the DOM library, where WebAssembly's types live.
type WasmExports = Record<string, unknown>;
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: WasmExports } }>;
};

type Bindings = typeof import('@prisma/schema-engine-wasm/schema_engine_bg') & {
  __wbg_set_wasm(exports: WasmExports): void;
};

let bindings: Promise<Bindings> | undefined;

async function loadBindings(): Promise<Bindings> {
  const packageDir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const bg = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Bindings;
  const bytes = await readFile(path.join(packageDir, 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bg;
}

/** Starts an engine working on the given adapter (its "main" and "shadow" databases). */
export async function createSchemaEngine(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  log: (message: string) => void = () => {},
): Promise<SchemaEngine> {
  bindings ??= loadBindings();
  const { SchemaEngine } = await bindings;
  return SchemaEngine.new({ datamodels: undefined }, log, bindMigrationAwareSqlAdapterFactory(adapter));
}
