import { z } from '../zod.js';
import {
  httpUrlSchema,
  incidentSeveritySchema,
  incidentStatusSchema,
  isoDateSchema,
  isoDateTimeSchema,
  optionalAll,
  queryBooleanSchema,
  themeSchema,
} from './common.js';
import { withDefault } from './field-default.js';
import { responseSchema } from './response.js';

export const THEME_COLOR_FIELDS = [
  'bodyBackgroundColor',
  'headerBackgroundColor',
  'headerFontColor',
  'titleFontColor',
  'bodyFontColor',
  'bodyFontColorMuted',
  'navigationFontColor',
  'linkFontColor',
  'cardBackgroundColor',
  'borderColor',
  'primaryButtonBackgroundColor',
  'primaryButtonFontColor',
] as const;
const themePaletteSchema = z.strictObject(
  Object.fromEntries(THEME_COLOR_FIELDS.map((f) => [f, z.string()])) as Record<
    (typeof THEME_COLOR_FIELDS)[number],
    z.ZodString
  >,
);
export const themeColorsSchema = z.strictObject({ light: themePaletteSchema, dark: themePaletteSchema });
export type ThemeColors = z.infer<typeof themeColorsSchema>;

export const statusPageCardRequestSchema = z.strictObject({
  name: z.string().min(1),
  id: z.string().optional(),
  statusPageId: z.string().optional(),
  services: z.array(z.strictObject({ id: z.string().min(1) })),
});
export type StatusPageCardRequest = z.infer<typeof statusPageCardRequestSchema>;

const statusPageFields = {
  name: z.string().min(1),
  url: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/, 'must be a subdomain name (letters, digits, hyphens)'),
  cards: z.array(statusPageCardRequestSchema),
  description: withDefault(z.string().max(500).nullable(), null),
  customDomain: withDefault(z.string().min(1).nullable(), null),
  themeColors: themeColorsSchema,
  logo: withDefault(httpUrlSchema.nullable(), null),
  logoDark: withDefault(httpUrlSchema.nullable(), null),
  redirectTo: withDefault(httpUrlSchema.nullable(), null),
  favicon: withDefault(httpUrlSchema.nullable(), null),
  defaultTheme: withDefault(themeSchema, 'AUTO'),
};

/** Request body of status-page create and update: name, url and cards are required. */
export const statusPageCreateSchema = z.strictObject({
  ...statusPageFields,
  ...optionalAll(statusPageFields, ['name', 'url', 'cards']),
});
export type StatusPageCreate = z.input<typeof statusPageCreateSchema>;
export const statusPageUpdateSchema = statusPageCreateSchema;
export type StatusPageUpdate = StatusPageCreate;

const statusPageServiceFields = { name: z.string().min(1) };

/** A status-page service as the service returns it. */
export const statusPageServiceSchema = responseSchema(statusPageServiceFields, {
  server: {
    id: z.string(),
    accountId: z.string(),
    created_at: isoDateSchema.optional(),
    updated_at: isoDateSchema.nullable().optional(),
  },
  required: ['name'],
});
export type StatusPageService = z.infer<typeof statusPageServiceSchema>;

export const statusPageCardSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  created_at: isoDateSchema.optional(),
  updated_at: isoDateSchema.nullable().optional(),
  services: z.array(statusPageServiceSchema),
});

/** What the service adds to a status page it returns; it sets `whiteLabel` and `isPrivate` itself. */
export const statusPageServerSchema = z.looseObject({
  id: z.string(),
  whiteLabel: withDefault(z.boolean(), false).optional(),
  isPrivate: withDefault(z.boolean(), false).optional(),
  version: z.unknown().optional(),
  created_at: isoDateSchema.optional(),
  updated_at: isoDateSchema.nullable().optional(),
});

/** A status page as the service returns it: the request fields, read tolerantly, and what the service adds. */
export const statusPageSchema = responseSchema(statusPageFields, {
  server: statusPageServerSchema.shape,
  required: ['name', 'url'],
  answered: {
    // Cards come back with their ids and whole services.
    cards: z.array(statusPageCardSchema),
    // Left out of requests for the service's theme, which a response may give as null.
    themeColors: z.looseObject({}).nullable().optional(),
  },
});
export type StatusPage = z.infer<typeof statusPageSchema>;

export const statusPageServiceCreateSchema = z.strictObject(statusPageServiceFields);
export type StatusPageServiceCreate = z.input<typeof statusPageServiceCreateSchema>;
export const statusPageServiceUpdateSchema = statusPageServiceCreateSchema;

export const statusPageServiceListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  nextId: z.string().min(1).optional(),
  paginated: queryBooleanSchema.optional(),
});

/** An incident update as listed under a status-page incident. */
export const statusPageIncidentUpdateSchema = z.looseObject({
  id: z.string().optional(),
  description: z.string(),
  status: incidentStatusSchema.optional(),
  publicIncidentUpdateDate: isoDateTimeSchema.optional(),
  created_at: isoDateSchema.optional(),
  notifySubscribers: z.boolean().optional(),
});
export type StatusPageIncidentUpdate = z.infer<typeof statusPageIncidentUpdateSchema>;

export const statusPageIncidentUpdateCreateSchema = z.strictObject({
  description: z.string().min(1),
  status: incidentStatusSchema.optional(),
  publicIncidentUpdateDate: isoDateTimeSchema.optional(),
  notifySubscribers: z.boolean().optional(),
});
export type StatusPageIncidentUpdateCreate = z.input<typeof statusPageIncidentUpdateCreateSchema>;

const incidentServiceRefSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  accountId: z.string(),
});

export const statusPageIncidentCreateSchema = z.strictObject({
  name: z.string().min(1),
  severity: incidentSeveritySchema,
  services: z.array(incidentServiceRefSchema),
  incidentUpdates: z.array(statusPageIncidentUpdateCreateSchema).min(1),
});
export type StatusPageIncidentCreate = z.input<typeof statusPageIncidentCreateSchema>;
export const statusPageIncidentUpdateBodySchema = z.strictObject({
  name: z.string().min(1),
  severity: incidentSeveritySchema,
  services: z.array(incidentServiceRefSchema),
});
export type StatusPageIncidentChange = z.input<typeof statusPageIncidentUpdateBodySchema>;

export const statusPageIncidentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  severity: incidentSeveritySchema,
  services: z.array(statusPageServiceSchema.partial({ created_at: true, updated_at: true })),
  incidentUpdates: z.array(statusPageIncidentUpdateSchema).optional(),
  lastUpdateStatus: incidentStatusSchema.nullable().optional(),
  duration: z.number().nullable().optional(),
  created_at: isoDateSchema.optional(),
  updated_at: isoDateSchema.nullable().optional(),
});
export type StatusPageIncident = z.infer<typeof statusPageIncidentSchema>;
