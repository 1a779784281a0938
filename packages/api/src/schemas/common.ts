import { z } from '../zod.js';

/** Data-center locations a check group can run in. */
export const LOCATIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'sa-east-1',
  'eu-west-1',
  'eu-central-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'me-south-1',
  'ap-southeast-1',
  'ap-northeast-1',
  'ap-east-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'af-south-1',
] as const;
export const locationSchema = z.enum(LOCATIONS);
export type Location = z.infer<typeof locationSchema>;

export const RUNTIME_IDS = [
  '2026.04',
  '2025.04',
  '2024.09',
  '2024.02',
  '2023.09',
  '2023.02',
  '2022.10',
] as const;
export const runtimeIdSchema = z.enum(RUNTIME_IDS);
export type RuntimeId = z.infer<typeof runtimeIdSchema>;

export const CHECK_TYPES = [
  'AGENTIC',
  'API',
  'BROWSER',
  'HEARTBEAT',
  'ICMP',
  'MULTI_STEP',
  'TCP',
  'PLAYWRIGHT',
  'URL',
  'DNS',
] as const;
export const checkTypeSchema = z.enum(CHECK_TYPES);
export type CheckType = z.infer<typeof checkTypeSchema>;

/** Check types a check session can hold: every check type but HEARTBEAT. */
export const CHECK_SESSION_CHECK_TYPES = CHECK_TYPES.filter((t) => t !== 'HEARTBEAT') as Exclude<
  CheckType,
  'HEARTBEAT'
>[];
export const checkSessionCheckTypeSchema = z.enum(CHECK_SESSION_CHECK_TYPES);

export const CHECK_SESSION_STATUSES = [
  'STARTED',
  'PROGRESS',
  'FAILED',
  'PASSED',
  'DEGRADED',
  'PROGRESS_FAILED',
  'PROGRESS_DEGRADED',
  'TIMED_OUT',
  'CANCELLED',
] as const;
export const checkSessionStatusSchema = z.enum(CHECK_SESSION_STATUSES);
export type CheckSessionStatus = z.infer<typeof checkSessionStatusSchema>;
/** Statuses after which a check session no longer changes. */
export const FINAL_CHECK_SESSION_STATUSES: readonly CheckSessionStatus[] = [
  'PASSED',
  'FAILED',
  'DEGRADED',
  'TIMED_OUT',
  'CANCELLED',
];

export const TRIGGER_SOURCES = [
  'CLI_DEPLOY',
  'DEPLOYMENT',
  'DEPLOYMENT_CACHE_WARMER',
  'EDITOR',
  'GROUP_RUN_ALL',
  'LEGACY_TRIGGER',
  'SCHEDULER',
  'SCHEDULE_NOW',
  'SLACK_RERUN',
  'TEST_NO_RECORD',
  'TEST_RECORD',
  'TRIGGER_NO_RECORD',
  'TRIGGER_RECORD',
  'TRIGGER_API',
] as const;
export const triggerSourceSchema = z.enum(TRIGGER_SOURCES);

export const BASE_METRICS = [
  'responseTime',
  'wait',
  'dns',
  'tcp',
  'firstByte',
  'download',
  'availability',
  'retries',
] as const;
export const AGGREGATED_METRIC_BASES = [
  'responseTime',
  'wait',
  'dns',
  'tcp',
  'firstByte',
  'download',
] as const;
export const METRIC_AGGREGATES = [
  'avg',
  'max',
  'median',
  'min',
  'p50',
  'p90',
  'p95',
  'p99',
  'stddev',
  'sum',
] as const;
type AggregatedMetric = `${(typeof AGGREGATED_METRIC_BASES)[number]}_${(typeof METRIC_AGGREGATES)[number]}`;
export type MetricName = (typeof BASE_METRICS)[number] | AggregatedMetric;
/** Every metric name: the base metrics and each `<base>_<aggregate>` form. */
export const METRIC_NAMES: readonly MetricName[] = [
  ...BASE_METRICS,
  ...AGGREGATED_METRIC_BASES.flatMap((base) =>
    METRIC_AGGREGATES.map((agg) => `${base}_${agg}` as AggregatedMetric),
  ),
];
export const metricNameSchema = z.enum(METRIC_NAMES as [MetricName, ...MetricName[]]);

export const QUICK_RANGES = [
  'last24Hours',
  'last7Days',
  'last30Days',
  'thisWeek',
  'thisMonth',
  'lastWeek',
  'lastMonth',
] as const;
export const quickRangeSchema = z.enum(QUICK_RANGES);
export type QuickRange = z.infer<typeof quickRangeSchema>;
/** The analytics summary accepts fewer quick ranges than the per-check analytics. */
export const SUMMARY_QUICK_RANGES = [
  'last24Hours',
  'last7Days',
  'thisWeek',
  'lastWeek',
  'lastMonth',
] as const;
export const summaryQuickRangeSchema = z.enum(SUMMARY_QUICK_RANGES);

export const ALERT_CHANNEL_TYPES = [
  'EMAIL',
  'SLACK',
  'SLACK_APP',
  'WEBHOOK',
  'SMS',
  'PAGERDUTY',
  'OPSGENIE',
  'CALL',
] as const;
export const alertChannelTypeSchema = z.enum(ALERT_CHANNEL_TYPES);
export type AlertChannelType = z.infer<typeof alertChannelTypeSchema>;

export const INCIDENT_IMPACTS = ['MAINTENANCE', 'MAJOR', 'MINOR'] as const;
export const incidentImpactSchema = z.enum(INCIDENT_IMPACTS);
export const INCIDENT_SEVERITIES = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'] as const;
export const incidentSeveritySchema = z.enum(INCIDENT_SEVERITIES);
export const INCIDENT_STATUSES = ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] as const;
export const incidentStatusSchema = z.enum(INCIDENT_STATUSES);

export const REPEAT_UNITS = ['DAY', 'WEEK', 'MONTH'] as const;
export const repeatUnitSchema = z.enum(REPEAT_UNITS);
export const THEMES = ['LIGHT', 'DARK', 'AUTO'] as const;
export const themeSchema = z.enum(THEMES);
export const DASHBOARD_WIDTHS = ['FULL', '960PX'] as const;
export const dashboardWidthSchema = z.enum(DASHBOARD_WIDTHS);
export const REFRESH_RATES = [60, 300, 600] as const;
export const refreshRateSchema = z.union(REFRESH_RATES.map((n) => z.literal(n)));
export const PAGINATION_RATES = [30, 60, 300] as const;
export const paginationRateSchema = z.union(PAGINATION_RATES.map((n) => z.literal(n)));
export const RCA_STATUSES = ['PENDING', 'COMPLETED'] as const;
export const rcaStatusSchema = z.enum(RCA_STATUSES);
export const RESULT_TYPES = ['FINAL', 'ATTEMPT'] as const;
export const resultTypeSchema = z.enum(RESULT_TYPES);

/** `date` fields: the real service sends ISO dates or full date-times; both are accepted. */
export const isoDateSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: (issue) =>
    `must be an ISO 8601 date or date-time, e.g. 2026-12-01T10:00:00Z, got ${JSON.stringify(issue.input)}`,
});

const timeZones = new Map<string, boolean>();

/**
 * Whether `zone` is a time zone the runtime knows by its IANA name (`Europe/Amsterdam`). Asked of
 * `Intl` once per zone: making a formatter costs tens of microseconds, and projects reuse a few zones.
 */
export function isIanaTimeZone(zone: string): boolean {
  let known = timeZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    timeZones.set(zone, known);
  }
  return known;
}

/**
 * A URL that monitor sends to or that the service puts on a page (a webhook, a logo, a redirect):
 * http or https only, never `javascript:` or `ftp:`.
 */
export const httpUrlSchema = z.url({
  protocol: /^https?$/,
  error: (issue) => `must be an http(s) URL, got ${JSON.stringify(issue.input)}`,
});
/** `date-time` fields: ISO 8601 with a zone. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

export const uuidSchema = z.uuid();
/** Integer ids (check group, maintenance window, alert channel, dashboard `id`). */
export const intIdSchema = z.number().int().positive();

/** Query of page-based lists: `limit` 1–100 (default 10), `page` default 1 (`0` reads as 1). */
export const pageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(0).optional(),
});
/** Query of cursor-based lists: `limit` 1–100 (default 20), `nextId` an opaque cursor. */
export const cursorQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  nextId: z.string().min(1).optional(),
});

/** Body of a cursor-based list page. */
export function cursorPageSchema<T extends z.ZodType>(entry: T) {
  return z.looseObject({
    length: z.number().int().min(0),
    entries: z.array(entry),
    nextId: z.string().nullable(),
  });
}

export const keyValueSchema = z.strictObject({ key: z.string(), value: z.string() });

/** Query booleans travel as the strings `true`/`false`. */
export const queryBooleanSchema = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((v) => v === 'true'),
]);

/**
 * PUT bodies: `null` for an array field is accepted and ignored by the service (addendum §3),
 * so those fields also take null.
 */
export function nullableArrays<S extends Record<string, z.ZodType>, const K extends keyof S>(
  shape: S,
  keys: readonly K[],
): { [P in K]: z.ZodNullable<S[P]> } {
  const out: Record<string, z.ZodType> = {};
  for (const key of keys) out[key as string] = (shape[key] as z.ZodType).nullable();
  return out as { [P in K]: z.ZodNullable<S[P]> };
}

/** Make every field optional except the named ones. */
export function optionalAll<S extends Record<string, z.ZodType>, K extends keyof S>(
  shape: S,
  required: readonly K[],
): { [P in Exclude<keyof S, K>]: z.ZodOptional<S[P]> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (!required.includes(key as K)) out[key] = schema.optional();
  }
  return out as { [P in Exclude<keyof S, K>]: z.ZodOptional<S[P]> };
}
