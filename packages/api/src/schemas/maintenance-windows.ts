import { z } from '../zod.js';
import {
  incidentSeveritySchema,
  intIdSchema,
  isIanaTimeZone,
  isoDateSchema,
  nullableArrays,
  optionalAll,
  repeatUnitSchema,
} from './common.js';
import { withDefault, withFieldDefaults } from './field-default.js';
import { responseSchema } from './response.js';

export const statusPageVisibilitySchema = z.strictObject({
  enabled: withDefault(z.boolean(), false).optional(),
  affectAllServices: withDefault(z.boolean(), false).optional(),
  suppressAutoIncidents: withDefault(z.boolean(), false).optional(),
  notifyOnStart: withDefault(z.boolean(), false).optional(),
  notifyOnEnd: withDefault(z.boolean(), false).optional(),
  autoStart: withDefault(z.boolean(), true).optional(),
  autoEnd: withDefault(z.boolean(), true).optional(),
  showAffectedServices: withDefault(z.boolean(), true).optional(),
  severity: withDefault(incidentSeveritySchema.nullable(), null).optional(),
  reminderMinutesBefore: withDefault(z.array(z.number().int().min(60).max(10080)), []).optional(),
  statusPageIds: withDefault(z.array(z.string()), []).optional(),
  serviceIds: withDefault(z.array(z.string()), []).optional(),
});
export type StatusPageVisibility = z.infer<typeof statusPageVisibilitySchema>;

const maintenanceWindowFields = {
  name: z.string().min(1).max(200),
  startsAt: isoDateSchema,
  endsAt: isoDateSchema,
  // Required, but documented: null is a one-off.
  repeatUnit: withDefault(repeatUnitSchema.nullable(), null),
  tags: withDefault(z.array(z.string()), []),
  repeatInterval: withDefault(z.number().int().min(1).max(365).nullable(), null),
  repeatEndsAt: withDefault(isoDateSchema.nullable(), null),
  description: withDefault(z.string().max(2000).nullable(), null),
  statusPageVisibility: withFieldDefaults(statusPageVisibilitySchema),
  pauseAllChecks: withDefault(z.boolean(), false),
  silenceAlertsTags: withDefault(z.array(z.string()), []),
  silenceAllAlerts: withDefault(z.boolean(), false),
  timezone: withDefault(
    z
      .string()
      .min(1)
      .refine(isIanaTimeZone, {
        error: (issue) =>
          `must be an IANA time zone such as Europe/Amsterdam or America/New_York, got ${JSON.stringify(issue.input)}`,
      })
      .nullable(),
    null,
  ),
};
const required = ['name', 'startsAt', 'endsAt', 'repeatUnit'] as const;

type WindowDates = {
  startsAt?: string;
  endsAt?: string;
  repeatEndsAt?: string | null;
  repeatUnit?: string | null;
  repeatInterval?: number | null;
};

/** The rules between fields: ends after it starts, repeats end after it starts, an interval needs a unit. */
function checkWindow(v: WindowDates, ctx: z.RefinementCtx): void {
  const starts = v.startsAt === undefined ? Number.NaN : Date.parse(v.startsAt);
  if (v.endsAt !== undefined && !(Date.parse(v.endsAt) > starts) && !Number.isNaN(starts)) {
    ctx.addIssue({ code: 'custom', message: 'must be after startsAt', path: ['endsAt'] });
  }
  if (typeof v.repeatEndsAt === 'string' && !Number.isNaN(starts) && !(Date.parse(v.repeatEndsAt) > starts)) {
    ctx.addIssue({ code: 'custom', message: 'must be after startsAt', path: ['repeatEndsAt'] });
  }
  // A partial update that leaves repeatUnit out keeps the stored one; only an explicit null has none.
  if (v.repeatInterval !== undefined && v.repeatInterval !== null && v.repeatUnit === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'needs repeatUnit (DAY, WEEK or MONTH): an interval counts units',
      path: ['repeatInterval'],
    });
  }
}

/** Request body of `POST /v1/maintenance-windows`: name, startsAt, endsAt, repeatUnit (null = one-off). */
export const maintenanceWindowCreateSchema = z
  .strictObject({
    name: maintenanceWindowFields.name,
    startsAt: maintenanceWindowFields.startsAt,
    endsAt: maintenanceWindowFields.endsAt,
    repeatUnit: maintenanceWindowFields.repeatUnit,
    ...optionalAll(maintenanceWindowFields, required),
  })
  .superRefine(checkWindow);
export type MaintenanceWindowCreate = z.input<typeof maintenanceWindowCreateSchema>;
/** Request body of `PUT /v1/maintenance-windows/{id}`: a partial update. */
export const maintenanceWindowUpdateSchema = z
  .strictObject(
    optionalAll(
      {
        ...maintenanceWindowFields,
        ...nullableArrays(maintenanceWindowFields, ['tags', 'silenceAlertsTags']),
      },
      [],
    ),
  )
  .superRefine(checkWindow);
export type MaintenanceWindowUpdate = z.input<typeof maintenanceWindowUpdateSchema>;

/** A maintenance window as the service returns it: the request fields, read tolerantly, and its ids. */
export const maintenanceWindowSchema = responseSchema(maintenanceWindowFields, {
  server: { id: intIdSchema, created_at: isoDateSchema, updated_at: isoDateSchema.nullable() },
  required: ['name', 'startsAt', 'endsAt'],
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

const dateFilterSchema = z.union([
  isoDateSchema,
  z.strictObject({
    gt: isoDateSchema.optional(),
    gte: isoDateSchema.optional(),
    lt: isoDateSchema.optional(),
    lte: isoDateSchema.optional(),
  }),
]);
/** `GET /v1/maintenance-windows` query; date filters travel as `startsAt[gte]=DATE`. */
export const maintenanceWindowListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(0).optional(),
  startsAt: dateFilterSchema.optional(),
  endsAt: dateFilterSchema.optional(),
});
