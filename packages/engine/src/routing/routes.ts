import { KINDS } from '@monitor/api/definitions';
import { isPayloadRef, isProjectPayloadRef } from '@monitor/constructs';
import type { PhysicalId } from '../identity.js';
import {
  ALERT_KIND_NAMES,
  ALERT_KINDS,
  type AlertKind,
  type ChannelDescription,
  describeChannel,
} from './channels.js';
import { type Escalation, escalationOf } from './escalation.js';
import { type Silencing, silencer, silencingWindows } from './silencing.js';
import { nameOf, type Resolver, resolverOf, type World, type WorldResource } from './world.js';

export type { Escalation } from './escalation.js';
export type { OccurrenceView, Silencing } from './silencing.js';
export { nameOf } from './world.js';

export interface RoutingOptions {
  /** The clock comes in: which window occurrences are next. */
  now: Date;
  /** The user's time zone, beside each window's own. */
  timeZone: string;
  /** How many occurrences of each silencing window to list. @default 3 */
  occurrences?: number;
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
  /** A channel named by id in the code, or another project's, not looked up: it may well be there. */
  unread?: true;
  /** Another project's channel (`fromProject`), as the code names it: not resolved to an id. */
  fromProject?: { project: string; logicalId: string };
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
      const named = isPayloadRef(ref)
        ? ref.$ref
        : isProjectPayloadRef(ref)
          ? `${ref.$project}:${ref.$ref.slice(ref.$ref.indexOf(':') + 1)}`
          : `AlertChannel id ${String(ref)}`;
      const why = isPayloadRef(ref)
        ? 'not in the code'
        : isProjectPayloadRef(ref)
          ? `project ${ref.$project}'s: read from the account with --live`
          : fromCode
            ? 'fromId: read from the account with --live'
            : 'not in the account';
      return {
        channel: named,
        ...(typeof ref === 'number' || typeof ref === 'string' ? { physicalId: ref } : {}),
        ...(isProjectPayloadRef(ref)
          ? { fromProject: { project: ref.$project, logicalId: ref.$ref.slice(ref.$ref.indexOf(':') + 1) } }
          : {}),
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

/**
 * The subscriptions an alert of `kind` reaches, in their order: switched on, to a channel that is
 * there and sends that kind; none when the group is muted.
 */
export function reaching(
  route: Pick<GroupRoute, 'subscriptions' | 'muted'>,
  kind: AlertKind,
): SubscriptionRoute[] {
  if (route.muted) return [];
  return route.subscriptions.filter((s) => s.activated && !s.missing && s.sends.includes(kind));
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The switched-on subscriptions to other projects' channels, not read (from the code). */
const otherProjects = (subscriptions: readonly SubscriptionRoute[]) =>
  subscriptions.filter((s) => s.activated && s.unread === true && s.fromProject !== undefined);

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
  windows: ReturnType<typeof silencer>,
): GroupRoute {
  const p = group.payload;
  const tags = strings(p.tags);
  const muted = p.muted === true;
  const subscriptions = subscriptionsOf(group, resolver, fromCode);
  const labels = distinctLabels(subscriptions);
  const reaches = Object.fromEntries(
    ALERT_KINDS.map((k) => [k, reaching({ subscriptions, muted }, k).map((s) => labels.get(s) ?? s.label)]),
  ) as Record<AlertKind, string[]>;
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
    silencedBy: windows.of(tags),
    reaches,
    // Another project's channel may well send failures: what it sends is that project's code.
    noFailureRoute: reaches.failure.length === 0 && (muted || otherProjects(subscriptions).length === 0),
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
  const groups = resolver.all('CheckGroup').filter((g) => g.logicalId !== undefined && only(g));
  // Windows' occurrences need the time-zone database: worked out only when a group is routed.
  if (groups.length === 0) return [];
  const windows = silencer(silencingWindows(resolver.all('MaintenanceWindow'), options));
  return groups
    .map((g) => routeOf(g, resolver, fromCode, windows))
    .sort((a, b) => a.group.localeCompare(b.group));
}

/** How many silencing windows a route line names; the rest are counted. */
const SILENCERS_NAMED = 5;

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
    const others = otherProjects(route.subscriptions);
    if (route.reaches.failure.length === 0 && others.length === 0) parts.push('failures → no one');
    for (const [to, kinds] of byChannels)
      parts.push(`${kinds.map((k) => ALERT_KIND_NAMES[k]).join(', ')} → ${to}`);
    if (others.length > 0)
      parts.push(
        `alerts → ${others.map((s) => s.channel).join(', ')} (${others.length === 1 ? "another project's channel: what it sends is" : "other projects' channels: what they send is"} read with --live)`,
      );
  }
  const gone = route.subscriptions.filter((s) => s.missing && s.unread !== true).length;
  if (gone > 0) parts.push(`${plural(gone, 'subscription')} to a channel that is not there`);
  const unread = route.subscriptions.filter(
    (s) => s.unread === true && s.activated && s.fromProject === undefined,
  ).length;
  if (unread > 0) parts.push(`${plural(unread, 'channel')} by id, not read (--live)`);
  // A line names a few windows: a project may have thousands that silence every group.
  for (const s of route.silencedBy.slice(0, SILENCERS_NAMED))
    parts.push(`silenced by “${s.name}” (${s.schedule})`);
  const more = route.silencedBy.length - SILENCERS_NAMED;
  if (more > 0) parts.push(`silenced by ${plural(more, 'more window')}`);
  if (!route.activated) parts.push('deactivated: its checks do not run');
  return parts.join('; ');
}
