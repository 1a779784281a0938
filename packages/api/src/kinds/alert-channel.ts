import type { AlertChannelType } from '../schemas/common.js';
import { type KindDefinition, nonEmptyString, type SensitivePath } from './definition.js';
import { KIND_FACTS } from './schemas-link.js';
import { withSchemas } from './with-schemas.js';

/** The documented create defaults of an alert channel, as its schema declares them. */
export const ALERT_CHANNEL_DEFAULTS = KIND_FACTS.defaults.ALERT_CHANNEL_DEFAULTS;

/** Which fields of each alert-channel type's `config` are credentials. */
export const ALERT_CHANNEL_TYPE_DEFINITIONS: Record<AlertChannelType, { sensitive: readonly string[] }> = {
  EMAIL: { sensitive: [] },
  // An incoming-webhook URL is a credential: whoever has it can post to the channel.
  SLACK: { sensitive: ['url'] },
  SLACK_APP: { sensitive: [] },
  WEBHOOK: { sensitive: ['webhookSecret', 'headers[].value', 'queryParameters[].value'] },
  SMS: { sensitive: [] },
  CALL: { sensitive: [] },
  PAGERDUTY: { sensitive: ['serviceKey'] },
  OPSGENIE: { sensitive: ['apiKey'] },
};

const sensitive: SensitivePath[] = Object.entries(ALERT_CHANNEL_TYPE_DEFINITIONS).flatMap(
  ([type, definition]) =>
    definition.sensitive.map((field) => ({
      path: `config.${field}`,
      when: (_holder: Record<string, unknown>, payload: Record<string, unknown>) => payload.type === type,
    })),
);

export const alertChannelKind: KindDefinition = withSchemas('AlertChannel', {
  noun: 'alert channel',
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
});
