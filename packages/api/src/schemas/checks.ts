import { z } from '../zod.js';
import { checkTypeSchema, isoDateSchema, isoDateTimeSchema, queryBooleanSchema } from './common.js';

/** A check. The seed shows only id and checkType; the rest is the real service's shape. */
export const checkSchema = z.looseObject({
  id: z.string(),
  checkType: checkTypeSchema,
  name: z.string().optional(),
  activated: z.boolean().optional(),
  muted: z.boolean().optional(),
  frequency: z.number().optional(),
  locations: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  groupId: z.number().nullable().optional(),
  request: z.looseObject({}).nullable().optional(),
  script: z.string().nullable().optional(),
  heartbeat: z.looseObject({}).nullable().optional(),
  created_at: isoDateSchema.optional(),
  updated_at: isoDateTimeSchema.nullable().optional(),
});
export type Check = z.infer<typeof checkSchema>;

export const CHECK_STATUS_FILTERS = ['passing', 'failing', 'degraded'] as const;
export const checkListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(0).optional(),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  checkType: checkTypeSchema.optional(),
  search: z.string().optional(),
  status: z.enum(CHECK_STATUS_FILTERS).optional(),
  apiCheckUrlFilterPattern: z.string().optional(),
  applyGroupSettings: queryBooleanSchema.optional(),
});
export type CheckListQuery = z.input<typeof checkListQuerySchema>;

export const checkGetQuerySchema = z.strictObject({
  includeDependencies: queryBooleanSchema.optional(),
  applyGroupSettings: queryBooleanSchema.optional(),
});
