import {
  alertChannelConfigSchemas,
  alertChannelCreateSchema,
  alertChannelSchema,
  alertChannelUpdateSchema,
} from '../schemas/alert-channels.js';
import type { AlertChannelType } from '../schemas/common.js';
import { type KindDefinition, nonEmptyString, type SensitivePath } from './definition.js';
import { defaultsOf } from './fields.js';

/** The documented create defaults of an alert channel, as its schema declares them. */
export const ALERT_CHANNEL_DEFAULTS = defaultsOf(alertChannelCreateSchema);

/** Each alert-channel type: the shape of its `config` and which of its fields are credentials. */
export const ALERT_CHANNEL_TYPE_DEFINITIONS: Record<
  AlertChannelType,
  { configSchema: (typeof alertChannelConfigSchemas)[AlertChannelType]; sensitive: readonly string[] }
> = {
  EMAIL: { configSchema: alertChannelConfigSchemas.EMAIL, sensitive: [] },
  // An incoming-webhook URL is a credential: whoever has it can post to the channel.
  SLACK: { configSchema: alertChannelConfigSchemas.SLACK, sensitive: ['url'] },
  SLACK_APP: { configSchema: alertChannelConfigSchemas.SLACK_APP, sensitive: [] },
  WEBHOOK: {
    configSchema: alertChannelConfigSchemas.WEBHOOK,
    sensitive: ['webhookSecret', 'headers[].value', 'queryParameters[].value'],
  },
  SMS: { configSchema: alertChannelConfigSchemas.SMS, sensitive: [] },
  CALL: { configSchema: alertChannelConfigSchemas.CALL, sensitive: [] },
  PAGERDUTY: { configSchema: alertChannelConfigSchemas.PAGERDUTY, sensitive: ['serviceKey'] },
  OPSGENIE: { configSchema: alertChannelConfigSchemas.OPSGENIE, sensitive: ['apiKey'] },
};

const sensitive: SensitivePath[] = Object.entries(ALERT_CHANNEL_TYPE_DEFINITIONS).flatMap(
  ([type, definition]) =>
    definition.sensitive.map((field) => ({
      path: `config.${field}`,
      when: (_holder: Record<string, unknown>, payload: Record<string, unknown>) => payload.type === type,
    })),
);

export const alertChannelKind: KindDefinition = {
  kind: 'AlertChannel',
  noun: 'alert channel',
  createSchema: alertChannelCreateSchema,
  updateSchema: alertChannelUpdateSchema,
  responseSchema: alertChannelSchema,
  defaults: ALERT_CHANNEL_DEFAULTS,
  displayName: (p) => {
    const config = (p.config ?? {}) as Record<string, unknown>;
    // Never the Slack `url`: it is a credential.
    return (
      nonEmptyString(config.name) ??
      nonEmptyString(config.address) ??
      nonEmptyString(config.channel) ??
      nonEmptyString(config.number) ??
      nonEmptyString(config.serviceName) ??
      (Array.isArray(config.slackChannels) ? config.slackChannels.join(', ') : undefined)
    );
  },
  // None: two channels may be identical. An interrupted create is found by its whole content.
  uniqueKeys: [],
  sensitive,
  sets: ['config.slackChannels'],
  keyed: { 'config.headers': 'key', 'config.queryParameters': 'key' },
  dates: [],
  references: [],
  outputs: ['type'],
  operations: {
    list: 'alertChannelsList',
    get: 'alertChannelsGet',
    create: 'alertChannelsCreate',
    update: 'alertChannelsUpdate',
    delete: 'alertChannelsDelete',
    idParam: 'id',
    idType: 'int',
  },
};
