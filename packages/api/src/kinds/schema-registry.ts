import type { KIND_SCHEMAS } from '../kind-schemas.js';

/**
 * The kinds' schemas once their module has run (`kind-schemas.ts` registers them as it loads):
 * what the definitions' getters take first. Then a program that has imported them (the client,
 * the emulator, a load that checked a payload) never needs `require` to reach them, which Node
 * 22.0–22.11 cannot do for an ES module.
 */
let registered: typeof KIND_SCHEMAS | undefined;

export function registerKindSchemas(schemas: typeof KIND_SCHEMAS): void {
  registered = schemas;
}

export function registeredKindSchemas(): typeof KIND_SCHEMAS | undefined {
  return registered;
}

/**
 * Make sure the kinds' schemas can be reached synchronously: on a Node that cannot `require` an
 * ES module (22.0–22.11, before require(esm) was on by default), import them now. A caller that
 * is about to check payloads (a project's load) awaits it first; elsewhere it costs nothing.
 */
export async function kindSchemasReady(): Promise<void> {
  if (registered !== undefined || process.features.require_module === true) return;
  await import('../kind-schemas.js');
}
