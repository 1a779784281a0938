import { isRoutingTest } from '@monitor/constructs';
import type { ConfigInput } from './config-schema.js';

/**
 * Whether a config's default export is valid, without the schema: most configs hold a name,
 * patterns, defaults, policies, their severities and routing tests, and those are checked here.
 * Anything else (state, api, environments, rate limits), and anything this check is not sure of,
 * goes to the schema (config-schema.ts), which loads zod (~25 ms of a warm `monitor validate`)
 * and says what is wrong. It only says yes where the schema would: config-check.test.ts holds
 * the two together over random configs.
 */
export function isPlainlyValid(value: unknown): value is ConfigInput {
  if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
  if (!nonEmptyString(value.projectName)) return false;
  for (const [key, field] of Object.entries(value)) {
    const check = FIELD_CHECKS[key];
    if (check === undefined || (field !== undefined && !check(field))) return false;
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

/** The fields checked here, each when it is not undefined; any other field goes to the schema. */
const FIELD_CHECKS: Record<string, (field: unknown) => boolean> = {
  projectName: nonEmptyString,
  include: patterns,
  exclude: patterns,
  defaults: (field) =>
    isPlainObject(field) &&
    Object.entries(field).every(
      ([kind, d]) => DEFAULTS_KINDS.has(kind) && (d === undefined || isPlainObject(d)),
    ),
  policies: Array.isArray,
  policySeverity: (field) =>
    isPlainObject(field) && Object.values(field).every((s) => typeof s === 'string' && SEVERITIES.has(s)),
  policyTimeoutSeconds: (field) => typeof field === 'number' && field > 0 && field <= 3600,
  routingTests: (field) => Array.isArray(field) && field.every(isRoutingTest),
};

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

/** A pattern, or a list of at least one. */
function patterns(value: unknown): boolean {
  return nonEmptyString(value) || (Array.isArray(value) && value.length > 0 && value.every(nonEmptyString));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
