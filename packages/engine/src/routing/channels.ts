import { ALERT_CHANNEL_DEFAULTS, isSensitive, KINDS, SENSITIVE_VALUE } from '@monitor/api/definitions';

/** What a check's state change can send: a failure, a degradation, a recovery, an expiring certificate. */
export type AlertKind = 'failure' | 'degraded' | 'recovery' | 'sslExpiry';
export const ALERT_KINDS: readonly AlertKind[] = ['failure', 'degraded', 'recovery', 'sslExpiry'];
/** How a route line names each kind. */
export const ALERT_KIND_NAMES: Record<AlertKind, string> = {
  failure: 'failures',
  degraded: 'degraded',
  recovery: 'recoveries',
  sslExpiry: 'SSL expiry',
};

const TYPE_NAMES: Record<string, string> = {
  EMAIL: 'Email',
  SLACK: 'Slack',
  SLACK_APP: 'Slack app',
  WEBHOOK: 'Webhook',
  SMS: 'SMS',
  CALL: 'Phone call',
  PAGERDUTY: 'PagerDuty',
  OPSGENIE: 'Opsgenie',
};

/** A channel as routing shows it: never a credential. */
export interface ChannelDescription {
  type: string;
  /** Where it delivers, masked: `#payments`, `ops@acme.example`, `https://bots.acme.example/…`. */
  target: string;
  /** `PagerDuty (Payments)`, `Slack #payments`: the type and the target in a few words. */
  label: string;
  /** Which alerts it sends, by its `send*` and `sslExpiry` switches. */
  sends: AlertKind[];
  /** Days before expiry, when it sends SSL expiry alerts. */
  sslExpiryThreshold?: number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A URL as far as it is safe to show: its origin. A path or query may hold a token. */
function origin(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return undefined;
  }
}

/** A phone number with its last four digits only. */
function phone(number: unknown): string | undefined {
  const n = text(number);
  return n === undefined ? undefined : `…${n.slice(-4)}`;
}

/**
 * Where a channel delivers, without its credentials: a field the kind marks sensitive (a Slack
 * webhook URL, a PagerDuty service key, an Opsgenie API key) is never read here, a webhook URL is
 * cut to its origin and a phone number to its last digits.
 */
function targetOf(type: string, config: Record<string, unknown>, payload: Record<string, unknown>): string {
  // Belt and braces: a field read below that a kind marks sensitive is shown as such.
  const safe = (field: string, value: string | undefined) =>
    value !== undefined && isSensitive(KINDS.AlertChannel, `config.${field}`, config, payload)
      ? SENSITIVE_VALUE
      : value;
  switch (type) {
    case 'EMAIL':
      return safe('address', text(config.address)) ?? '(no address)';
    case 'SLACK': {
      const channel = safe('channel', text(config.channel));
      return channel === undefined ? '(incoming webhook)' : channel.startsWith('#') ? channel : `#${channel}`;
    }
    case 'SLACK_APP':
      return Array.isArray(config.slackChannels) ? config.slackChannels.map(String).join(', ') : '';
    case 'WEBHOOK': {
      const name = safe('name', text(config.name));
      const url = safe('url', origin(config.url));
      return [name, url === undefined ? undefined : `(${url})`].filter((v) => v !== undefined).join(' ');
    }
    case 'SMS':
    case 'CALL':
      return [safe('name', text(config.name)), phone(config.number)].filter((v) => v !== undefined).join(' ');
    case 'PAGERDUTY':
      return (
        safe('serviceName', text(config.serviceName)) ?? safe('account', text(config.account)) ?? '(service)'
      );
    case 'OPSGENIE':
      return [safe('name', text(config.name)), text(config.priority)]
        .filter((v) => v !== undefined)
        .join(' ');
    default:
      return '';
  }
}

/** What routing shows of an alert channel payload (desired or live). */
export function describeChannel(payload: Record<string, unknown>): ChannelDescription {
  const type = typeof payload.type === 'string' ? payload.type : 'UNKNOWN';
  const config = (payload.config ?? {}) as Record<string, unknown>;
  const on = (field: keyof typeof ALERT_CHANNEL_DEFAULTS) =>
    (typeof payload[field] === 'boolean' ? payload[field] : ALERT_CHANNEL_DEFAULTS[field]) === true;
  const sends: AlertKind[] = [];
  if (on('sendFailure')) sends.push('failure');
  if (on('sendDegraded')) sends.push('degraded');
  if (on('sendRecovery')) sends.push('recovery');
  if (on('sslExpiry')) sends.push('sslExpiry');
  const target = targetOf(type, config, payload);
  const name = TYPE_NAMES[type] ?? type;
  const label =
    target === ''
      ? name
      : type === 'PAGERDUTY' || type === 'OPSGENIE' || type === 'WEBHOOK' || target.startsWith('(')
        ? `${name} (${target.replace(/^\((.*)\)$/, '$1')})`
        : `${name} ${target}`;
  const threshold =
    typeof payload.sslExpiryThreshold === 'number'
      ? payload.sslExpiryThreshold
      : ALERT_CHANNEL_DEFAULTS.sslExpiryThreshold;
  return { type, target, label, sends, ...(on('sslExpiry') ? { sslExpiryThreshold: threshold } : {}) };
}
