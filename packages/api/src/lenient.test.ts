import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.js';
import { firstIssues, inSchemaOrder, lenient, readsAsSent } from './lenient.js';
import { checkGroupSchema } from './schemas/check-groups.js';
import { dashboardSchema } from './schemas/dashboards.js';
import * as f from './test-support/fixtures.js';
import { z } from './zod.js';

describe('readsAsSent', () => {
  it.each([
    ['a string', z.string(), true],
    ['a number with a range', z.number().int().min(1), true],
    ['a literal', z.literal('x'), true],
    ['an enum', z.enum(['a', 'b']), true],
    ['a loose object of those', z.looseObject({ a: z.string(), b: z.number().optional() }), true],
    [
      'arrays, records, unions, nullables',
      z.array(z.record(z.string(), z.union([z.string(), z.null()]))),
      true,
    ],
    ['an object that drops unknown keys', z.object({ a: z.string() }), false],
    ['a strict object', z.strictObject({ a: z.string() }), false],
    ['a default', z.looseObject({ a: z.string().default('x') }), false],
    ['a transform', z.array(z.string().transform((s) => s.trim())), false],
    ['a preprocess', z.preprocess((v) => v, z.string()), false],
    ['a catch', z.string().catch('x'), false],
    ['a lazy schema', z.lazy(() => z.string()), false],
    ['a tuple (not walked: always checked)', z.tuple([z.string()]), false],
    ['a string that is trimmed', z.string().trim(), false],
    ['a lower-cased string in a union', z.union([z.string().toLowerCase(), z.number()]), false],
    ['a coerced boolean', z.coerce.boolean(), false],
    ['a record keyed by an enum', z.record(z.enum(['a', 'b']), z.string()), false],
    ['a string with a length check', z.string().min(1).max(5), true],
  ])('%s: %s', (_name, schema, expected) => {
    expect(readsAsSent(schema)).toBe(expected);
  });

  it('holds for every response of the API, read leniently: each is used as it was parsed', () => {
    const notAsSent = Object.entries(endpoints)
      .filter(([, e]) => e.response !== null && !readsAsSent(lenient(e.response)))
      .map(([name]) => name);
    expect(notAsSent).toEqual([]);
  });

  it('means what it says: a schema that reads as sent gives back what it was given, unknown keys and all', () => {
    const bodies: [z.ZodType, unknown][] = [
      [checkGroupSchema, { extra: { nested: [1] }, ...f.checkGroup, tags: ['b', 'a'] }],
      [dashboardSchema, { ...f.dashboard, id: 0, later: 'field' }],
    ];
    for (const [schema, body] of bodies) {
      const read = lenient(schema);
      expect(readsAsSent(read)).toBe(true);
      expect(read.parse(body)).toEqual(body);
    }
  });
});

/** Every object's keys, depth first: what tells two orders apart. */
function keyOrder(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(keyOrder);
  return Object.entries(value).flatMap(([k, v]) => [k, ...keyOrder(v)]);
}

describe('inSchemaOrder', () => {
  const schema = z.looseObject({
    name: z.string(),
    env: z.array(z.looseObject({ key: z.string(), value: z.string(), secret: z.boolean().optional() })),
    channel: z
      .union([
        z.looseObject({ type: z.literal('EMAIL'), address: z.string() }),
        z.looseObject({ type: z.literal('SLACK'), url: z.string(), channel: z.string() }),
      ])
      .nullable(),
    labels: z.record(z.string(), z.looseObject({ a: z.number(), b: z.number() })),
  });

  it('orders each object as the schema declares it, unknown keys after, values untouched', () => {
    const sent = {
      later: 1,
      labels: { x: { b: 2, a: 1 } },
      channel: { channel: '#ops', url: 'https://hooks.example', type: 'SLACK' },
      env: [{ secret: true, value: 'v', key: 'K', extra: 0 }],
      name: 'n',
    };
    const ordered = inSchemaOrder(schema, sent);
    expect(ordered).toEqual(sent);
    expect(keyOrder(ordered)).toEqual([
      'name',
      'env',
      'key',
      'value',
      'secret',
      'extra',
      'channel',
      'type',
      'url',
      'channel',
      'labels',
      'x',
      'a',
      'b',
      'later',
    ]);
    // The order the check gives a body the schema accepts.
    expect(keyOrder(ordered)).toEqual(keyOrder(schema.parse(sent)));
  });

  it('keeps keys that objects inherit a name of', () => {
    const sent = JSON.parse('{"toString":"t","constructor":1,"name":"n","__proto__":{"x":1}}') as object;
    const ordered = inSchemaOrder(z.looseObject({ name: z.string(), constructor: z.number() }), sent);
    expect(Object.keys(ordered as object)).toEqual(['name', 'constructor', 'toString', '__proto__']);
  });

  it('keeps the order of what does not fit, and never throws', () => {
    for (const odd of [null, 'text', 7, [1, 2], { env: 'not a list', channel: { type: 'PAGER' } }]) {
      expect(inSchemaOrder(schema, odd)).toEqual(odd);
    }
    const unmatched = { channel: { z: 1, type: 'PAGER', a: 2 } };
    expect(keyOrder(inSchemaOrder(schema, unmatched))).toEqual(['channel', 'z', 'type', 'a']);
  });

  it('gives a live resource the order of its kind’s schema, as a check would have', () => {
    const { apiCheckDefaults, ...rest } = f.checkGroup as Record<string, unknown>;
    const sent = { zLast: true, apiCheckDefaults, ...rest };
    const read = lenient(checkGroupSchema);
    expect(keyOrder(inSchemaOrder(read, sent))).toEqual(keyOrder(read.parse(sent)));
    expect(keyOrder(inSchemaOrder(read, sent))).not.toEqual(keyOrder(sent));
  });
});

describe('firstIssues', () => {
  const groups = lenient(endpoints.checkGroupsList.response);
  /** zod's own issues, as firstIssues gives them. */
  const zodIssues = (schema: z.ZodType, value: unknown) =>
    (schema.safeParse(value).error?.issues ?? []).map((i) => ({ path: i.path, message: i.message }));

  it.each([
    ['a field of the wrong type', [{ ...f.checkGroup, concurrency: 'three' }]],
    ['a required field missing', [f.checkGroup, { ...f.checkGroup, name: undefined }]],
    [
      'a nested list element of the wrong kind',
      [{ ...f.checkGroup, environmentVariables: [{ key: 1 }, 'x'] }],
    ],
    ['an object where the list should be', { items: [] }],
    ['a list of the wrong kinds', [1, null, 'x', []]],
  ])('%s: the issues zod gives, found without its whole list', (_name, value) => {
    const found = firstIssues(groups, value);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(zodIssues(groups, value).slice(0, 20));
  });

  it('stops at 20 (or as asked), however many elements fail', () => {
    const hostile = Array.from({ length: 200_000 }, () => ({}));
    const found = firstIssues(groups, hostile);
    expect(found).toHaveLength(20);
    expect(found[0]).toEqual({
      path: [0, 'id'],
      message: 'Invalid input: expected number, received undefined',
    });
    expect(firstIssues(groups, hostile, 3)).toHaveLength(3);
  });

  it('walks into the union option whose literals match, and names a value that matches none', () => {
    // A retry strategy is an object with a type, or 'FALLBACK'.
    expect(firstIssues(groups, [{ ...f.checkGroup, retryStrategy: {} }])).toEqual([
      { path: [0, 'retryStrategy', 'type'], message: 'Invalid input: expected string, received undefined' },
    ]);
    const union = z.union([
      z.looseObject({ type: z.literal('A'), a: z.array(z.number()) }),
      z.looseObject({ type: z.literal('B') }),
    ]);
    expect(firstIssues(union, { type: 'A', a: Array.from({ length: 100_000 }, () => 'x') })).toHaveLength(20);
    expect(firstIssues(union, { type: 'C' })).toEqual([
      { path: [], message: 'Invalid input: matches none of the expected shapes' },
    ]);
  });
});
