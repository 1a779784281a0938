import { ALERT_SETTINGS_DEFAULT, KINDS } from '@monitor/api';
import { isPayloadRef } from '@monitor/constructs';
import type { PhysicalId } from '../identity.js';
import { stateKey } from '../state/state.js';
import {
  ALERT_KIND_NAMES,
  ALERT_KINDS,
  type AlertKind,
  type ChannelDescription,
  describeChannel,
} from './channels.js';
import { describeSchedule, nextOccurrences, type Occurrence, scheduleOf } from './schedule.js';
import { formatSpan, isoInZone } from './time-zone.js';
import { type Resolver, resolverOf, type World, type WorldResource } from './world.js';

export interface RoutingOptions {
  /** The clock comes in: which window occurrences are next. */
  now: Date;
  /** The user's time zone, beside each window's own. */
  timeZone: string;
  /** How many occurrences of each silencing window to list. @default 3 */
  occurrences?: number;
}

/** How resources are named in routes: `CheckGroup:payments`, or `CheckGroup id 42` when the project has no name for it. */
export function nameOf(r: Pick<WorldResource, 'kind' | 'logicalId' | 'physicalId'>): string {
  if (r.logicalId !== undefined) return stateKey(r.kind, r.logicalId);
  return `${r.kind} id ${String(r.physicalId)}`;
}

/** A group's subscription to a channel, with what the channel sends. */
export interface SubscriptionRoute extends ChannelDescription {
  /** The channel: `AlertChannel:logicalId` or `AlertChannel id 42`. */
  channel: string;
  logicalId?: string;
  physicalId?: PhysicalId;
  /** Whether the subscription is switched on: an inactive one sends nothing. */
  activated: boolean;
  /**
   * The channel is not found: deleted from the account, or (from the code) a `fromId` channel,
   * which is not read without `--live` (then `unread`).
   */
  missing: boolean;
  /** A channel named by id in the code, not looked up: it may well be there. */
  unread?: true;
}

/** When alerts are sent at all: the group's escalation settings, or the account's. */
export interface Escalation {
  /** The account's global alert settings apply instead of the group's. */
  useGlobalAlertSettings: boolean;
  escalationType: 'RUN_BASED' | 'TIME_BASED' | null;
  failedRunThreshold?: number;
  minutesFailingThreshold?: number;
  reminders: { amount: number; interval: number };
  parallelRunFailureThreshold: { enabled: boolean; percentage: number };
  /** In words: `after 2 failed runs, no reminders`. */
  description: string;
}

/** One time a window is on, in UTC, in its own zone and in the user's. */
export interface OccurrenceView {
  start: string;
  end: string;
  window: { timeZone: string; start: string; end: string };
  user: { timeZone: string; start: string; end: string };
  /** `2026-12-01 02:00–04:00 Europe/Berlin (01:00–03:00 UTC)`. */
  text: string;
}

/** A maintenance window that silences a group's alerts while it is on. */
export interface Silencing {
  window: string;
  name: string;
  logicalId?: string;
  physicalId?: PhysicalId;
  /** `silenceAllAlerts`, or the `silenceAlertsTags` that the group's tags meet. */
  reason: 'silenceAllAlerts' | 'silenceAlertsTags';
  tags: string[];
  timeZone: string;
  /** The schedule in one line, in the window's zone. */
  schedule: string;
  next: OccurrenceView[];
}

/** Where the alerts of a check group's checks go. */
export interface GroupRoute {
  /** `CheckGroup:logicalId`, or `CheckGroup id 42`. */
  group: string;
  logicalId?: string;
  physicalId?: PhysicalId;
  name: string;
  tags: string[];
  /** Whether its checks run at all. */
  activated: boolean;
  /** A muted group sends nothing. */
  muted: boolean;
  subscriptions: SubscriptionRoute[];
  escalation: Escalation;
  /** Windows with an occurrence now or to come that silence it. */
  silencedBy: Silencing[];
  /** Who each kind of alert reaches (channel labels): activated subscriptions to channels that send it; none when muted. */
  reaches: Record<AlertKind, string[]>;
  /** No one is told when its checks fail: muted, or no activated subscription to a channel that sends failures. */
  noFailureRoute: boolean;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);

function subscriptionsOf(group: WorldResource, channels: Resolver, fromCode: boolean): SubscriptionRoute[] {
  const list = Array.isArray(group.payload.alertChannelSubscriptions)
    ? (group.payload.alertChannelSubscriptions as Record<string, unknown>[])
    : [];
  return list.map((s) => {
    const ref = s.alertChannelId;
    const activated = s.activated !== false;
    const channel = channels.resolve('AlertChannel', ref);
    if (channel === undefined) {
      const named = isPayloadRef(ref) ? ref.$ref : `AlertChannel id ${String(ref)}`;
      const why = isPayloadRef(ref)
        ? 'not in the code'
        : fromCode
          ? 'fromId: read from the account with --live'
          : 'not in the account';
      return {
        channel: named,
        ...(typeof ref === 'number' || typeof ref === 'string' ? { physicalId: ref } : {}),
        activated,
        missing: true,
        ...(fromCode && !isPayloadRef(ref) ? { unread: true as const } : {}),
        type: 'UNKNOWN',
        target: '',
        label: `${named} (${why})`,
        sends: [],
      };
    }
    return {
      channel: nameOf(channel),
      ...(channel.logicalId === undefined ? {} : { logicalId: channel.logicalId }),
      ...(channel.physicalId === undefined ? {} : { physicalId: channel.physicalId }),
      activated,
      missing: false,
      ...describeChannel(channel.payload),
    };
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `settings[field][key]` when it is a number, else `fallback`. */
function numberAt(settings: Record<string, unknown>, field: string, key: string, fallback: number): number {
  const value = (settings[field] as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' ? value : fallback;
}

function escalationOf(payload: Record<string, unknown>): Escalation {
  const global = payload.useGlobalAlertSettings === true;
  const settings: Record<string, unknown> | undefined =
    payload.alertSettings === null || typeof payload.alertSettings !== 'object'
      ? undefined
      : { ...ALERT_SETTINGS_DEFAULT, ...(payload.alertSettings as Record<string, unknown>) };
  const type =
    settings?.escalationType === 'TIME_BASED' || settings?.escalationType === 'RUN_BASED'
      ? settings.escalationType
      : null;
  const d = ALERT_SETTINGS_DEFAULT;
  const s = settings ?? {};
  const runs = numberAt(
    s,
    'runBasedEscalation',
    'failedRunThreshold',
    d.runBasedEscalation.failedRunThreshold,
  );
  const minutes = numberAt(
    s,
    'timeBasedEscalation',
    'minutesFailingThreshold',
    d.timeBasedEscalation.minutesFailingThreshold,
  );
  const reminders = {
    amount: numberAt(s, 'reminders', 'amount', d.reminders.amount),
    interval: numberAt(s, 'reminders', 'interval', d.reminders.interval),
  };
  const parallel = {
    enabled: (s.parallelRunFailureThreshold as { enabled?: unknown } | undefined)?.enabled === true,
    percentage: numberAt(
      s,
      'parallelRunFailureThreshold',
      'percentage',
      d.parallelRunFailureThreshold.percentage,
    ),
  };
  const words: string[] = [];
  if (global) words.push("the account's global alert settings (the group's are not used)");
  else if (settings === undefined) words.push('none set');
  else {
    words.push(
      type === 'TIME_BASED'
        ? `after ${plural(minutes, 'minute')} failing`
        : `after ${plural(runs, 'failed run')}`,
    );
    words.push(
      reminders.amount > 0
        ? `then ${plural(reminders.amount, 'reminder')} every ${plural(reminders.interval, 'minute')}`
        : 'no reminders',
    );
    if (parallel.enabled) words.push(`when ${parallel.percentage}% of parallel runs fail`);
  }
  return {
    useGlobalAlertSettings: global,
    escalationType: type,
    ...(type === 'RUN_BASED' ? { failedRunThreshold: runs } : {}),
    ...(type === 'TIME_BASED' ? { minutesFailingThreshold: minutes } : {}),
    reminders,
    parallelRunFailureThreshold: parallel,
    description: words.join(', '),
  };
}

/** An occurrence in UTC, in the window's zone and in the user's. */
export function occurrenceView(o: Occurrence, windowZone: string, userZone: string): OccurrenceView {
  const inWindow = formatSpan(o.start, o.end, windowZone);
  return {
    start: new Date(o.start).toISOString(),
    end: new Date(o.end).toISOString(),
    window: {
      timeZone: windowZone,
      start: isoInZone(o.start, windowZone),
      end: isoInZone(o.end, windowZone),
    },
    user: { timeZone: userZone, start: isoInZone(o.start, userZone), end: isoInZone(o.end, userZone) },
    text: windowZone === userZone ? inWindow : `${inWindow} (${formatSpan(o.start, o.end, userZone)})`,
  };
}

/** A window that silences alerts and is on now or will be: what every group it silences shows of it. */
interface SilencingWindow {
  all: boolean;
  tags: string[];
  /** Its entry in a route, less the reason and tags, which depend on the group. */
  shown: Omit<Silencing, 'reason' | 'tags'>;
}

/**
 * The windows that silence anything, with an occurrence now or to come: worked out once per
 * window, not once per group (occurrences need the time-zone database; 10,000 groups share them).
 */
function silencingWindows(windows: readonly WorldResource[], options: RoutingOptions): SilencingWindow[] {
  const out: SilencingWindow[] = [];
  for (const w of windows) {
    const all = w.payload.silenceAllAlerts === true;
    const tags = strings(w.payload.silenceAlertsTags);
    if (!all && tags.length === 0) continue;
    const schedule = scheduleOf(w.payload);
    if (schedule === undefined) continue;
    const next = nextOccurrences(schedule, options.now.getTime(), options.occurrences ?? 3);
    if (next.length === 0) continue;
    out.push({
      all,
      tags,
      shown: {
        window: nameOf(w),
        name: typeof w.payload.name === 'string' ? w.payload.name : nameOf(w),
        ...(w.logicalId === undefined ? {} : { logicalId: w.logicalId }),
        ...(w.physicalId === undefined ? {} : { physicalId: w.physicalId }),
        timeZone: schedule.timeZone,
        schedule: describeSchedule(schedule),
        next: next.map((o) => occurrenceView(o, schedule.timeZone, options.timeZone)),
      },
    });
  }
  return out.sort((a, b) => a.shown.name.localeCompare(b.shown.name));
}

/** The windows that silence a group with these tags: `silenceAllAlerts`, or `silenceAlertsTags` it meets. */
function silencingOf(tags: readonly string[], windows: readonly SilencingWindow[]): Silencing[] {
  const out: Silencing[] = [];
  for (const w of windows) {
    const met = w.tags.filter((t) => tags.includes(t));
    if (!w.all && met.length === 0) continue;
    out.push({
      ...w.shown,
      reason: w.all ? 'silenceAllAlerts' : 'silenceAlertsTags',
      tags: w.all ? [] : met,
    });
  }
  return out;
}

/** Labels, with the channel's name added where two channels would read the same. */
function distinctLabels(subscriptions: SubscriptionRoute[]): Map<SubscriptionRoute, string> {
  const count = new Map<string, number>();
  for (const s of subscriptions) count.set(s.label, (count.get(s.label) ?? 0) + 1);
  return new Map(
    subscriptions.map((s) => [
      s,
      (count.get(s.label) ?? 0) > 1 ? `${s.label} [${s.channel.slice(s.channel.indexOf(':') + 1)}]` : s.label,
    ]),
  );
}

function routeOf(
  group: WorldResource,
  resolver: Resolver,
  fromCode: boolean,
  windows: readonly SilencingWindow[],
): GroupRoute {
  const p = group.payload;
  const tags = strings(p.tags);
  const muted = p.muted === true;
  const subscriptions = subscriptionsOf(group, resolver, fromCode);
  const labels = distinctLabels(subscriptions);
  const reaches = Object.fromEntries(ALERT_KINDS.map((k) => [k, [] as string[]])) as Record<
    AlertKind,
    string[]
  >;
  if (!muted) {
    for (const s of subscriptions) {
      if (!s.activated || s.missing) continue;
      for (const kind of s.sends) reaches[kind].push(labels.get(s) ?? s.label);
    }
  }
  return {
    group: nameOf(group),
    ...(group.logicalId === undefined ? {} : { logicalId: group.logicalId }),
    ...(group.physicalId === undefined ? {} : { physicalId: group.physicalId }),
    name: KINDS.CheckGroup.displayName(p) ?? nameOf(group),
    tags,
    activated: p.activated !== false,
    muted,
    subscriptions,
    escalation: escalationOf(p),
    silencedBy: silencingOf(tags, windows),
    reaches,
    noFailureRoute: reaches.failure.length === 0,
  };
}

/**
 * Where the alerts of each check group of the project in `world` go (the groups it has a logical id
 * for), sorted by logical id. Pure: the clock and the user's zone come in.
 */
export function routesOf(
  world: World,
  options: RoutingOptions,
  /** Only the groups this accepts. @default every group of the project */
  only: (group: WorldResource) => boolean = () => true,
): GroupRoute[] {
  const resolver = resolverOf(world);
  // Without the account, a channel named by id (`fromId`) cannot be looked up.
  const fromCode = world.resources.every((r) => r.physicalId === undefined) && world.account === undefined;
  const windows = silencingWindows(resolver.all('MaintenanceWindow'), options);
  return resolver
    .all('CheckGroup')
    .filter((g) => g.logicalId !== undefined && only(g))
    .map((g) => routeOf(g, resolver, fromCode, windows))
    .sort((a, b) => a.group.localeCompare(b.group));
}

/**
 * A route in one line: who each kind of alert reaches (kinds that reach the same channels
 * together), muting, and the windows that silence it:
 * `failures, recoveries → PagerDuty (Payments), Slack #payments; silenced by “Deploys” (…)`.
 */
export function routeLine(route: GroupRoute): string {
  const parts: string[] = [];
  if (route.muted) parts.push('muted: nothing is sent');
  else {
    const byChannels = new Map<string, AlertKind[]>();
    for (const kind of ALERT_KINDS) {
      const to = route.reaches[kind];
      if (to.length === 0) continue;
      const key = to.join(', ');
      byChannels.set(key, [...(byChannels.get(key) ?? []), kind]);
    }
    if (route.reaches.failure.length === 0) parts.push('failures → no one');
    for (const [to, kinds] of byChannels)
      parts.push(`${kinds.map((k) => ALERT_KIND_NAMES[k]).join(', ')} → ${to}`);
  }
  const gone = route.subscriptions.filter((s) => s.missing && s.unread !== true).length;
  if (gone > 0) parts.push(`${plural(gone, 'subscription')} to a channel that is not there`);
  const unread = route.subscriptions.filter((s) => s.unread === true && s.activated).length;
  if (unread > 0) parts.push(`${plural(unread, 'channel')} by id, not read (--live)`);
  for (const s of route.silencedBy) parts.push(`silenced by “${s.name}” (${s.schedule})`);
  if (!route.activated) parts.push('deactivated: its checks do not run');
  return parts.join('; ');
}
