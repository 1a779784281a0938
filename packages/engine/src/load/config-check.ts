import { isRoutingTest } from '@monitor/constructs';
import type { ConfigInput } from './config-schema.js';

/**
 * Whether a config's default export is valid, without the schema: most configs hold a name,
 * patterns, defaults, policies, their severities and routing tests, and those are checked here.
 * Anything else (state, api, environments, rate limits), and anything this check is not sure of
 * (a hole in a list, a key that is a symbol or not enumerable, an object that is not plain), goes
 * to the schema (config-schema.ts), which loads zod (~25 ms of a warm `monitor validate`) and
 * says what is wrong. It only says yes where the schema would: config-check.test.ts holds the two
 * together over random configs.
 */
export function isPlainlyValid(value: unknown): value is ConfigInput {
  if (!isPlainRecord(value)) return false;
  for (const key of Object.keys(value))
    if (!FIELD_CHECKS.has(key) && !LEFT_TO_THE_SCHEMA.has(key)) return false;
  // Read as the schema reads them: by name, whatever the keys list says.
  for (const key of LEFT_TO_THE_SCHEMA) if (value[key] !== undefined) return false;
  if (!nonEmptyString(value.projectName)) return false;
  for (const [key, check] of FIELD_CHECKS) {
    const field = value[key];
    if (field !== undefined && !check(field)) return false;
  }
  return true;
}

const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);
const DEFAULTS_KINDS = new Set([
  'CheckGroup',
  'Dashboard',
  'StatusPage',
  'MaintenanceWindow',
  'AlertChannel',
]);

/** The fields checked here, each when it is not undefined. */
const FIELD_CHECKS = new Map<string, (field: unknown) => boolean>([
  ['projectName', nonEmptyString],
  ['include', patterns],
  ['exclude', patterns],
  [
    'defaults',
    (field) =>
      isPlainRecord(field) &&
      Object.entries(field).every(
        ([kind, d]) => DEFAULTS_KINDS.has(kind) && (d === undefined || isPlainRecord(d)),
      ),
  ],
  ['policies', isDenseArray],
  [
    'policySeverity',
    (field) =>
      isPlainRecord(field) && Object.values(field).every((s) => typeof s === 'string' && SEVERITIES.has(s)),
  ],
  ['policyTimeoutSeconds', (field) => typeof field === 'number' && field > 0 && field <= 3600],
  ['routingTests', (field) => isDenseArray(field) && field.every(isRoutingTest)],
]);

/** The config's other fields: a config with any of them set is the schema's to judge. */
const LEFT_TO_THE_SCHEMA = new Set(['state', 'api', 'environments', 'rateLimit']);

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

/** A pattern, or a list of at least one. */
function patterns(value: unknown): boolean {
  return nonEmptyString(value) || (isDenseArray(value) && value.length > 0 && value.every(nonEmptyString));
}

/** An array without holes (`every` would skip them; the schema reads each as undefined). */
function isDenseArray(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
  for (let i = 0; i < value.length; i++) if (!Object.hasOwn(value, i)) return false;
  return true;
}

/** A plain object whose keys are all enumerable strings: what every reader of it sees alike. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Reflect.ownKeys(value).every(
    (key) => typeof key === 'string' && Object.prototype.propertyIsEnumerable.call(value, key),
  );
}
