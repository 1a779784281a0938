import type { AlertSettings, ApiCheckDefaults, Location, RetryStrategy, RuntimeId } from '@monitor/api';
import {
  ALERT_SETTINGS_DEFAULT,
  API_CHECK_DEFAULTS_DEFAULT,
  CHECK_GROUP_DEFAULTS,
  ENVIRONMENT_VARIABLE_DEFAULTS,
  RETRY_STRATEGY_OBJECT_DEFAULTS,
} from '@monitor/api/definitions';
import type { AlertChannelRef } from './alert-channels.js';
import {
  Construct,
  type ConstructOptions,
  type FileRef,
  FRESH,
  type ProjectConstructRef,
  projectRef,
  type RemoteRef,
  remoteRef,
  type SynthContext,
} from './construct.js';
import { PROP_PATH, SYNTHESIZE } from './session.js';
import { type KindSource, listOf, replaceProp, requestFields, sourceRef, topField } from './source.js';

/** An environment variable of the group's checks. */
export interface EnvironmentVariableProps {
  /** Variable name. */
  key: string;
  /** Value. Never printed when `secret` is true. */
  value: string;
  /** Locked variables are hidden in the UI. @default false */
  locked?: boolean;
  /** Secret variables come back empty from the API and are never printed by monitor. @default false */
  secret?: boolean;
}

/** A subscription with its switch: `{ channel: oncall, activated: false }` keeps it but sends nothing. */
export interface AlertChannelSubscriptionProps {
  /** The alert channel: a construct, `AlertChannel.fromId(id)` or `AlertChannel.fromProject(project, logicalId)`. */
  channel: AlertChannelRef;
  /** Whether the channel is notified. @default true */
  activated?: boolean;
}

export interface CheckGroupProps {
  /** Name of the group; also what maintenance-window tags match. Required. */
  name: string;
  /** Whether the group's checks run. @default true */
  activated?: boolean;
  /** When true no notifications are sent on failure or recovery. @default false */
  muted?: boolean;
  /** Tags of the group. A set: order does not matter. @default [] */
  tags?: string[];
  /** Data-center locations the checks run in. A set. @default [] */
  locations?: Location[];
  /** How many checks run at once when triggered from CI/CD or the API. Minimum 1. @default 3 */
  concurrency?: number;
  /** Defaults for the group's API checks; fields left out take the service's defaults. @default { url: '', headers: [], queryParameters: [], assertions: [], basicAuth: { username: '', password: '' } } */
  apiCheckDefaults?: ApiCheckDefaults;
  /** Defaults for the group's browser checks. */
  browserCheckDefaults?: string;
  /** Runtime of the checks; null uses the account's default. @default null */
  runtimeId?: RuntimeId | null;
  /** Environment variables of the checks, at most 100. @default [] */
  environmentVariables?: EnvironmentVariableProps[];
  /** Alert channels the group is subscribed to: constructs, `AlertChannel.fromId(id)`, `AlertChannel.fromProject(project, logicalId)`, or `{ channel, activated }`. @default [] */
  alertChannels?: (AlertChannelRef | AlertChannelSubscriptionProps)[];
  /** Snippet run in the setup phase of the group's API checks. @default null */
  setupSnippetId?: number | null;
  /** Snippet run in the teardown phase. @default null */
  tearDownSnippetId?: number | null;
  /** Node.js code for the setup phase, or `{ file }` relative to this source file. @default null */
  localSetupScript?: string | FileRef | null;
  /** Node.js code for the teardown phase, or `{ file }`. @default null */
  localTearDownScript?: string | FileRef | null;
  /** Private locations to run in. A set. @default [] */
  privateLocations?: string[];
  /** When true, checks run in parallel in all selected locations; null leaves it to the service. @default false */
  runParallel?: boolean | null;
  /** Alert settings; fields left out take the service's defaults; null uses none. @default RUN_BASED, failedRunThreshold 1 */
  alertSettings?: AlertSettings | null;
  /** A retry strategy object or `FALLBACK`. @default 'FALLBACK' */
  retryStrategy?: RetryStrategy | null;
  /** When true, account-level alert settings apply instead of the group's. @default null */
  useGlobalAlertSettings?: boolean | null;
  /**
   * Retry a failed run once before alerting.
   * @deprecated Superseded by `retryStrategy`, which says how often and how to retry.
   * @default false
   */
  doubleCheck?: boolean;
}

function fill<T extends object>(defaults: T, value: object | null | undefined): T {
  return { ...FRESH, ...defaults, ...(value ?? {}) } as T;
}

/** A check group: `new CheckGroup('payments-api', { name: 'Payments API', locations: ['eu-west-1'] })`. */
export class CheckGroup extends Construct<CheckGroupProps> {
  readonly kind = 'CheckGroup' as const;

  constructor(logicalId: string, props: CheckGroupProps, options?: ConstructOptions) {
    super(logicalId, props, options);
  }

  /** An existing group, by id: referred to, never created, changed or deleted. */
  static fromId(id: number): RemoteRef<'CheckGroup'> {
    return remoteRef('CheckGroup', id);
  }

  /** A check group another project owns (`projectName`), by its logical id there: referred to, never created, changed or deleted. */
  static fromProject(project: string, logicalId: string): ProjectConstructRef<'CheckGroup'> {
    return projectRef('CheckGroup', project, logicalId);
  }

  /** The group's name, which is what maintenance-window tags match. */
  get name(): string {
    return this.props.name;
  }

  [SYNTHESIZE](ctx: SynthContext): Record<string, unknown> {
    const { alertChannels, environmentVariables, localSetupScript, localTearDownScript, ...rest } = {
      ...ctx.defaults,
      ...this.props,
    } as CheckGroupProps;
    const payload: Record<string, unknown> = { ...FRESH, ...CHECK_GROUP_DEFAULTS, ...rest };
    payload.apiCheckDefaults = fill(API_CHECK_DEFAULTS_DEFAULT, rest.apiCheckDefaults);
    if (rest.alertSettings !== null) payload.alertSettings = fill(ALERT_SETTINGS_DEFAULT, rest.alertSettings);
    if (typeof rest.retryStrategy === 'object' && rest.retryStrategy !== null) {
      payload.retryStrategy = { ...FRESH, ...RETRY_STRATEGY_OBJECT_DEFAULTS, ...rest.retryStrategy };
    }
    payload.environmentVariables = (environmentVariables ?? []).map((v) => ({
      ...FRESH,
      ...ENVIRONMENT_VARIABLE_DEFAULTS,
      ...v,
    }));
    payload.alertChannelSubscriptions = (alertChannels ?? []).map((entry, i) => {
      const subscription =
        typeof entry === 'object' && entry !== null && 'channel' in entry ? entry : { channel: entry };
      return {
        alertChannelId: ctx.ref(subscription.channel, 'AlertChannel', `alertChannels[${i}]`),
        activated: subscription.activated ?? true,
      };
    });
    payload.localSetupScript = ctx.text(localSetupScript, 'localSetupScript') ?? null;
    payload.localTearDownScript = ctx.text(localTearDownScript, 'localTearDownScript') ?? null;
    return payload;
  }

  override [PROP_PATH](payloadPath: string): string {
    return payloadPath
      .replace(/^alertChannelSubscriptions\[(\d+)\]\.alertChannelId$/, 'alertChannels[$1]')
      .replace(/^alertChannelSubscriptions/, 'alertChannels');
  }
}

/** A live check group as code: its subscriptions become `alertChannels`, references to the channels. */
export const checkGroupSource: KindSource = {
  module: 'check-groups',
  source: (live) => {
    const alertChannels = listOf(live.alertChannelSubscriptions).map((subscription) => {
      const channel = sourceRef('AlertChannel', subscription.alertChannelId);
      return subscription.activated === false ? { channel, activated: false } : channel;
    });
    const props = replaceProp(requestFields(live, 'CheckGroup'), 'alertChannelSubscriptions', {
      alertChannels,
    });
    return { construct: CheckGroup.name, props };
  },
  propOf: (path) => {
    // Subscriptions are written as the channels they reference: the list is written again whole.
    if (topField(path) === 'alertChannelSubscriptions') return { prop: 'alertChannels' };
    return { prop: topField(path), path };
  },
};
