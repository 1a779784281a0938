import { nearest } from '@monitor/api/definitions';
import type {
  DesiredResource,
  ExpectedChannel,
  RouteAssertion,
  RoutedEvent,
  RoutingTest,
  SourceLocation,
} from '@monitor/constructs';
import { type GroupRoute, reaching, routesOf, type SubscriptionRoute } from '../routing/routes.js';
import { type World, worldFromCode } from '../routing/world.js';

/**
 * `passed`, `failed`; `unjudged` when the answer depends on a channel only the account describes
 * (`fromId`, judged from the code); `invalid` when the test is written wrong or names a group
 * that is not there.
 */
export type RoutingTestStatus = 'passed' | 'failed' | 'unjudged' | 'invalid';

/** A channel a route reaches: its name (`payments-slack`, `AlertChannel id 42`) and what it is. */
export interface ReachedChannel {
  channel: string;
  label: string;
}

/** One assertion of a routing test, judged; or the whole test, when it cannot be judged at all. */
export interface RoutingTestResult {
  status: RoutingTestStatus;
  /** The group as the test names it (its logical id). */
  group: string;
  /** Absent for a test that is invalid as a whole. */
  event?: RoutedEvent;
  at?: string;
  expected?: { match: RouteAssertion['match']; channels: string[] };
  /** Who the event reaches, at `at` when given. */
  found?: ReachedChannel[];
  /** The windows on at `at` that silence the group. */
  silencedBy?: string[];
  muted?: boolean;
  /** What the result says, in a sentence: what was found against what was expected. */
  message: string;
  hint?: string;
  location: SourceLocation | undefined;
}

export interface JudgeOptions {
  /** The instant routes are read at when a test gives no `at` (windows are left out then). */
  now: Date;
  /** Logical ids of the code's check groups: a group missing from `world` may still be one of them. */
  codeGroups: readonly string[];
  /** What a group of the code missing from `world` is: not in the account once the plan is applied. */
  missingGroupHint?: string;
}

const nameOf = (c: ExpectedChannel) =>
  'logicalId' in c ? c.logicalId : `AlertChannel.fromId(${String(c.physicalId)})`;

const matches = (c: ExpectedChannel, s: SubscriptionRoute) =>
  'logicalId' in c ? s.logicalId === c.logicalId : String(s.physicalId) === String(c.physicalId);

const reachedOf = (s: SubscriptionRoute): ReachedChannel => ({
  channel: s.logicalId ?? s.channel,
  label: s.label,
});

/** Whether `reached` (subscriptions) meets the assertion. */
function meets(assertion: RouteAssertion, reached: readonly SubscriptionRoute[]): boolean {
  const expectedAll = assertion.channels.every((c) => reached.some((s) => matches(c, s)));
  if (assertion.match === 'atLeast') return expectedAll;
  return expectedAll && reached.every((s) => assertion.channels.some((c) => matches(c, s)));
}

/** The windows of a route on at `at` (each route lists its silencing windows' next occurrence from then). */
function silencingAt(route: GroupRoute, at: string | undefined): string[] {
  if (at === undefined) return [];
  const t = Date.parse(at);
  return route.silencedBy
    .filter((w) => w.next[0] !== undefined && Date.parse(w.next[0].start) <= t)
    .map((w) => w.name);
}

/** `Slack #ops (ops-slack), Email a@b.example (AlertChannel id 3)`, or `no one`. */
function reachedText(found: readonly ReachedChannel[], why: string): string {
  if (found.length === 0) return `no one${why}`;
  return found.map((f) => (f.label === f.channel ? f.label : `${f.label} (${f.channel})`)).join(', ');
}

function judgeAssertion(test: RoutingTest, route: GroupRoute, assertion: RouteAssertion): RoutingTestResult {
  const silencedBy = silencingAt(route, test.at);
  const silenced = silencedBy.length > 0;
  const sending = silenced ? [] : reaching(route, assertion.event);
  // A channel named by id in the code is not read without the account: it may or may not send.
  const unread =
    silenced || route.muted ? [] : route.subscriptions.filter((s) => s.activated && s.unread === true);
  const passes = meets(assertion, sending);
  const status =
    passes === meets(assertion, [...sending, ...unread]) ? (passes ? 'passed' : 'failed') : 'unjudged';
  const found = sending.map(reachedOf);
  const expected = { match: assertion.match, channels: assertion.channels.map(nameOf) };
  const why = route.muted
    ? ' (the group is muted)'
    : silencedBy.length > 0
      ? ` (silenced by ${silencedBy.map((n) => `“${n}”`).join(', ')})`
      : '';
  const wanted = `${assertion.match === 'exactly' ? 'exactly' : 'at least'} ${expected.channels.join(', ') || 'no one'}`;
  const at = test.at === undefined ? '' : `at ${test.at}, `;
  return {
    status,
    group: test.group,
    event: assertion.event,
    ...(test.at === undefined ? {} : { at: test.at }),
    expected,
    found,
    ...(silencedBy.length === 0 ? {} : { silencedBy }),
    ...(route.muted ? { muted: true } : {}),
    message:
      status === 'unjudged'
        ? `${at}cannot be judged from the code: it subscribes to ${unread.map((s) => s.channel).join(', ')} by id (fromId), which only the account describes; expected ${wanted}`
        : `${at}reaches ${reachedText(found, why)}${status === 'passed' ? '' : `; expected ${wanted}`}`,
    ...(status === 'failed' ? { hint: failureHint(test, assertion, route) } : {}),
    ...(status === 'unjudged'
      ? { hint: 'monitor routes --test --live, diff and deploy judge it against the account' }
      : {}),
    location: test.location,
  };
}

function failureHint(test: RoutingTest, assertion: RouteAssertion, route: GroupRoute): string {
  const known = new Set(route.subscriptions.flatMap((s) => (s.logicalId === undefined ? [] : [s.logicalId])));
  const strangers = assertion.channels.filter((c) => 'logicalId' in c && !known.has(c.logicalId));
  const subscribe =
    strangers.length === 0
      ? ''
      : `; ${test.group} has no subscription to ${strangers.map(nameOf).join(', ')}`;
  return `change who the group pages in the code (alertChannels, the channels' send* switches, muted, maintenance windows), or the test if the route is right${subscribe}`;
}

function invalid(test: RoutingTest, message: string, hint: string): RoutingTestResult {
  return { status: 'invalid', group: test.group, message, hint, location: test.location };
}

/** The group a test names, when it is not in `world`: why, with the nearest group of the code. */
function missingGroup(test: RoutingTest, options: JudgeOptions): RoutingTestResult {
  if (options.codeGroups.includes(test.group)) {
    return invalid(
      test,
      `check group ${test.group} is in the code but not in the account once this plan is applied`,
      options.missingGroupHint ?? 'deploy it: a --target plan that leaves it out does not create it',
    );
  }
  const near = nearest(test.group, options.codeGroups);
  return invalid(
    test,
    `the project has no check group ${test.group}`,
    near === undefined
      ? `its groups are: ${options.codeGroups.join(', ') || 'none'}`
      : `did you mean ${near}?`,
  );
}

/**
 * Judge routing tests against `world` (the code, or the account once a plan is applied): one
 * result per assertion, in the order written; one per test that cannot be judged at all. Pure:
 * the clock comes in.
 */
export function judgeRoutingTests(
  tests: readonly RoutingTest[],
  world: World,
  options: JudgeOptions,
): RoutingTestResult[] {
  const tested = new Set(tests.map((t) => t.group));
  // Routes by instant: windows' next occurrences are read from it.
  const byInstant = new Map<string, Map<string, GroupRoute>>();
  const routesAt = (at: string | undefined) => {
    const key = at ?? '';
    let routes = byInstant.get(key);
    if (routes === undefined) {
      const now = at === undefined ? options.now : new Date(at);
      const list = routesOf(world, { now, timeZone: 'UTC', occurrences: 1 }, (g) =>
        tested.has(g.logicalId ?? ''),
      );
      routes = new Map(list.map((r) => [r.logicalId ?? '', r]));
      byInstant.set(key, routes);
    }
    return routes;
  };
  return tests.flatMap((test): RoutingTestResult[] => {
    if (test.problems.length > 0)
      return test.problems.map((p) => invalid(test, `routing test: ${p.message}`, p.hint));
    const route = routesAt(test.at).get(test.group);
    if (route === undefined) return [missingGroup(test, options)];
    return test.assertions.map((a) => judgeAssertion(test, route, a));
  });
}

/** The logical ids of the code's check groups: what a routing test may name. */
export const checkGroupsOf = (code: readonly DesiredResource[]) =>
  code.filter((d) => d.kind === 'CheckGroup').map((d) => d.logicalId);

/**
 * Routing tests judged against the code alone (validate, `routes --test`): the project's groups,
 * channels and windows as declared; a channel named by id (`fromId`) is not read.
 */
export function judgeAgainstCode(
  tests: readonly RoutingTest[],
  code: readonly DesiredResource[],
  now: Date,
): RoutingTestResult[] {
  if (tests.length === 0) return [];
  return judgeRoutingTests(tests, worldFromCode(code), { now, codeGroups: checkGroupsOf(code) });
}
