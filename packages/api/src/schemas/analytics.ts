import { z } from '../zod.js';
import {
  checkTypeSchema,
  isoDateSchema,
  metricNameSchema,
  quickRangeSchema,
  summaryQuickRangeSchema,
} from './common.js';

const unixSeconds = z.coerce.number().int().min(0);

/** Query of `GET /v1/analytics/api-checks/{id}`; `metrics` travels comma-separated. */
export const apiCheckAnalyticsQuerySchema = z.strictObject({
  metrics: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.length > 0) : v),
    z.array(metricNameSchema).min(1),
  ),
  from: unixSeconds.optional(),
  to: unixSeconds.optional(),
  quickRange: quickRangeSchema.optional(),
  aggregationInterval: z.coerce.number().int().min(1).max(43200).optional(),
  filterByStatus: z
    .preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(z.enum(['success', 'failure'])))
    .optional(),
  groupBy: z.enum(['runLocation', 'statusCode']).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).optional(),
});
export type ApiCheckAnalyticsQuery = z.input<typeof apiCheckAnalyticsQuerySchema>;

export const METRIC_UNITS = ['milliseconds', 'score', 'count', 'percentage'] as const;

/** A series entry: the real contract's object (`data` rows); the seed's string form is accepted too. */
export const analyticsSeriesEntrySchema = z.union([
  z.string(),
  z.looseObject({
    data: z.union([z.array(z.looseObject({})), z.looseObject({})]),
  }),
]);

export const apiCheckAnalyticsSchema = z.looseObject({
  checkId: z.string(),
  name: z.string(),
  checkType: checkTypeSchema,
  activated: z.boolean(),
  muted: z.boolean(),
  frequency: z.number(),
  from: isoDateSchema,
  to: isoDateSchema,
  tags: z.array(z.string()),
  series: z.array(analyticsSeriesEntrySchema),
  pagination: z.looseObject({ page: z.number(), limit: z.number() }),
  metadata: z.record(
    z.string(),
    z.looseObject({
      label: z.string(),
      unit: z.enum(METRIC_UNITS).optional(),
      aggregation: z.string().optional(),
    }),
  ),
});
export type ApiCheckAnalytics = z.infer<typeof apiCheckAnalyticsSchema>;

export const analyticsSummaryQuerySchema = z.strictObject({ quickRange: summaryQuickRangeSchema.optional() });
/** Request body of `POST /v1/analytics/checks`: 1–100 check ids and nothing else. */
export const analyticsSummaryBodySchema = z.strictObject({ checkIds: z.array(z.uuid()).min(1).max(100) });
export type AnalyticsSummaryBody = z.input<typeof analyticsSummaryBodySchema>;

const nullableNumber = z.number().nullable().optional();
export const analyticsSummaryElementSchema = z.looseObject({
  checkId: z.string(),
  checkType: checkTypeSchema,
  availability: nullableNumber,
  responseTime_avg: nullableNumber,
  responseTime_p50: nullableNumber,
  responseTime_p95: nullableNumber,
  responseTime_p99: nullableNumber,
  latency_avg: nullableNumber,
  latency_p50: nullableNumber,
  latency_p95: nullableNumber,
  latency_p99: nullableNumber,
  packetLoss_avg: nullableNumber,
  packetLoss_p95: nullableNumber,
  packetLoss_p99: nullableNumber,
});
export type AnalyticsSummaryElement = z.infer<typeof analyticsSummaryElementSchema>;
export const analyticsSummarySchema = z.array(analyticsSummaryElementSchema);
