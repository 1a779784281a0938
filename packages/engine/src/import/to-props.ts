import {
  ALERT_CHANNEL_DEFAULTS,
  type AlertChannelType,
  CHECK_GROUP_DEFAULTS,
  DASHBOARD_DEFAULTS,
  isRecord,
  isSensitive,
  KINDS,
  MAINTENANCE_WINDOW_DEFAULTS,
  type ResourceKind,
  STATUS_PAGE_DEFAULTS,
  STATUS_PAGE_VISIBILITY_DEFAULTS,
} from '@monitor/api';
import type { LiveResource } from '../plan/plan.js';

/** A reference to another resource in imported props: a variable when it is imported too, else `fromId`. */
export interface RefValue {
  readonly $import: 'ref';
  readonly kind: ResourceKind;
  readonly physicalId: string | number;
}

/**
 * A sensitive value in imported props: never written, read from an environment variable instead.
 * `path` names it as a diff does (`environmentVariables[TOKEN].value`); `masked` when the service
 * does not return it (a secret env var), so monitor cannot know it.
 */
export interface SecretValue {
  readonly $import: 'secret';
  readonly path: string;
  readonly value: string;
  readonly masked: boolean;
  /** The environment variable the generated code reads it from, once named. */
  readonly env?: string;
}

export type PropValue =
  | null
  | boolean
  | number
  | string
  | RefValue
  | SecretValue
  | PropValue[]
  | { [key: string]: PropValue };

export type Props = Record<string, PropValue>;

export function isRefValue(v: unknown): v is RefValue {
  return typeof v === 'object' && v !== null && (v as { $import?: unknown }).$import === 'ref';
}
export function isSecretValue(v: unknown): v is SecretValue {
  return typeof v === 'object' && v !== null && (v as { $import?: unknown }).$import === 'secret';
}

/** The construct class that declares a live resource, and its props with every field the live one has. */
export interface ConstructSource {
  construct: string;
  props: Props;
}

const ALERT_CHANNEL_CLASSES: Record<AlertChannelType, string> = {
  EMAIL: 'EmailAlertChannel',
  SLACK: 'SlackAlertChannel',
  SLACK_APP: 'SlackAppAlertChannel',
  WEBHOOK: 'WebhookAlertChannel',
  SMS: 'SmsAlertChannel',
  CALL: 'PhoneCallAlertChannel',
  PAGERDUTY: 'PagerdutyAlertChannel',
  OPSGENIE: 'OpsgenieAlertChannel',
};

type Record_ = Record<string, unknown>;

/**
 * A copy of a live resource with every sensitive value replaced by a `SecretValue`: those the
 * service returns (an alert channel's keys) and those it masks (a secret env var, always `""`).
 * Empty values that are not masked (a basic-auth password left empty) stay as they are.
 */
export function markSecrets(kind: ResourceKind, live: Record_): Record_ {
  const def = KINDS[kind];
  const walk = (value: unknown, rulePath: string, path: string): unknown => {
    if (Array.isArray(value)) {
      const keyField = def.keyed[rulePath];
      return value.map((item, i) => {
        const name = keyField !== undefined && isRecord(item) ? String(item[keyField]) : String(i);
        return walk(item, `${rulePath}[]`, `${path}[${name}]`);
      });
    }
    if (!isRecord(value)) return value;
    const out: Record_ = {};
    for (const [key, field] of Object.entries(value)) {
      const fieldRule = rulePath === '' ? key : `${rulePath}.${key}`;
      const fieldPath = path === '' ? key : `${path}.${key}`;
      // A secret env var comes back as "" whatever it holds.
      const masked = value.secret === true && field === '';
      if (typeof field === 'string' && (field !== '' || masked) && isSensitive(def, fieldRule, value, live)) {
        out[key] = { $import: 'secret', path: fieldPath, value: field, masked } satisfies SecretValue;
      } else out[key] = walk(field, fieldRule, fieldPath);
    }
    return out;
  };
  return walk(live, '', '') as Record_;
}

const ref = (kind: ResourceKind, physicalId: unknown): RefValue => ({
  $import: 'ref',
  kind,
  physicalId: physicalId as string | number,
});

/** The fields of `live` named by `keys` that it has (undefined ones left out). */
function pick(live: Record_, keys: readonly string[]): Props {
  const out: Props = {};
  for (const key of keys) if (live[key] !== undefined) out[key] = live[key] as PropValue;
  return out;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The construct that declares a live resource (already through `markSecrets`), with props for
 * every field it has: the inverse of the constructs' synthesis. Fields equal to what synthesis
 * would fill in anyway are dropped later, by comparison.
 */
export function constructSource(kind: ResourceKind, live: LiveResource | Record_): ConstructSource {
  switch (kind) {
    case 'CheckGroup': {
      const keys = ['name', 'browserCheckDefaults', ...Object.keys(CHECK_GROUP_DEFAULTS)].filter(
        (k) => k !== 'alertChannelSubscriptions',
      );
      const props = pick(live, keys);
      props.alertChannels = list(live.alertChannelSubscriptions).map((s) => {
        const subscription = s as Record_;
        const channel = ref('AlertChannel', subscription.alertChannelId);
        return subscription.activated === false ? { channel, activated: false } : channel;
      });
      return { construct: 'CheckGroup', props };
    }
    case 'Dashboard':
      return {
        construct: 'Dashboard',
        props: pick(live, ['header', 'customUrl', ...Object.keys(DASHBOARD_DEFAULTS)]),
      };
    case 'StatusPage': {
      const props = pick(live, ['name', 'url', 'themeColors', ...Object.keys(STATUS_PAGE_DEFAULTS)]);
      props.cards = list(live.cards).map((c) => {
        const card = c as Record_;
        return {
          name: card.name as string,
          services: list(card.services).map((s) => ref('StatusPageService', (s as Record_).id)),
        };
      });
      return { construct: 'StatusPage', props };
    }
    case 'StatusPageService':
      return { construct: 'StatusPageService', props: pick(live, ['name']) };
    case 'MaintenanceWindow': {
      const keys = ['name', 'startsAt', 'endsAt', ...Object.keys(MAINTENANCE_WINDOW_DEFAULTS)].filter(
        (k) => k !== 'statusPageVisibility',
      );
      const props = pick(live, keys);
      const visibility = isRecord(live.statusPageVisibility) ? live.statusPageVisibility : {};
      const visibilityProps = pick(
        visibility,
        Object.keys(STATUS_PAGE_VISIBILITY_DEFAULTS).filter(
          (k) => k !== 'statusPageIds' && k !== 'serviceIds',
        ),
      );
      visibilityProps.statusPages = list(visibility.statusPageIds).map((id) => ref('StatusPage', id));
      visibilityProps.services = list(visibility.serviceIds).map((id) => ref('StatusPageService', id));
      props.statusPageVisibility = visibilityProps;
      return { construct: 'MaintenanceWindow', props };
    }
    case 'AlertChannel': {
      const type = live.type as AlertChannelType;
      const construct = ALERT_CHANNEL_CLASSES[type];
      if (construct === undefined) throw new Error(`alert channel type ${String(type)} has no construct`);
      const config = isRecord(live.config) ? live.config : {};
      const props: Props = {
        ...pick(config, Object.keys(config)),
        ...pick(live, Object.keys(ALERT_CHANNEL_DEFAULTS)),
      };
      // The service may answer optional config fields as null; the constructs take them left out.
      for (const [key, value] of Object.entries(props)) if (value === null) delete props[key];
      return { construct, props };
    }
  }
}
