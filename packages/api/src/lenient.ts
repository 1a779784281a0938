import { z } from './zod.js';

/**
 * The reading side of a response schema: the same shape, with every field that must be present
 * still required and every type still checked, but no format, range, length or enum rule. A
 * request is checked strictly before it is sent; a response is read as the contract allows it to
 * evolve (a dashboard id of 0, an id that is not a UUID, a new enum value) instead of aborting a
 * run that could go on. Literals stay: they tell variants apart. A union of nothing but literals of
 * one type (`60 | 300 | 600`) is an enum written another way, and is read as that type.
 */
export function lenient(schema: z.ZodType): z.ZodType {
  const known = cache.get(schema);
  if (known !== undefined) return known;
  const made = build(schema);
  cache.set(schema, made);
  return made;
}

const cache = new WeakMap<z.ZodType, z.ZodType>();

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, unknown>;
}

/** `z.string()` or `z.number()` when every option is a literal of that type. */
function literalType(options: z.ZodType[]): z.ZodType | undefined {
  const values = options.flatMap((o) => {
    const def = (o as unknown as { _zod: { def: { type: string; values?: unknown[] } } })._zod.def;
    return def.type === 'literal' ? (def.values ?? []) : [Symbol()];
  });
  if (values.length === 0) return undefined;
  if (values.every((v) => typeof v === 'string')) return z.string();
  if (values.every((v) => typeof v === 'number')) return z.number();
  return undefined;
}

function build(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (values.every((v) => typeof v === 'string')) return z.string();
      if (values.every((v) => typeof v === 'number')) return z.number();
      return schema;
    }
    case 'optional':
      return lenient(def.innerType as z.ZodType).optional();
    case 'nullable':
      return lenient(def.innerType as z.ZodType).nullable();
    case 'array':
      return z.array(lenient(def.element as z.ZodType));
    case 'record':
      return z.record(def.keyType as z.ZodString, lenient(def.valueType as z.ZodType));
    case 'union': {
      const widened = literalType(def.options ?? []);
      if (widened !== undefined) return widened;
      const options = (def.options ?? []).map(lenient);
      return options.length >= 2 ? z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]) : schema;
    }
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, lenient(v)]));
      // Unknown fields are always welcome in what the service sends.
      return z.looseObject(shape);
    }
    default:
      // Literals, booleans, defaults, transforms and the rest are read as declared.
      return schema;
  }
}
