import { z } from '../zod.js';
import {
  dashboardWidthSchema,
  httpUrlSchema,
  intIdSchema,
  isoDateSchema,
  isoDateTimeSchema,
  nullableArrays,
  optionalAll,
  paginationRateSchema,
  refreshRateSchema,
} from './common.js';
import { withDefault } from './field-default.js';
import { responseSchema } from './response.js';

/** A private dashboard key as the client may send it back; the server makes keys itself. */
export const dashboardKeySchema = z.looseObject({
  id: z.string(),
  rawKey: z.string(),
  maskedKey: z.string(),
  created_at: isoDateSchema,
  updated_at: isoDateSchema.nullable().optional(),
});
export type DashboardKey = z.infer<typeof dashboardKeySchema>;

const dashboardFields = {
  customDomain: withDefault(z.string().min(1).nullable(), null),
  customUrl: z
    .string()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i, 'must be a subdomain name (letters, digits, hyphens)'),
  logo: withDefault(httpUrlSchema.nullable(), null),
  favicon: withDefault(httpUrlSchema.nullable(), null),
  link: withDefault(httpUrlSchema.nullable(), null),
  description: withDefault(z.string().nullable(), null),
  header: z.string(),
  width: withDefault(dashboardWidthSchema, 'FULL'),
  refreshRate: withDefault(refreshRateSchema, 60),
  paginate: withDefault(z.boolean(), true),
  paginationRate: withDefault(paginationRateSchema, 60),
  checksPerPage: withDefault(z.number().int().min(1).max(20).nullable(), 15),
  useTagsAndOperator: withDefault(z.boolean().nullable(), false),
  hideTags: withDefault(z.boolean(), false),
  enableIncidents: withDefault(z.boolean(), false),
  expandChecks: withDefault(z.boolean(), false),
  tags: withDefault(z.array(z.string()), []),
  showHeader: withDefault(z.boolean(), true),
  showCheckRunLinks: withDefault(z.boolean(), false),
  showGroupNames: withDefault(z.boolean(), true),
  customCSS: withDefault(z.string().nullable(), ''),
  isPrivate: withDefault(z.boolean(), false),
  showP95: withDefault(z.boolean(), true),
  showP99: withDefault(z.boolean(), true),
  sortByStatus: withDefault(z.boolean(), false),
  keys: z.array(dashboardKeySchema),
};

/** Request body of `POST /v1/dashboards`: `header` is required. */
export const dashboardCreateSchema = z.strictObject({
  header: dashboardFields.header,
  ...optionalAll(dashboardFields, ['header']),
});
export type DashboardCreate = z.input<typeof dashboardCreateSchema>;
/** Request body of `PUT /v1/dashboards/{dashboardId}`: every field optional. */
export const dashboardUpdateSchema = z.strictObject(
  optionalAll({ ...dashboardFields, ...nullableArrays(dashboardFields, ['tags', 'keys']) }, []),
);
export type DashboardUpdate = z.input<typeof dashboardUpdateSchema>;

/** A dashboard as the service returns it: the request fields, read tolerantly, and its ids. */
export const dashboardSchema = responseSchema(dashboardFields, {
  server: {
    id: intIdSchema,
    dashboardId: z.string(),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema.nullable().optional(),
  },
  // The spec: a response's header may be null.
  answered: { header: z.string().nullable().optional() },
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** `GET /v1/dashboards/{dashboardId}?type=customUrl|customDomain` looks a dashboard up by that value. */
export const dashboardGetQuerySchema = z.strictObject({
  type: z.enum(['customUrl', 'customDomain']).optional(),
});
