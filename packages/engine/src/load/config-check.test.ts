import { expectRoutes } from '@monitor/constructs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainlyValid } from './config-check.js';
import { configSchema } from './config-schema.js';

/** Values of each field, right and at its edges: what zod and the plain check must agree on. */
const strings = fc.oneof(fc.constantFrom('', 'a', ' ', 'monitors/**'), fc.string({ maxLength: 3 }));
const records = (keys: string[], values: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...keys), values, { maxKeys: 3 }),
    fc.constantFrom([], new Date(0), Object.create(null), null),
  );
const edges = fc.oneof(
  fc.constantFrom(undefined, null, 0, true, [], {}),
  fc.anything({ maxDepth: 1 }),
  fc.sparseArray(fc.oneof(strings, fc.constant(expectRoutes('api', { failure: [] }))), { maxLength: 3 }),
  fc.constantFrom(
    { [Symbol('s')]: 'off' },
    Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }),
  ),
);
const FIELD_VALUES = {
  projectName: strings,
  include: fc.oneof(strings, fc.array(strings, { maxLength: 3 }), fc.constant([1])),
  exclude: fc.oneof(strings, fc.array(strings, { maxLength: 3 })),
  defaults: records(
    ['CheckGroup', 'Dashboard', 'StatusPage', 'MaintenanceWindow', 'AlertChannel', 'Check'],
    fc.oneof(fc.constantFrom(undefined, null, [], 'x'), fc.object({ maxDepth: 1 })),
  ),
  policies: fc.oneof(fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 2 }), fc.constant({})),
  policySeverity: records(
    ['api-key', 'muted', 'x'],
    fc.constantFrom('error', 'warning', 'info', 'off', 'loud', undefined, 1),
  ),
  policyTimeoutSeconds: fc.oneof(
    fc.constantFrom(0, -1, 1, 0.5, 3600, 3600.5, Number.NaN, Number.POSITIVE_INFINITY, '5'),
    fc.double(),
  ),
  routingTests: fc.constantFrom([], [expectRoutes('api', { failure: [] })], [{ kind: 'routing-test' }], {}),
  state: fc.constantFrom({ backend: 'file' }, {}),
  environments: fc.constantFrom({ prod: {} }, {}),
  rateLimit: fc.constantFrom({ requests: 10, perSeconds: 60 }),
  api: fc.constantFrom({}),
  unknownField: fc.constantFrom(1),
  constructor: fc.constantFrom('x', 1),
  toString: fc.constantFrom('x'),
  hasOwnProperty: fc.constantFrom('x'),
};
const field = (arb: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: arb, weight: 4 }, edges);
const config = fc.record(
  Object.fromEntries(Object.entries(FIELD_VALUES).map(([k, arb]) => [k, field(arb)])),
  { requiredKeys: [] },
);

describe('isPlainlyValid', () => {
  it('says yes only to configs the schema takes', () => {
    fc.assert(
      fc.property(fc.oneof({ arbitrary: config, weight: 9 }, fc.anything()), (value) => {
        if (isPlainlyValid(value)) expect(configSchema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('says yes only where the schema does, one field at a time', () => {
    const oneField = fc.oneof(
      ...Object.entries(FIELD_VALUES).map(([name, arb]) =>
        field(arb).map((value) => ({ projectName: 'shop', [name]: value })),
      ),
    );
    fc.assert(
      fc.property(oneField, (value) => {
        if (isPlainlyValid(value)) expect(configSchema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('vouches for the common configs, so that they load without zod', () => {
    const common = [
      { projectName: 'shop' },
      {
        projectName: 'shop',
        include: ['monitors/**/*.monitor.ts'],
        exclude: 'legacy/**',
        defaults: { CheckGroup: { locations: ['eu-west-1'] } },
        policies: [],
        policySeverity: { 'group-muted-without-comment': 'off' },
        policyTimeoutSeconds: 5,
        routingTests: [expectRoutes('api', { failure: [] })],
      },
    ];
    for (const value of common) {
      expect(isPlainlyValid(value)).toBe(true);
      expect(configSchema.safeParse(value).success).toBe(true);
    }
  });

  it('leaves what it does not check, and what is wrong, to the schema', () => {
    for (const value of [
      { projectName: 'shop', environments: { prod: {} } },
      { projectName: 'shop', state: { backend: 'file' } },
      { projectName: '' },
      { projectName: 'shop', include: [] },
      { projectName: 'shop', policyTimeoutSeconds: Number.NaN },
      { projectName: 'shop', defaults: { Check: {} } },
      { projectName: 'shop', routingTests: [{}] },
      Object.assign(Object.create({ inherited: true }), { projectName: 'shop' }),
      // Holes: every() skips them, the schema reads each as undefined.
      // biome-ignore lint/suspicious/noSparseArray: the hole is the case
      { projectName: 'shop', include: ['a/**', , 'b/**'] },
      // biome-ignore lint/suspicious/noSparseArray: the hole is the case
      { projectName: 'shop', routingTests: [,] },
      // Keys of Object.prototype, symbols, a field that is not enumerable.
      { projectName: 'shop', constructor: 'x' },
      { projectName: 'shop', toString: 'x' },
      { projectName: 'shop', hasOwnProperty: 'x' },
      { projectName: 'shop', policySeverity: { [Symbol('s')]: 'off' } },
      { projectName: 'shop', defaults: { CheckGroup: { [Symbol('s')]: 1 } } },
      Object.defineProperty({ projectName: 'shop' }, 'state', { value: 5, enumerable: false }),
    ]) {
      expect(isPlainlyValid(value)).toBe(false);
    }
  });
});
