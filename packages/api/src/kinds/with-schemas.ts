import type { KindDefinition, ResourceKind } from './definition.js';
import { kindSchemas } from './schemas-link.js';

/**
 * A kind's definition whose schemas are read from `kind-schemas.ts` when first asked for
 * (`kindSchemas`), not when the definition is made: a run that only needs the rest (a warm
 * `monitor validate`) then loads neither zod nor a schema.
 */
export function withSchemas(
  kind: ResourceKind,
  definition: Omit<KindDefinition, 'kind' | 'createSchema' | 'updateSchema' | 'responseSchema'>,
): KindDefinition {
  return Object.defineProperties(
    { kind, ...definition },
    {
      createSchema: { get: () => kindSchemas()[kind].create, enumerable: true },
      updateSchema: { get: () => kindSchemas()[kind].update, enumerable: true },
      responseSchema: { get: () => kindSchemas()[kind].response, enumerable: true },
    },
  ) as KindDefinition;
}
