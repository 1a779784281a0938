import { z } from '../zod.js';
import {
  checkSessionCheckTypeSchema,
  checkSessionStatusSchema,
  isoDateSchema,
  isoDateTimeSchema,
  resultTypeSchema,
  triggerSourceSchema,
} from './common.js';

/** Request body of `POST /v2/check-sessions/trigger`. */
export const checkSessionTriggerSchema = z.strictObject({
  target: z
    .strictObject({
      /** a check matches when it has every tag of one inner array */
      matchTags: z.array(z.array(z.string())).optional(),
      checkId: z.array(z.uuid()).optional(),
    })
    .optional(),
  refreshCache: z.boolean().optional(),
});
export type CheckSessionTrigger = z.input<typeof checkSessionTriggerSchema>;

export const triggeredSessionSchema = z.looseObject({
  checkSessionId: z.uuid(),
  checkSessionLink: z.string(),
  checkId: z.uuid(),
  startedAt: isoDateTimeSchema,
  /** omitted while the session runs */
  stoppedAt: isoDateTimeSchema.nullable().optional(),
  timeElapsed: z.number(),
  runLocations: z.array(z.string()),
  name: z.string(),
  checkType: checkSessionCheckTypeSchema.optional(),
  status: checkSessionStatusSchema.optional(),
  runSource: triggerSourceSchema.nullable().optional(),
});
export type TriggeredSession = z.infer<typeof triggeredSessionSchema>;

export const checkSessionTriggerResponseSchema = z.looseObject({ sessions: z.array(triggeredSessionSchema) });

export const checkSessionResultSchema = z.looseObject({
  checkResultId: z.uuid(),
  checkResultLink: z.string().optional(),
  checkId: z.uuid(),
  checkType: checkSessionCheckTypeSchema.optional(),
  name: z.string().optional(),
  runLocation: z.string(),
  resultType: resultTypeSchema,
  hasErrors: z.boolean(),
  hasFailures: z.boolean(),
  isDegraded: z.boolean(),
  aborted: z.boolean().optional(),
  isCancelled: z.boolean().optional(),
  responseTime: z.number().nullable().optional(),
  startedAt: isoDateTimeSchema.nullable().optional(),
  stoppedAt: isoDateTimeSchema.nullable().optional(),
});
export type CheckSessionResult = z.infer<typeof checkSessionResultSchema>;

export const checkSessionSchema = z.looseObject({
  checkSessionId: z.uuid(),
  checkSessionLink: z.string(),
  checkId: z.uuid(),
  checkType: checkSessionCheckTypeSchema,
  name: z.string(),
  status: checkSessionStatusSchema,
  startedAt: isoDateTimeSchema,
  stoppedAt: isoDateTimeSchema.nullable(),
  timeElapsed: z.number(),
  runLocations: z.array(z.string()),
  runSource: triggerSourceSchema.nullable().optional(),
  results: z.array(checkSessionResultSchema),
});
export type CheckSession = z.infer<typeof checkSessionSchema>;

export const checkSessionCompletionQuerySchema = z.strictObject({
  maxWaitSeconds: z.coerce.number().int().min(1).max(30).optional(),
});

export const checkResultSchema = z.looseObject({
  id: z.uuid(),
  checkId: z.uuid(),
  name: z.string().optional(),
  runLocation: z.string(),
  resultType: z.string().optional(),
  hasFailures: z.boolean(),
  hasErrors: z.boolean(),
  isDegraded: z.boolean().optional(),
  overMaxResponseTime: z.boolean().optional(),
  isCancelled: z.boolean().optional(),
  startedAt: isoDateTimeSchema.nullable().optional(),
  stoppedAt: isoDateTimeSchema.nullable().optional(),
  created_at: isoDateSchema.optional(),
  responseTime: z.number().nullable().optional(),
  attempts: z.number().optional(),
  sequenceId: z.string().nullable().optional(),
  errorGroupIds: z.array(z.string()).optional(),
  apiCheckResult: z.looseObject({}).nullable().optional(),
  browserCheckResult: z.looseObject({}).nullable().optional(),
  multiStepCheckResult: z.looseObject({}).nullable().optional(),
  playwrightCheckResult: z.looseObject({}).nullable().optional(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

/** Request body of `POST /v1/test-sessions/{testSessionId}/cancel`. */
export const testSessionCancelSchema = z.strictObject({
  sequenceId: z.array(z.uuid()).min(1).optional(),
});
export type TestSessionCancel = z.input<typeof testSessionCancelSchema>;
