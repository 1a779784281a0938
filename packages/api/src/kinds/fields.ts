import { type DefaultsOf, FIELD_DEFAULTS, type FieldsOf, fieldDefaults } from '../schemas/field-default.js';
import type { z } from '../zod.js';
import type { KindDefinition } from './definition.js';

/** The fields of schemas, read from zod 4's definitions: one reader for every question of that kind. */

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
  getter?: () => z.ZodType;
}

/** zod 4's definition of a schema: its type and what it wraps. */
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

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

/**
 * The defaults the fields of the object `schema` is declare (`withDefault`), by field, in the
 * order they are declared; every variant's when it is a union. An object field declared
 * `withFieldDefaults` has the object of its own fields' defaults. What a kind's `*_DEFAULTS` are.
 */
export function defaultsOf<S extends z.ZodType>(schema: S): DefaultsOf<FieldsOf<S>> {
  const out: Record<string, unknown> = {};
  for (const shape of objectsOf(schema)) {
    for (const [field, inner] of Object.entries(shape)) {
      const declared = declaredDefault(inner);
      if (declared === undefined) continue;
      out[field] = declared.value === FIELD_DEFAULTS ? defaultsOf(declared.schema) : declared.value;
    }
  }
  return out as DefaultsOf<FieldsOf<S>>;
}

/** The default `field` declares, and the schema that declares it: through `.optional()`. */
function declaredDefault(field: z.ZodType): { schema: z.ZodType; value: unknown } | undefined {
  for (let at: z.ZodType | undefined = field; at !== undefined; ) {
    const declared = fieldDefaults.get(at);
    if (declared !== undefined) return { schema: at, value: declared.default };
    const def = defOf(at);
    at = def.type === 'optional' ? def.innerType : undefined;
  }
  return undefined;
}

/**
 * The fields of a kind as paths, from its create schema: `name`, `alertSettings.reminders`,
 * `environmentVariables[].value` (`[]` for the items of a list). What `ignoreChanges` may name,
 * checked once, generically, for every kind.
 */
export function fieldPaths(def: KindDefinition): ReadonlySet<string> {
  let paths = cache.get(def);
  if (paths === undefined) {
    paths = new Set<string>();
    walk(def.createSchema, '', paths);
    cache.set(def, paths);
  }
  return paths;
}

const cache = new WeakMap<KindDefinition, Set<string>>();

function walk(schema: z.ZodType, at: string, out: Set<string>): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      for (const [field, inner] of Object.entries(def.shape ?? {})) {
        const path = at === '' ? field : `${at}.${field}`;
        out.add(path);
        walk(inner, path, out);
      }
      return;
    case 'array':
      out.add(`${at}[]`);
      if (def.element !== undefined) walk(def.element, `${at}[]`, out);
      return;
    case 'union':
      for (const option of def.options ?? []) walk(option, at, out);
      return;
    case 'pipe':
      if (def.in !== undefined) walk(def.in, at, out);
      return;
    case 'lazy':
      if (def.getter !== undefined) walk(def.getter(), at, out);
      return;
    default:
      if (def.innerType !== undefined) walk(def.innerType, at, out);
  }
}

/** `environmentVariables[API_URL].value` as a rule path: `environmentVariables[].value`. */
export function rulePathOf(path: string): string {
  return path.replace(/\[[^\]]*\]/g, '[]');
}

/**
 * Whether `path` names something of the kind: a field, or a field of a keyed list's entry named by
 * its key (`environmentVariables[API_URL].value`). Entries of lists that are not keyed have no
 * name to give (the plan compares those lists whole).
 */
export function isFieldPath(def: KindDefinition, path: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(\[[^\]]+\])?(\.[A-Za-z_$][\w$]*(\[[^\]]+\])?)*$/.test(path)) return false;
  if (!fieldPaths(def).has(rulePathOf(path))) return false;
  // Each `[KEY]` must follow a list the kind matches by key.
  const entries = [...path.matchAll(/\[[^\]]+\]/g)];
  return entries.every((m) => {
    const list = rulePathOf(path.slice(0, m.index));
    return def.keyed[list] !== undefined;
  });
}
