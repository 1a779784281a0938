import { nearest } from '@monitor/api/definitions';
import type { AlertChannelRef } from './alert-channels.js';
import type { CheckGroup } from './check-group.js';
import {
  CallerLocator,
  type ConstructLike,
  captureStack,
  isConstruct,
  isProjectConstructRef,
  isRemote,
  type SourceLocation,
} from './session.js';

/** The alerts routing tells apart: what a check's state change can send. */
export type RoutedEvent = 'failure' | 'degraded' | 'recovery' | 'sslExpiry';
export const ROUTED_EVENTS: readonly RoutedEvent[] = ['failure', 'degraded', 'recovery', 'sslExpiry'];

/**
 * A channel in a routing test: its logical id, an alert-channel construct, `AlertChannel.fromId(id)`,
 * or another project's channel, `AlertChannel.fromProject('platform', 'pagerduty-oncall')` (or the
 * string `'platform:pagerduty-oncall'`, as a route line names it).
 */
export type RoutedChannel = string | AlertChannelRef;

/** Exactly these channels (`[]`: no one is told), or `{ atLeast: [...] }`: these and maybe others. */
export type ChannelExpectation = readonly RoutedChannel[] | { readonly atLeast: readonly RoutedChannel[] };

/** Who each event should reach, and when. */
export type RouteExpectations = { readonly [E in RoutedEvent]?: ChannelExpectation } & {
  /**
   * Judge the route at this instant, maintenance windows included (a window on then silences the
   * group): an ISO 8601 instant with its zone, `'2027-01-10T02:30:00Z'`. Without it, the route
   * when no window is on.
   */
  readonly at?: string;
};

/**
 * A channel as a routing test names it: by the logical id the project gives it, by its id in the
 * account, or by another project's name and the logical id that project gives it.
 */
export type ExpectedChannel =
  | { readonly logicalId: string }
  | { readonly physicalId: number | string }
  | { readonly project: string; readonly logicalId: string };

/** One event's expectation: exactly these channels, or at least these. */
export interface RouteAssertion {
  readonly event: RoutedEvent;
  readonly match: 'exactly' | 'atLeast';
  readonly channels: readonly ExpectedChannel[];
}

/** What is wrong with how a routing test is written. */
export interface RoutingTestProblem {
  readonly message: string;
  readonly hint: string;
}

/** The brand of routing tests: a registered symbol, so that two copies of this package agree. */
export const ROUTING_TEST_BRAND: unique symbol = Symbol.for('@monitor/constructs.routingTest') as never;

/** An assertion about who gets paged, from `expectRoutes`: judged by validate, diff, deploy and `routes --test`. */
export interface RoutingTest {
  readonly [ROUTING_TEST_BRAND]: true;
  /** The check group's logical id ('' when it was not given as one). */
  readonly group: string;
  readonly assertions: readonly RouteAssertion[];
  /** The instant judged, normalised (`2027-01-10T02:30:00.000Z`); undefined: no window on. */
  readonly at: string | undefined;
  /** How the test is written wrong: each is an error at its line, and the test is not judged. */
  readonly problems: readonly RoutingTestProblem[];
  /** Where `expectRoutes` was called: the line a failure is reported at. */
  readonly location: SourceLocation | undefined;
}

export function isRoutingTest(value: unknown): value is RoutingTest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[ROUTING_TEST_BRAND] === true
  );
}

/** An instant with its zone: a bare date or a local time would be read in the zone of whoever runs it. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const EVENTS_LIST = ROUTED_EVENTS.join(', ');

const describe = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value;

function groupOf(group: unknown, problems: RoutingTestProblem[]): string {
  const hint =
    "name a check group of the project: its logical id ('payments-api') or the CheckGroup construct";
  if (typeof group === 'string' && group !== '')
    return group.startsWith('CheckGroup:') ? group.slice(11) : group;
  if (isRemote(group)) {
    problems.push({
      message: `${group.kind}.fromId(${String(group.physicalId)}) is not a check group of the project: routing tests judge the project's groups`,
      hint,
    });
  } else if (isConstruct(group) && group.kind !== 'CheckGroup') {
    problems.push({ message: `${group.kind} ${group.logicalId} is not a check group`, hint });
  } else if (isConstruct(group)) {
    return group.logicalId;
  } else {
    problems.push({ message: `the group is ${describe(group)}, not a check group`, hint });
  }
  return '';
}

/** `'pagerduty-oncall'`, `'AlertChannel:pagerduty-oncall'`, or another project's `'platform:pagerduty-oncall'`. */
function namedChannel(name: string): ExpectedChannel {
  if (name.startsWith('AlertChannel:')) return { logicalId: name.slice(13) };
  // A logical id never holds a colon: one names the project before it.
  const colon = name.indexOf(':');
  if (colon > 0 && colon < name.length - 1)
    return { project: name.slice(0, colon), logicalId: name.slice(colon + 1) };
  return { logicalId: name };
}

function channelOf(channel: unknown, where: string, problems: RoutingTestProblem[]): ExpectedChannel[] {
  if (typeof channel === 'string' && channel !== '') return [namedChannel(channel)];
  if (isRemote(channel) && channel.kind === 'AlertChannel') return [{ physicalId: channel.physicalId }];
  if (isProjectConstructRef(channel) && channel.kind === 'AlertChannel')
    return [{ project: channel.project, logicalId: channel.logicalId }];
  if (isConstruct(channel) && channel.kind === 'AlertChannel') return [{ logicalId: channel.logicalId }];
  const what =
    isConstruct(channel) || isProjectConstructRef(channel)
      ? `${channel.kind} ${(channel as ConstructLike).logicalId}`
      : describe(channel);
  problems.push({
    message: `${where} names ${what}, not an alert channel`,
    hint: "name channels by logical id ('pagerduty-oncall'), by construct, with AlertChannel.fromId(id), or another project's with AlertChannel.fromProject('platform', 'pagerduty-oncall')",
  });
  return [];
}

function assertionOf(event: RoutedEvent, value: unknown, problems: RoutingTestProblem[]): RouteAssertion[] {
  const atLeast =
    typeof value === 'object' && value !== null && !Array.isArray(value) && 'atLeast' in value
      ? (value as { atLeast: unknown }).atLeast
      : undefined;
  const list = Array.isArray(value) ? value : atLeast;
  if (!Array.isArray(list)) {
    problems.push({
      message: `${event} is ${describe(value)}: expected a list of channels or { atLeast: [...] }`,
      hint: `${event}: ['pagerduty-oncall'] for exactly these channels, ${event}: [] for no one, ${event}: { atLeast: ['slack-ops'] } for these and maybe others`,
    });
    return [];
  }
  const channels = list.flatMap((c, i) => channelOf(c, `${event}[${i}]`, problems));
  return [{ event, match: Array.isArray(value) ? 'exactly' : 'atLeast', channels }];
}

function atOf(at: unknown, problems: RoutingTestProblem[]): string | undefined {
  if (at === undefined) return undefined;
  const ms = typeof at === 'string' && INSTANT.test(at) ? Date.parse(at) : Number.NaN;
  if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  problems.push({
    message: `at is ${describe(at)}: expected an ISO 8601 instant with its zone`,
    hint: "e.g. at: '2027-01-10T02:30:00Z' (or with an offset, '2027-01-10T03:30:00+01:00')",
  });
  return undefined;
}

function assertionsOf(expectations: unknown, problems: RoutingTestProblem[]): RouteAssertion[] {
  if (typeof expectations !== 'object' || expectations === null || Array.isArray(expectations)) {
    problems.push({
      message: `the expectations are ${describe(expectations)}, not an object`,
      hint: "e.g. expectRoutes('payments-api', { failure: ['pagerduty-oncall'] })",
    });
    return [];
  }
  const assertions: RouteAssertion[] = [];
  for (const [key, value] of Object.entries(expectations)) {
    if (key === 'at') continue;
    if ((ROUTED_EVENTS as readonly string[]).includes(key)) {
      assertions.push(...assertionOf(key as RoutedEvent, value, problems));
      continue;
    }
    const near = nearest(key, ROUTED_EVENTS);
    problems.push({
      message: `${key} is not an event routing knows: ${EVENTS_LIST}`,
      hint: near === undefined ? `name one of ${EVENTS_LIST}` : `did you mean ${near}?`,
    });
  }
  if (assertions.length === 0 && problems.length === 0) {
    problems.push({
      message: 'expects nothing: no event is named',
      hint: `name at least one of ${EVENTS_LIST}, e.g. { failure: ['pagerduty-oncall'] }`,
    });
  }
  return assertions;
}

/**
 * A routing test: who each event of a check group's checks should page, from the code, once it
 * is deployed. Put it in the config's `routingTests`; validate, diff, deploy and
 * `monitor routes --test` judge it, and a failure is an error at this call's line (deploy refuses).
 *
 * ```ts
 * expectRoutes('payments-api', { failure: ['pagerduty-oncall'], recovery: ['pagerduty-oncall'] })
 * expectRoutes(search, { failure: { atLeast: [slackSearch] } })
 * expectRoutes('payments-api', { failure: [], at: '2027-01-10T02:30:00Z' }) // silenced by the DB window
 * ```
 *
 * @param group the check group: its logical id or the construct
 * @param expectations per event (`failure`, `degraded`, `recovery`, `sslExpiry`): exactly these
 * channels (`[]`: no one), or `{ atLeast: [...] }`; `at`, an instant to judge with the maintenance
 * windows on then
 */
export function expectRoutes(group: string | CheckGroup, expectations: RouteExpectations): RoutingTest {
  const locator = new CallerLocator(captureStack(expectRoutes));
  const problems: RoutingTestProblem[] = [];
  const logicalId = groupOf(group, problems);
  const assertions = assertionsOf(expectations, problems);
  const isObject = typeof expectations === 'object' && expectations !== null && !Array.isArray(expectations);
  const at = atOf(isObject ? (expectations as { at?: unknown }).at : undefined, problems);
  return Object.freeze({
    [ROUTING_TEST_BRAND]: true as const,
    group: logicalId,
    assertions,
    at,
    problems,
    get location() {
      return locator.location;
    },
  });
}
