import { ALERT_CHANNEL_DEFAULTS, type AlertChannelType } from '@monitor/api/definitions';
import {
  Construct,
  type ConstructOptions,
  type ProjectConstructRef,
  projectRef,
  type RemoteRef,
  remoteRef,
  type SynthContext,
} from './construct.js';
import { PROP_PATH, SYNTHESIZE } from './session.js';
import { type KindSource, requestFields, topField } from './source.js';

/** The switches every alert channel has. */
export interface AlertChannelSwitches {
  /** Send a notification when a check recovers. @default true */
  sendRecovery?: boolean;
  /** Send a notification when a check fails. @default true */
  sendFailure?: boolean;
  /** Send a notification when a check degrades. @default false */
  sendDegraded?: boolean;
  /** Alert on expiring SSL certificates. @default false */
  sslExpiry?: boolean;
  /** Days before expiry to alert, 1 to 30. @default 30 */
  sslExpiryThreshold?: number;
  /** Subscribe new checks to this channel automatically. @default false */
  autoSubscribe?: boolean;
}

const SWITCHES = [
  'sendRecovery',
  'sendFailure',
  'sendDegraded',
  'sslExpiry',
  'sslExpiryThreshold',
  'autoSubscribe',
] as const;

/**
 * Anything a group's `alertChannels` accepts: an alert-channel construct, `AlertChannel.fromId(id)`,
 * or another project's channel, `AlertChannel.fromProject('platform', 'pagerduty-oncall')`.
 */
export type AlertChannelRef =
  | AlertChannel<object>
  | RemoteRef<'AlertChannel'>
  | ProjectConstructRef<'AlertChannel'>;

/** The base of the alert-channel constructs; `AlertChannel.fromId(123)` refers to an existing one. */
export abstract class AlertChannel<P extends object = object> extends Construct<P & AlertChannelSwitches> {
  readonly kind = 'AlertChannel' as const;
  /** The channel type the service knows it by. */
  abstract readonly channelType: AlertChannelType;

  /** An existing alert channel, by id: referred to, never created, changed or deleted. */
  static fromId(id: number): RemoteRef<'AlertChannel'> {
    return remoteRef('AlertChannel', id);
  }

  /** An alert channel another project owns (`projectName`), by its logical id there: referred to, never created, changed or deleted. */
  static fromProject(project: string, logicalId: string): ProjectConstructRef<'AlertChannel'> {
    return projectRef('AlertChannel', project, logicalId);
  }

  [SYNTHESIZE](ctx: SynthContext): Record<string, unknown> {
    const all = { ...ctx.defaults, ...this.props } as Record<string, unknown>;
    const payload: Record<string, unknown> = { type: this.channelType, ...ALERT_CHANNEL_DEFAULTS };
    const config: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(all)) {
      if ((SWITCHES as readonly string[]).includes(key)) payload[key] = value;
      else if (value !== undefined) config[key] = value;
    }
    payload.config = config;
    return payload;
  }

  override [PROP_PATH](payloadPath: string): string {
    return payloadPath.replace(/^config\./, '');
  }
}

type Props<P> = P & AlertChannelSwitches;

export interface EmailAlertChannelProps {
  /** Email address notifications go to. */
  address: string;
}
/** Notifications by email. */
export class EmailAlertChannel extends AlertChannel<EmailAlertChannelProps> {
  readonly channelType = 'EMAIL' as const;
  constructor(logicalId: string, props: Props<EmailAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface SlackAlertChannelProps {
  /** Incoming-webhook URL. */
  url: string;
  /** Channel to post in, overriding the webhook's. */
  channel?: string;
}
/** Notifications to a Slack incoming webhook. */
export class SlackAlertChannel extends AlertChannel<SlackAlertChannelProps> {
  readonly channelType = 'SLACK' as const;
  constructor(logicalId: string, props: Props<SlackAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface SlackAppAlertChannelProps {
  /** Slack channels to post in; at least one. */
  slackChannels: string[];
}
/** Notifications through the Slack app. */
export class SlackAppAlertChannel extends AlertChannel<SlackAppAlertChannelProps> {
  readonly channelType = 'SLACK_APP' as const;
  constructor(logicalId: string, props: Props<SlackAppAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface WebhookAlertChannelProps {
  /** Name shown for the webhook. */
  name: string;
  /** URL called on each notification. */
  url: string;
  /** HTTP method. @default 'POST' */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Body template. */
  template?: string;
  /** Kind of webhook, e.g. a preset integration. */
  webhookType?: string;
  /** Secret used to sign the payload. Never printed. */
  webhookSecret?: string;
  /** Headers sent with the call. @default [] */
  headers?: { key: string; value: string }[];
  /** Query parameters sent with the call. @default [] */
  queryParameters?: { key: string; value: string }[];
}
/** Notifications to any HTTP endpoint. */
export class WebhookAlertChannel extends AlertChannel<WebhookAlertChannelProps> {
  readonly channelType = 'WEBHOOK' as const;
  constructor(logicalId: string, props: Props<WebhookAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface PhoneAlertChannelProps {
  /** Phone number in E.164 form, e.g. +31612345678. */
  number: string;
  /** Name shown for the number. */
  name?: string;
}
/** Notifications by text message. */
export class SmsAlertChannel extends AlertChannel<PhoneAlertChannelProps> {
  readonly channelType = 'SMS' as const;
  constructor(logicalId: string, props: Props<PhoneAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}
/** Notifications by phone call. */
export class PhoneCallAlertChannel extends AlertChannel<PhoneAlertChannelProps> {
  readonly channelType = 'CALL' as const;
  constructor(logicalId: string, props: Props<PhoneAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface PagerdutyAlertChannelProps {
  /** Integration key of the PagerDuty service. Never printed. */
  serviceKey: string;
  /** PagerDuty account name. */
  account?: string;
  /** PagerDuty service name. */
  serviceName?: string;
}
/** Notifications as PagerDuty incidents. */
export class PagerdutyAlertChannel extends AlertChannel<PagerdutyAlertChannelProps> {
  readonly channelType = 'PAGERDUTY' as const;
  constructor(logicalId: string, props: Props<PagerdutyAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

export interface OpsgenieAlertChannelProps {
  /** Name shown for the integration. */
  name: string;
  /** Opsgenie API key. Never printed. */
  apiKey: string;
  /** Opsgenie region. */
  region: 'EU' | 'US';
  /** Priority of the alerts, P1 (highest) to P5. */
  priority: 'P1' | 'P2' | 'P3' | 'P4' | 'P5';
}
/** Notifications as Opsgenie alerts. */
export class OpsgenieAlertChannel extends AlertChannel<OpsgenieAlertChannelProps> {
  readonly channelType = 'OPSGENIE' as const;
  constructor(logicalId: string, props: Props<OpsgenieAlertChannelProps>, options?: ConstructOptions) {
    super(logicalId, props, options);
  }
}

/** The construct of each channel type. */
const CHANNEL_CLASSES: Record<AlertChannelType, { readonly name: string }> = {
  EMAIL: EmailAlertChannel,
  SLACK: SlackAlertChannel,
  SLACK_APP: SlackAppAlertChannel,
  WEBHOOK: WebhookAlertChannel,
  SMS: SmsAlertChannel,
  CALL: PhoneCallAlertChannel,
  PAGERDUTY: PagerdutyAlertChannel,
  OPSGENIE: OpsgenieAlertChannel,
};

/** A live alert channel as code: the construct of its type, its config's fields and its switches as props. */
export const alertChannelSource: KindSource = {
  module: 'alert-channels',
  source: (live) => {
    const type = String(live.type);
    const construct = CHANNEL_CLASSES[type as AlertChannelType]?.name;
    if (construct === undefined) throw new Error(`alert channel type ${type} has no construct`);
    const { type: _type, config, ...switches } = requestFields(live, 'AlertChannel');
    const props: Record<string, unknown> = {
      ...(config as Record<string, unknown> | undefined),
      ...switches,
    };
    // The service may answer optional config fields as null; the constructs take them left out.
    for (const [key, value] of Object.entries(props)) if (value === null) delete props[key];
    return { construct, props, qualifier: type.replace(/_/g, ' ') };
  },
  // The config's fields are props of their own; the type is the construct.
  propOf: (path) => {
    if (path === 'type') return undefined;
    const field = path.startsWith('config.') ? path.slice('config.'.length) : path;
    return { prop: topField(field), path: field };
  },
};
