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
  /** A literal's values. */
  values?: unknown[];
  /** `z.coerce.*`: the input is converted. */
  coerce?: boolean;
  /** Refinements and overwrites (`.trim()`, `.toLowerCase()`: the value is rewritten). */
  checks?: { _zod: { def: { check: string } } }[];
}

/** A schema's definition, as zod 4 keeps it. */
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `z.string()` or `z.number()` when every option is a literal of that type. */
function literalType(options: z.ZodType[]): z.ZodType | undefined {
  const values = options.flatMap((o) => {
    const def = defOf(o);
    return def.type === 'literal' ? (def.values ?? []) : [Symbol()];
  });
  if (values.length === 0) return undefined;
  if (values.every((v) => typeof v === 'string')) return z.string();
  if (values.every((v) => typeof v === 'number')) return z.number();
  return undefined;
}

function build(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
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

/**
 * Whether every value `schema` accepts comes out of it as it went in, up to the order of object
 * keys: no default, transform, pipe or catch, and no object that drops the keys it does not know.
 * Then a response body known to pass the schema can be used as JSON parsed it, without the check.
 */
export function readsAsSent(schema: z.ZodType): boolean {
  const known = asSent.get(schema);
  if (known !== undefined) return known;
  asSent.set(schema, false); // a schema that contains itself is not walked twice
  const def = defOf(schema);
  let result: boolean;
  const rewrites = def.coerce === true || (def.checks ?? []).some((c) => c._zod.def.check === 'overwrite');
  switch (rewrites ? 'rewrites' : def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
    case 'unknown':
    case 'any':
      result = true;
      break;
    case 'optional':
    case 'nullable':
      result = readsAsSent(def.innerType as z.ZodType);
      break;
    case 'array':
      result = readsAsSent(def.element as z.ZodType);
      break;
    case 'record': {
      // Keys of an enum (or literals) are written by the schema, in its order, absent ones too.
      const keyValues = (def.keyType as unknown as { _zod: { values?: unknown } } | undefined)?._zod.values;
      result =
        keyValues === undefined &&
        readsAsSent(def.keyType as z.ZodType) &&
        readsAsSent(def.valueType as z.ZodType);
      break;
    }
    case 'union':
      result = (def.options ?? []).every(readsAsSent);
      break;
    case 'object':
      // A plain object drops unknown keys; a loose one keeps them, as they came.
      result =
        def.catchall !== undefined &&
        readsAsSent(def.catchall) &&
        Object.values(def.shape ?? {}).every(readsAsSent);
      break;
    default:
      result = false;
  }
  asSent.set(schema, result);
  return result;
}

const asSent = new WeakMap<z.ZodType, boolean>();

/**
 * `value` with the keys of each object in the order `schema` declares them, then any others as
 * they were: what the check of a schema that reads as sent would have ordered them. Never drops,
 * adds or changes a value, and never throws: a value that does not fit the schema keeps its order.
 * A union takes the first object option whose literal fields (a `type`, say) the value matches.
 */
export function inSchemaOrder(schema: z.ZodType, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return inSchemaOrder(def.innerType as z.ZodType, value);
    case 'array':
      return Array.isArray(value) ? value.map((v) => inSchemaOrder(def.element as z.ZodType, v)) : value;
    case 'record':
      if (Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, inSchemaOrder(def.valueType as z.ZodType, v)]),
      );
    case 'union': {
      const option = (def.options ?? []).find((o) => literalsMatch(o, value));
      return option === undefined ? value : inSchemaOrder(option, value);
    }
    case 'object': {
      if (Array.isArray(value)) return value;
      const shape = def.shape ?? {};
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(shape))
        if (Object.hasOwn(record, k)) put(out, k, inSchemaOrder(field, record[k]));
      for (const [k, v] of Object.entries(record)) if (!Object.hasOwn(out, k)) put(out, k, v);
      return out;
    }
    default:
      return value;
  }
}

/** Set an own key, `__proto__` too (JSON.parse makes it one; an assignment would set the prototype). */
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** Whether `schema` is an object schema whose literal fields `value` has. */
function literalsMatch(schema: z.ZodType, value: object): boolean {
  const def = defOf(schema);
  if (def.type !== 'object' || Array.isArray(value)) return false;
  return Object.entries(def.shape ?? {}).every(([k, field]) => {
    const fieldDef = defOf(field);
    return (
      fieldDef.type !== 'literal' || (fieldDef.values ?? []).includes((value as Record<string, unknown>)[k])
    );
  });
}

/** One problem of a value against a schema: where, and zod's message. */
export interface ReadIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The first `max` problems of `value`, which `schema` rejects, without zod's list of every one:
 * zod checks every element of an array and keeps every issue, and a body of a few MB such as
 * `[{},{},…]` makes millions of them (4 MiB took 4.5 GB and ended out of memory). This walks down
 * to the failing values, asking each child whether it passes (`validate`, which stops at the first
 * problem), and takes zod's own issues only for values it checks without walking their contents:
 * scalars, and containers of the wrong kind. The messages are the ones zod gives for them.
 */
export function firstIssues(schema: z.ZodType, value: unknown, max = 20): ReadIssue[] {
  const out: ReadIssue[] = [];
  walkIssues(schema, value, [], out, max);
  if (out.length === 0) out.push({ path: [], message: 'Invalid input' });
  return out;
}

function walkIssues(schema: z.ZodType, value: unknown, path: PropertyKey[], out: ReadIssue[], max: number) {
  const def = defOf(schema);
  const inner = def.innerType as z.ZodType;
  const descend = (child: z.ZodType, v: unknown, key: PropertyKey) => {
    if (out.length < max && !child.validate(v)) walkIssues(child, v, [...path, key], out, max);
  };
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const before = out.length;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      if (value !== undefined) walkIssues(inner, value, path, out, max);
      return;
    case 'nullable':
      if (value !== null) walkIssues(inner, value, path, out, max);
      return;
    case 'readonly':
      walkIssues(inner, value, path, out, max);
      return;
    case 'array':
      if (!Array.isArray(value)) break;
      for (let i = 0; i < value.length && out.length < max; i++)
        descend(def.element as z.ZodType, value[i], i);
      if (out.length === before) out.push({ path, message: 'Invalid input' });
      return;
    case 'object':
      if (!isObject) break;
      for (const [key, field] of Object.entries(def.shape ?? {}))
        descend(field, (value as Record<string, unknown>)[key], key);
      if (out.length === before) out.push({ path, message: 'Invalid input' });
      return;
    case 'record':
      if (!isObject) break;
      for (const [key, v] of Object.entries(value as object)) descend(def.valueType as z.ZodType, v, key);
      // Keys a record must have (an enum's) are all missing ones: a few, each one issue.
      if (out.length === before) take(schema, value, path, out, max);
      return;
    case 'union': {
      if (value === null || typeof value !== 'object') break;
      const option = (def.options ?? []).find((o) => literalsMatch(o, value));
      if (option === undefined)
        out.push({ path, message: 'Invalid input: matches none of the expected shapes' });
      else walkIssues(option, value, path, out, max);
      return;
    }
  }
  // A scalar, or a value of the wrong kind for its container: zod looks no further than its kind.
  if (value === null || typeof value !== 'object' || ['array', 'object', 'record'].includes(def.type))
    take(schema, value, path, out, max);
  else out.push({ path, message: 'Invalid input' });
}

/** zod's own issues of a value it checks without walking far, under `path`. */
function take(schema: z.ZodType, value: unknown, path: PropertyKey[], out: ReadIssue[], max: number) {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues.slice(0, max - out.length))
    out.push({ path: [...path, ...issue.path], message: issue.message });
}
