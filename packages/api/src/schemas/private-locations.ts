import { z } from '../zod.js';
import { isoDateTimeSchema } from './common.js';

/** `from` must lie less than this long ago. */
export const PRIVATE_LOCATION_METRICS_MAX_AGE_SECONDS = 15 * 24 * 60 * 60;

/**
 * Query of `GET /v1/private-locations/{id}/metrics` (unix seconds), checked against `now()`:
 * `from` less than 15 days ago and not after `to`.
 */
export function privateLocationMetricsQuerySchema(now: () => number = Date.now) {
  return z
    .strictObject({
      from: z.coerce.number().int().min(0),
      to: z.coerce.number().int().min(0),
    })
    .superRefine((q, ctx) => {
      const earliest = Math.floor(now() / 1000) - PRIVATE_LOCATION_METRICS_MAX_AGE_SECONDS;
      if (q.from <= earliest) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be less than 15 days ago' });
      }
      if (q.from > q.to) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be less than or equal to "to"' });
      }
    });
}
export type PrivateLocationMetricsQuery = { from: number; to: number };

export const privateLocationMetricsSchema = z.looseObject({
  timestamps: z.array(isoDateTimeSchema),
  queueSize: z.array(z.number()),
  oldestScheduledCheckRun: z.array(z.number()),
});
export type PrivateLocationMetrics = z.infer<typeof privateLocationMetricsSchema>;
