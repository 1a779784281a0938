import {
  isSensitive,
  KINDS,
  type KindDefinition,
  type ManagedResource,
  RESOURCE_KINDS,
  type ResourceKind,
} from '@monitor/api';
import type { z } from '@monitor/api/zod';
import fc from 'fast-check';

/**
 * Random accounts for property tests, derived from the kind definitions: request bodies of every
 * managed kind from its create schema, setting any field it takes (nulls included, each optional
 * one there or not), sets and keyed lists without repeats, references as indices into the
 * resources of the kinds made before, every sensitive value marked. A new field of a kind is
 * generated with no edit here; only a value that no schema rule describes needs a `VALUES` entry.
 */

type Body = Record<string, unknown>;

/** A reference in a generated body: the `index`th resource of `kind` made before it. */
export interface IndexRef {
  $index: number;
  kind: ResourceKind;
}

/** Request bodies of each kind, with references as `IndexRef`s. */
export type AccountSpec = Record<ResourceKind, Body[]>;

/**
 * Every sensitive value holds this marker, so that a test can prove that no generated file or
 * output holds one.
 */
export const SECRET_MARKER = 's3cr3t';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'prod', 'eu', 'api', 'web', 'ops');
/** Text as people and tools write it: quotes, backslashes, line ends of both kinds, other scripts, a bidi override. */
const text = fc
  .array(
    fc.constantFrom(
      'Status',
      'of',
      'the',
      'Acme',
      "it's",
      '"quoted"',
      'back\\slash',
      'ü',
      '\n',
      '\r\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal "${x}" that generated code must keep as text
      '${x}',
      'rtl\u202eltr',
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((w) => w.join(' '));
const hour = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 3_600_000).toISOString();

/** Values of fields whose rules no schema check describes (a refinement), by `Kind.path`. */
const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  'MaintenanceWindow.timezone': fc.constantFrom('Europe/Amsterdam', 'America/New_York'),
};

/** Ids the service makes, which a client only ever sends back: never generated. */
const SENT_BACK = new Set(['Dashboard.keys', 'StatusPage.cards[].id', 'StatusPage.cards[].statusPageId']);

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  format?: string;
  checks?: { _zod: { def: CheckDef } }[];
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  pattern?: RegExp;
  format?: string;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (schema: z.ZodType) => (defOf(schema).checks ?? []).map((c) => c._zod.def);

/** Where the walk is: the kind, the rule path (`cards[].services[].id`), and how many of each kind exist to refer to. */
interface At {
  def: KindDefinition;
  path: string;
  counts: Partial<Record<ResourceKind, number>>;
}

const child = (at: At, step: string): At => ({
  ...at,
  path: step === '[]' ? `${at.path}[]` : at.path === '' ? step : `${at.path}.${step}`,
});

/** An arbitrary of the values `schema` takes at `at`; null when none can be made (a reference to a kind with none). */
function arbitrary(schema: z.ZodType, at: At): fc.Arbitrary<unknown> | null {
  const ref = at.def.references.find((r) => r.path === at.path);
  if (ref !== undefined) {
    const n = at.counts[ref.kind] ?? 0;
    return n === 0
      ? null
      : fc.nat({ max: n - 1 }).map((index): IndexRef => ({ $index: index, kind: ref.kind }));
  }
  const given = VALUES[`${at.def.kind}.${at.path}`];
  if (given !== undefined) return given;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return arbitrary(def.innerType as z.ZodType, at);
    case 'nullable': {
      const inner = arbitrary(def.innerType as z.ZodType, at);
      return inner === null ? fc.constant(null) : fc.option(inner, { nil: null });
    }
    case 'object':
      return objectOf(def.shape ?? {}, at);
    case 'array':
      return arrayOf(schema, at);
    case 'union': {
      const options = (def.options ?? []).flatMap((o) => arbitrary(o, at) ?? []);
      return options.length === 0 ? null : fc.oneof(...options);
    }
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return numberOf(schema);
    case 'string':
      return stringOf(schema, at);
    default:
      throw new Error(`no arbitrary for ${at.def.kind} ${at.path}: a ${def.type} schema`);
  }
}

function objectOf(shape: Record<string, z.ZodType>, at: At): fc.Arbitrary<Body> | null {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const inner = child(at, key);
    if (SENT_BACK.has(`${at.def.kind}.${inner.path}`)) continue;
    const optional = defOf(field).type === 'optional';
    const value = arbitrary(field, inner);
    if (value === null) {
      if (optional) continue;
      return null;
    }
    fields[key] = value;
    if (!optional) required.push(key);
  }
  return fc.record(fields, { requiredKeys: required as never[] }) as unknown as fc.Arbitrary<Body>;
}

/** A list: a set without repeats, a keyed list without two items of one key, at most 3 items. */
function arrayOf(schema: z.ZodType, at: At): fc.Arbitrary<unknown[]> | null {
  const checks = checksOf(schema);
  const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const maxLength = Math.min(3, checks.find((c) => c.check === 'max_length')?.maximum ?? 3);
  const element = arbitrary(defOf(schema).element as z.ZodType, child(at, '[]'));
  if (element === null) return minLength > 0 ? null : fc.constant([]);
  const keyField = at.def.keyed[at.path];
  if (keyField !== undefined)
    return fc.uniqueArray(element, {
      minLength,
      maxLength,
      selector: (item) => JSON.stringify((item as Body)[keyField]),
    });
  if (at.def.sets.includes(at.path) || at.def.references.some((r) => r.path === `${at.path}[]`))
    return fc.uniqueArray(element, { minLength, maxLength, selector: (item) => JSON.stringify(item) });
  return fc.array(element, { minLength, maxLength });
}

function numberOf(schema: z.ZodType): fc.Arbitrary<number> {
  const checks = checksOf(schema);
  const min = checks.find((c) => c.check === 'greater_than')?.value ?? 0;
  const max = checks.find((c) => c.check === 'less_than')?.value ?? min + 1000;
  const values = fc.integer({ min, max });
  // A rule no check names (a multiple of 10): only values the schema takes.
  return checks.some((c) => c.check === 'custom')
    ? values.filter((v) => schema.safeParse(v).success)
    : values;
}

function stringOf(schema: z.ZodType, at: At): fc.Arbitrary<string> {
  const def = defOf(schema);
  const checks = checksOf(schema);
  if (checks.some((c) => c.check === 'custom'))
    throw new Error(
      `no arbitrary for ${at.def.kind} ${at.path}: a refined string; give its values in VALUES`,
    );
  switch (def.format) {
    case 'url':
      return word.map((w) => `https://example.com/${w}`);
    case 'email':
      return word.map((w) => `${w}@example.com`);
    case 'datetime':
      return fc.integer({ min: 0, max: 1000 }).map(hour);
    case 'date':
      return fc.integer({ min: 0, max: 40 }).map((n) => hour(n * 24).slice(0, 10));
    case 'uuid':
      return fc.uuid();
  }
  const pattern = checks.find((c) => c.format === 'regex')?.pattern;
  // Keys of keyed lists name their items in diffs (`environmentVariables[TOKEN].value`): words.
  const isKey = Object.entries(at.def.keyed).some(([list, key]) => `${list}[].${key}` === at.path);
  // fast-check matches no /i pattern; what matches it without the flag matches it with.
  const matching = pattern && fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace('i', '')));
  const values = matching || (isKey ? word : text);
  const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = checks.find((c) => c.check === 'max_length')?.maximum ?? Number.POSITIVE_INFINITY;
  return values.filter((v) => v.length >= min && v.length <= max);
}

/** `value` with every reference replaced by what `replace` makes of it. */
export function withRefs(value: unknown, replace: (ref: IndexRef) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withRefs(v, replace));
  if (value === null || typeof value !== 'object') return value;
  if ('$index' in value) return replace(value as IndexRef);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRefs(v, replace)]));
}

/** A sensitive value with the marker in it, in a form its field still takes (a URL stays one). */
const marked = (value: string) =>
  /^https?:\/\//.test(value) ? `${value}/${SECRET_MARKER}` : `${SECRET_MARKER}-${value}"\\ü`;

/** `body` with the marker in every value the kind's definition calls sensitive. */
function markSensitive(def: KindDefinition, body: Body): Body {
  const walk = (value: unknown, rulePath: string, holder: Body): unknown => {
    if (typeof value === 'string') return isSensitive(def, rulePath, holder, body) ? marked(value) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, `${rulePath}[]`, holder));
    if (value === null || typeof value !== 'object') return value;
    const object = value as Body;
    return Object.fromEntries(
      Object.entries(object).map(([k, v]) => [k, walk(v, rulePath === '' ? k : `${rulePath}.${k}`, object)]),
    );
  };
  return walk(body, '', body) as Body;
}

/** A stand-in of the right type for every reference, so that the kind's schema can check the rest. */
const placeholder = (ref: IndexRef) => (KINDS[ref.kind].operations.idType === 'string' ? 'ref' : 1);

/**
 * Request bodies of the kind `def` defines that its create schema takes (rules between fields
 * included), referring to at most `counts` resources of each other kind.
 */
export function requestBodyArb(def: KindDefinition, counts: At['counts'] = {}): fc.Arbitrary<Body> {
  const body = arbitrary(def.createSchema, { def, path: '', counts });
  if (body === null) throw new Error(`no arbitrary for a ${def.kind}`);
  return (body as fc.Arbitrary<Body>)
    .filter((b) => def.createSchema.safeParse(withRefs(b, placeholder)).success)
    .map((b) => markSensitive(def, b));
}

/** A random account: at most 3 resources of every kind, each referring only to kinds made before it. */
export const accountArb: fc.Arbitrary<AccountSpec> = RESOURCE_KINDS.reduce<
  fc.Arbitrary<Partial<AccountSpec>>
>(
  (made, kind) =>
    made.chain((spec) => {
      const counts = Object.fromEntries(Object.entries(spec).map(([k, bodies]) => [k, bodies.length]));
      return fc
        .array(requestBodyArb(KINDS[kind], counts), { maxLength: 3 })
        .map((bodies) => ({ ...spec, [kind]: bodies }));
    }),
  fc.constant({}),
) as fc.Arbitrary<AccountSpec>;

/** What was created: each kind's bodies as sent (references resolved) and the resources the service answered. */
export type Seeded = Record<ResourceKind, { body: Body; live: ManagedResource }[]>;

/**
 * Create the account's resources through `create` (the client's managed kinds), in reference
 * order: references resolved to the ids the service gave, and each value of a field the service
 * keeps unique or finds resources by (names, urls, domains) made unique by `run`.
 */
export async function seedAccount(
  spec: AccountSpec,
  create: (kind: ResourceKind, body: Body) => Promise<ManagedResource>,
  run: string,
): Promise<Seeded> {
  const seeded = Object.fromEntries(RESOURCE_KINDS.map((k) => [k, []])) as unknown as Seeded;
  for (const kind of RESOURCE_KINDS) {
    const def = KINDS[kind];
    const keys = new Set([...def.uniqueKeys, ...(def.naturalKey?.fields ?? [])]);
    const slug = def.noun.replace(/ /g, '-');
    for (const [i, generated] of spec[kind].entries()) {
      const body = withRefs(generated, (ref) => seeded[ref.kind][ref.$index]?.live.id) as Body;
      for (const field of keys)
        if (typeof body[field] === 'string') body[field] = `${slug}-${i + 1}-${field.toLowerCase()}-${run}`;
      seeded[kind].push({ body, live: await create(kind, body) });
    }
  }
  return seeded;
}

/** The value at a diff path (`environmentVariables[API_TOKEN].value`) of a request body. */
export function valueAt(body: unknown, path: string): string {
  let at: unknown = body;
  for (const segment of path.split('.')) {
    const keyed = /^(\w+)\[(.*)\]$/.exec(segment);
    if (keyed === null) at = (at as Record<string, unknown>)[segment];
    else {
      const list = (at as Record<string, unknown>)[keyed[1] as string] as { key: string }[];
      at = list.find((item) => item.key === keyed[2]);
    }
  }
  return at as string;
}

/** What `monitor import --json` answers, as the tests read it. */
export interface ImportJson {
  imported: { kind: ResourceKind; logicalId: string; physicalId: string | number }[];
  secrets: { env: string; kind: ResourceKind; logicalId: string; path: string; masked: boolean }[];
  files: string[];
}

/** The environment variables an import asked for, with the values the account was seeded with. */
export function secretEnv(result: ImportJson, seeded: Seeded): Record<string, string> {
  return Object.fromEntries(
    result.secrets.map((s) => {
      const imported = result.imported.find((r) => r.kind === s.kind && r.logicalId === s.logicalId);
      const created = seeded[s.kind].find((c) => String(c.live.id) === String(imported?.physicalId));
      return [s.env, valueAt(created?.body, s.path)];
    }),
  );
}
