import { z } from '../zod.js';
import {
  incidentImpactSchema,
  incidentStatusSchema,
  intIdSchema,
  isoDateTimeSchema,
  queryBooleanSchema,
} from './common.js';

const incidentUpdateInputSchema = z.strictObject({
  status: incidentStatusSchema,
  description: z.string().min(1),
});

/** Request body of `POST /v1/incidents`: exactly one incident update. */
export const incidentCreateSchema = z.strictObject({
  name: z.string().min(1),
  impact: incidentImpactSchema,
  dashboardId: intIdSchema,
  incidentUpdates: z.array(incidentUpdateInputSchema).length(1, 'must contain exactly one element'),
  startedAt: isoDateTimeSchema.nullable().optional(),
  stoppedAt: isoDateTimeSchema.nullable().optional(),
});
export type IncidentCreate = z.input<typeof incidentCreateSchema>;

/** Request body of `PUT /v1/incidents/{id}`: name and impact required. */
export const incidentUpdateBodySchema = z.strictObject({
  name: z.string().min(1),
  impact: incidentImpactSchema,
  startedAt: isoDateTimeSchema.nullable().optional(),
  stoppedAt: isoDateTimeSchema.nullable().optional(),
});
export type IncidentChange = z.input<typeof incidentUpdateBodySchema>;

/** Request body of `POST /v1/incidents/{incidentId}/updates`. */
export const incidentUpdateCreateSchema = incidentUpdateInputSchema;
export type IncidentUpdateCreate = z.input<typeof incidentUpdateCreateSchema>;

export const incidentUpdateSchema = z.looseObject({
  id: z.uuid(),
  status: incidentStatusSchema,
  description: z.string(),
  incidentId: z.uuid(),
  created_at: isoDateTimeSchema,
  updated_at: isoDateTimeSchema.nullable().optional(),
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export const incidentSchema = z.looseObject({
  id: z.uuid(),
  name: z.string(),
  impact: incidentImpactSchema,
  dashboardId: z.number(),
  incidentUpdates: z.array(incidentUpdateSchema).min(1),
  startedAt: isoDateTimeSchema.nullable().optional(),
  stoppedAt: isoDateTimeSchema.nullable().optional(),
  created_at: isoDateTimeSchema,
  updated_at: isoDateTimeSchema.nullable(),
});
export type Incident = z.infer<typeof incidentSchema>;

export const incidentGetQuerySchema = z.strictObject({
  includeAllIncidentUpdates: queryBooleanSchema.optional(),
});
