import { z } from '../zod.js';
import {
  intIdSchema,
  isoDateSchema,
  isoDateTimeSchema,
  keyValueSchema,
  locationSchema,
  nullableArrays,
  optionalAll,
  runtimeIdSchema,
} from './common.js';
import { withDefault, withFieldDefaults } from './field-default.js';
import { responseSchema } from './response.js';

export const ASSERTION_SOURCES = [
  'STATUS_CODE',
  'JSON_BODY',
  'HEADERS',
  'TEXT_BODY',
  'RESPONSE_TIME',
] as const;
export const ASSERTION_COMPARISONS = [
  'EQUALS',
  'NOT_EQUALS',
  'HAS_KEY',
  'NOT_HAS_KEY',
  'HAS_VALUE',
  'NOT_HAS_VALUE',
  'IS_EMPTY',
  'NOT_EMPTY',
  'IS_NULL',
  'NOT_NULL',
  'GREATER_THAN',
  'LESS_THAN',
  'CONTAINS',
  'NOT_CONTAINS',
] as const;

export const assertionSchema = z.strictObject({
  source: z.enum(ASSERTION_SOURCES),
  comparison: z.enum(ASSERTION_COMPARISONS),
  target: z.string(),
  property: z.string().optional(),
  regex: z.string().optional(),
});

/** A group's `apiCheckDefaults`: fields left out of a sent object take their defaults. */
export const apiCheckDefaultsSchema = z.strictObject({
  url: withDefault(z.string(), '').optional(),
  headers: withDefault(z.array(keyValueSchema), []).optional(),
  queryParameters: withDefault(z.array(keyValueSchema), []).optional(),
  assertions: withDefault(z.array(assertionSchema), []).optional(),
  basicAuth: withDefault(z.strictObject({ username: z.string(), password: z.string() }), {
    username: '',
    password: '',
  }).optional(),
});
export type ApiCheckDefaults = z.infer<typeof apiCheckDefaultsSchema>;

export const ESCALATION_TYPES = ['RUN_BASED', 'TIME_BASED'] as const;
export const MINUTES_FAILING_THRESHOLDS = [5, 10, 15, 30] as const;
export const REMINDER_INTERVALS = [1, 2, 3, 4, 5, 10, 15, 30] as const;

export const alertSettingsSchema = z.strictObject({
  escalationType: withDefault(z.enum(ESCALATION_TYPES), 'RUN_BASED').optional(),
  runBasedEscalation: withDefault(z.strictObject({ failedRunThreshold: z.number().int().min(1).max(5) }), {
    failedRunThreshold: 1,
  }).optional(),
  timeBasedEscalation: withDefault(
    z.strictObject({
      minutesFailingThreshold: z.union(MINUTES_FAILING_THRESHOLDS.map((n) => z.literal(n))),
    }),
    { minutesFailingThreshold: 5 },
  ).optional(),
  reminders: withDefault(
    z.strictObject({
      amount: z.union([z.number().int().min(0).max(5), z.literal(100000)]),
      interval: z.union(REMINDER_INTERVALS.map((n) => z.literal(n))),
    }),
    { amount: 0, interval: 5 },
  ).optional(),
  parallelRunFailureThreshold: withDefault(
    z.strictObject({
      enabled: z.boolean(),
      percentage: z
        .number()
        .int()
        .min(10)
        .max(100)
        .refine((n) => n % 10 === 0, 'must be a multiple of 10'),
    }),
    { enabled: false, percentage: 10 },
  ).optional(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const RETRY_STRATEGY_TYPES = ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'] as const;
export const retryStrategyObjectSchema = z.strictObject({
  type: z.enum(RETRY_STRATEGY_TYPES),
  baseBackoffSeconds: withDefault(z.number().int().min(0), 60).optional(),
  sameRegion: withDefault(z.boolean(), true).optional(),
  maxRetries: z.number().int().min(1).max(10).optional(),
  maxDurationSeconds: z.number().int().min(0).max(600).optional(),
  onlyOn: z.array(z.literal('NETWORK_ERROR')).optional(),
});
/** A retry strategy: an object, or the literal `FALLBACK` (the default). */
export const retryStrategySchema = z.union([retryStrategyObjectSchema, z.literal('FALLBACK')]);
export type RetryStrategy = z.infer<typeof retryStrategySchema>;

export const environmentVariableSchema = z.strictObject({
  key: z.string().min(1),
  value: z.string(),
  locked: withDefault(z.boolean(), false).optional(),
  secret: withDefault(z.boolean(), false).optional(),
});
export type EnvironmentVariable = z.infer<typeof environmentVariableSchema>;

export const checkGroupAlertChannelSubscriptionSchema = z.strictObject({
  alertChannelId: intIdSchema,
  activated: withDefault(z.boolean(), true).optional(),
});

/** Fields a client may send when creating or updating a check group. */
const checkGroupFields = {
  name: z.string().min(1),
  activated: withDefault(z.boolean(), true),
  muted: withDefault(z.boolean(), false),
  tags: withDefault(z.array(z.string()), []),
  locations: withDefault(z.array(locationSchema), []),
  concurrency: withDefault(z.number().int().min(1), 3),
  apiCheckDefaults: withFieldDefaults(apiCheckDefaultsSchema),
  browserCheckDefaults: z.string(),
  runtimeId: withDefault(runtimeIdSchema.nullable(), null),
  environmentVariables: withDefault(z.array(environmentVariableSchema).max(100).nullable(), []),
  alertChannelSubscriptions: withDefault(z.array(checkGroupAlertChannelSubscriptionSchema), []),
  setupSnippetId: withDefault(z.number().int().nullable(), null),
  tearDownSnippetId: withDefault(z.number().int().nullable(), null),
  localSetupScript: withDefault(z.string().nullable(), null),
  localTearDownScript: withDefault(z.string().nullable(), null),
  privateLocations: withDefault(z.array(z.string()).nullable(), []),
  runParallel: withDefault(z.boolean().nullable(), false),
  alertSettings: withFieldDefaults(alertSettingsSchema.nullable()),
  retryStrategy: withDefault(retryStrategySchema.nullable(), 'FALLBACK'),
  useGlobalAlertSettings: withDefault(z.boolean().nullable(), null),
  /** Superseded by `retryStrategy` (seed, Versioning). */
  doubleCheck: withDefault(z.boolean().meta({ deprecated: true }), false),
};

/** Request body of `POST /v2/check-groups`: only `name` is required. */
export const checkGroupCreateSchema = z.strictObject({
  ...checkGroupFields,
  ...optionalAll(checkGroupFields, ['name']),
});
export type CheckGroupCreate = z.input<typeof checkGroupCreateSchema>;
/** Request body of `PUT /v2/check-groups/{id}`: a partial update, `name` still required; null arrays are ignored. */
export const checkGroupUpdateSchema = z.strictObject({
  ...checkGroupFields,
  ...optionalAll(
    {
      ...checkGroupFields,
      ...nullableArrays(checkGroupFields, ['tags', 'locations', 'alertChannelSubscriptions']),
    },
    ['name'],
  ),
});
export type CheckGroupUpdate = z.input<typeof checkGroupUpdateSchema>;

/** A check group as the service returns it: the request fields, read tolerantly, and its ids. */
export const checkGroupSchema = responseSchema(checkGroupFields, {
  server: { id: intIdSchema, created_at: isoDateSchema, updated_at: isoDateTimeSchema.nullable().optional() },
  required: ['name', 'activated', 'concurrency', 'apiCheckDefaults'],
  // Shapes the spec does not show in full: read as whatever object (or value) the service sends.
  answered: {
    browserCheckDefaults: z.unknown().optional(),
    alertSettings: z.looseObject({}).nullable().optional(),
    retryStrategy: z
      .union([z.looseObject({ type: z.string() }), z.literal('FALLBACK')])
      .nullable()
      .optional(),
  },
});
export type CheckGroup = z.infer<typeof checkGroupSchema>;

export const checkGroupListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(0).optional(),
  /** any of these tags */
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  /** exact name, any of */
  name: z.union([z.string(), z.array(z.string())]).optional(),
});
