import type { z } from '../zod.js';

/** zod 4's definition of a schema, as the readers of fields need it: its type and what it wraps. */
export interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
  getter?: () => z.ZodType;
}

/** zod 4's definition of a schema (reading it needs the schema only, not zod). */
export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be: through optional, nullable, default and pipe, every union variant. */
export function objectsOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(schema);
  if (def.shape !== undefined) return [def.shape];
  if (def.options !== undefined) return def.options.flatMap(objectsOf);
  const inner = def.innerType ?? def.in;
  return inner === undefined ? [] : objectsOf(inner);
}
