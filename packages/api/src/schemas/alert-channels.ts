import { z } from '../zod.js';
import {
  alertChannelTypeSchema,
  httpUrlSchema,
  intIdSchema,
  isoDateTimeSchema,
  keyValueSchema,
} from './common.js';
import { withDefault } from './field-default.js';
import { responseSchema } from './response.js';

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form, e.g. +31612345678');

export const emailConfigSchema = z.strictObject({ address: z.email() });
export const slackConfigSchema = z.strictObject({ url: httpUrlSchema, channel: z.string().optional() });
export const slackAppConfigSchema = z.strictObject({ slackChannels: z.array(z.string().min(1)).min(1) });
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const webhookConfigSchema = z.strictObject({
  name: z.string().min(1),
  url: httpUrlSchema,
  method: z.enum(WEBHOOK_METHODS).optional(),
  template: z.string().optional(),
  webhookType: z.string().optional(),
  webhookSecret: z.string().optional(),
  headers: z.array(keyValueSchema).optional(),
  queryParameters: z.array(keyValueSchema).optional(),
});
export const phoneConfigSchema = z.strictObject({ number: e164, name: z.string().optional() });
export const pagerdutyConfigSchema = z.strictObject({
  serviceKey: z.string().min(1),
  account: z.string().optional(),
  serviceName: z.string().optional(),
});
export const OPSGENIE_REGIONS = ['EU', 'US'] as const;
export const OPSGENIE_PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export const opsgenieConfigSchema = z.strictObject({
  name: z.string().min(1),
  apiKey: z.string().min(1),
  region: z.enum(OPSGENIE_REGIONS),
  priority: z.enum(OPSGENIE_PRIORITIES),
});

/** The `config` shape of each alert-channel type. */
export const alertChannelConfigSchemas = {
  EMAIL: emailConfigSchema,
  SLACK: slackConfigSchema,
  SLACK_APP: slackAppConfigSchema,
  WEBHOOK: webhookConfigSchema,
  SMS: phoneConfigSchema,
  PAGERDUTY: pagerdutyConfigSchema,
  OPSGENIE: opsgenieConfigSchema,
  CALL: phoneConfigSchema,
} as const;
export type AlertChannelConfig<T extends keyof typeof alertChannelConfigSchemas> = z.infer<
  (typeof alertChannelConfigSchemas)[T]
>;

const alertChannelSwitches = {
  sendRecovery: withDefault(z.boolean(), true).optional(),
  sendFailure: withDefault(z.boolean(), true).optional(),
  sendDegraded: withDefault(z.boolean(), false).optional(),
  sslExpiry: withDefault(z.boolean(), false).optional(),
  sslExpiryThreshold: withDefault(z.number().int().min(1).max(30), 30).optional(),
  autoSubscribe: withDefault(z.boolean(), false).optional(),
};

function variant<T extends keyof typeof alertChannelConfigSchemas>(type: T) {
  return z.strictObject({
    type: z.literal(type),
    config: alertChannelConfigSchemas[type],
    ...alertChannelSwitches,
  });
}

/** Request body of alert-channel create and update: `type` and a `config` of that type's shape. */
export const alertChannelCreateSchema = z.discriminatedUnion('type', [
  variant('EMAIL'),
  variant('SLACK'),
  variant('SLACK_APP'),
  variant('WEBHOOK'),
  variant('SMS'),
  variant('PAGERDUTY'),
  variant('OPSGENIE'),
  variant('CALL'),
]);
export type AlertChannelCreate = z.input<typeof alertChannelCreateSchema>;
export const alertChannelUpdateSchema = alertChannelCreateSchema;
export type AlertChannelUpdate = AlertChannelCreate;

export const alertChannelSubscriptionSchema = z.looseObject({
  id: z.number().optional(),
  checkId: z.string().nullable().optional(),
  groupId: z.number().nullable().optional(),
  activated: z.boolean(),
});
export type AlertChannelSubscription = z.infer<typeof alertChannelSubscriptionSchema>;

/** An alert channel as the service returns it: the switches, read tolerantly, its type, config and ids. */
export const alertChannelSchema = responseSchema(alertChannelSwitches, {
  server: {
    id: intIdSchema,
    // One shape per type in requests; any object in a response.
    type: alertChannelTypeSchema,
    config: z.looseObject({}),
    subscriptions: z.array(alertChannelSubscriptionSchema).optional(),
    created_at: isoDateTimeSchema.optional(),
    updated_at: isoDateTimeSchema.nullable().optional(),
  },
});
export type AlertChannel = z.infer<typeof alertChannelSchema>;

/** Request body of `PUT /v1/alert-channels/{id}/subscriptions`: exactly one of checkId and groupId. */
export const alertChannelSubscriptionUpsertSchema = z
  .strictObject({
    activated: z.boolean(),
    checkId: z.uuid().optional(),
    groupId: intIdSchema.optional(),
  })
  .refine((v) => (v.checkId === undefined) !== (v.groupId === undefined), {
    message: 'exactly one of "checkId" and "groupId" is required',
    path: ['checkId'],
  });
export type AlertChannelSubscriptionUpsert = z.input<typeof alertChannelSubscriptionUpsertSchema>;
