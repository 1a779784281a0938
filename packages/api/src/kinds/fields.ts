import type { z } from '../zod.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be: through optional, nullable, default and pipe, every union variant. */
function objectsOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(schema);
  if (def.shape !== undefined) return [def.shape];
  if (def.options !== undefined) return def.options.flatMap(objectsOf);
  const inner = def.innerType ?? def.in;
  return inner === undefined ? [] : objectsOf(inner);
}

/**
 * The fields of the object `schema` describes at `path` (`statusPageVisibility`, dots for deeper
 * ones), in the order they are declared; every variant's fields when it is a union (an alert
 * channel's types). Empty where there is no object.
 */
export function fieldsOf(schema: z.ZodType, path = ''): string[] {
  let at = [schema];
  for (const step of path.split('.').filter((s) => s !== '')) {
    at = at.flatMap(objectsOf).flatMap((shape) => (shape[step] === undefined ? [] : [shape[step]]));
  }
  return [...new Set(at.flatMap(objectsOf).flatMap((shape) => Object.keys(shape)))];
}
