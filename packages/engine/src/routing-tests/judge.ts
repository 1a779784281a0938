import { nearest } from '@monitor/api/definitions';
import type {
  DesiredResource,
  ExpectedChannel,
  RouteAssertion,
  RoutedEvent,
  RoutingTest,
  SourceLocation,
} from '@monitor/constructs';
import type { PhysicalId } from '../identity.js';
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
  /**
   * The ids of other projects' channels, by `project:logicalId`, as their states record them: how a
   * subscription by id in the account is told to be another project's channel a test names.
   */
  projectChannels?: ProjectChannels;
}

/** Other projects' channels' ids, by `project:logicalId`. */
export type ProjectChannels = ReadonlyMap<string, PhysicalId>;

const nameOf = (c: ExpectedChannel) =>
  'project' in c
    ? `${c.project}:${c.logicalId}`
    : 'logicalId' in c
      ? c.logicalId
      : `AlertChannel.fromId(${String(c.physicalId)})`;

/** Whether subscription `s` is channel `c`: undefined when that cannot be told. */
type Match = boolean | undefined;

function projectMatch(
  c: { project: string; logicalId: string },
  s: SubscriptionRoute,
  projectChannels: ProjectChannels | undefined,
): Match {
  if (s.fromProject !== undefined)
    return s.fromProject.project === c.project && s.fromProject.logicalId === c.logicalId;
  if (s.logicalId !== undefined) return false;
  // A channel by id: the other project's state says which id its channel has, when it was read.
  const id = projectChannels?.get(`${c.project}:${c.logicalId}`);
  if (s.unread === true || id === undefined) return s.physicalId === undefined ? false : undefined;
  return String(s.physicalId) === String(id);
}

function matchOf(
  c: ExpectedChannel,
  s: SubscriptionRoute,
  projectChannels: ProjectChannels | undefined,
): Match {
  if ('project' in c) return projectMatch(c, s, projectChannels);
  if ('logicalId' in c) return s.logicalId === c.logicalId;
  // Another project's channel, not resolved: it may be the one with that id.
  if (s.fromProject !== undefined && s.unread === true) return undefined;
  return String(s.physicalId) === String(c.physicalId);
}

/** The name of a channel another project owns, by its id, when its state was read. */
function projectNameOf(
  s: SubscriptionRoute,
  projectChannels: ProjectChannels | undefined,
): string | undefined {
  if (s.logicalId !== undefined || s.physicalId === undefined) return undefined;
  for (const [name, id] of projectChannels ?? []) if (String(id) === String(s.physicalId)) return name;
  return undefined;
}

const reachedOf = (s: SubscriptionRoute, projectChannels: ProjectChannels | undefined): ReachedChannel => ({
  channel: s.logicalId ?? projectNameOf(s, projectChannels) ?? s.channel,
  label: s.label,
});

/** Whether `reached` meets the assertion, with `match(c, s)` telling which is which. */
function meets(
  assertion: RouteAssertion,
  reached: readonly number[],
  match: (c: number, s: number) => boolean,
): boolean {
  const expected = assertion.channels.map((_, i) => i);
  const expectedAll = expected.every((c) => reached.some((s) => match(c, s)));
  if (assertion.match === 'atLeast') return expectedAll;
  return expectedAll && reached.every((s) => expected.some((c) => match(c, s)));
}

/** More unknowns than this (each doubles the cases) and the assertion is left unjudged. */
const MAX_UNKNOWNS = 12;

/**
 * Whether the assertion can pass and whether it can fail, over every case of what is not known:
 * whether each unread channel sends the event, and whether each channel is one the test names
 * when that cannot be told.
 */
function outcomes(
  assertion: RouteAssertion,
  sending: readonly SubscriptionRoute[],
  unread: readonly SubscriptionRoute[],
  projectChannels: ProjectChannels | undefined,
): { canPass: boolean; canFail: boolean } {
  const candidates = [...sending, ...unread];
  const known = assertion.channels.map((c) => candidates.map((s) => matchOf(c, s, projectChannels)));
  const open = known.flatMap((row, c) => row.flatMap((m, s) => (m === undefined ? [[c, s] as const] : [])));
  const bits = unread.length + open.length;
  if (bits > MAX_UNKNOWNS) return { canPass: true, canFail: true };
  let canPass = false;
  let canFail = false;
  for (let mask = 0; mask < 2 ** bits; mask++) {
    const bit = (i: number) => (mask & (1 << i)) !== 0;
    const reached = candidates.map((_, s) => s).filter((s) => s < sending.length || bit(s - sending.length));
    const guessed = new Map(open.map(([c, s], i) => [`${c}/${s}`, bit(unread.length + i)]));
    const match = (c: number, s: number) => known[c]?.[s] ?? guessed.get(`${c}/${s}`) === true;
    if (meets(assertion, reached, match)) canPass = true;
    else canFail = true;
    if (canPass && canFail) break;
  }
  return { canPass, canFail };
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

/** Why an assertion cannot be judged: the channels not read, or those not told apart. */
function unjudgedWhy(
  assertion: RouteAssertion,
  sending: readonly SubscriptionRoute[],
  unread: readonly SubscriptionRoute[],
  projectChannels: ProjectChannels | undefined,
): { why: string; hint: string } {
  if (unread.length > 0) {
    const what = unread.map((s) =>
      s.fromProject === undefined
        ? `${s.channel} by id (fromId), which only the account describes`
        : `${s.channel}, project ${s.fromProject.project}'s channel, whose send* switches only that project's code sets`,
    );
    return {
      why: `cannot be judged from the code: it subscribes to ${what.join('; ')}`,
      hint: 'monitor routes --test --live, diff and deploy judge it against the account',
    };
  }
  const projects = [
    ...new Set(
      assertion.channels.flatMap((c) =>
        'project' in c && sending.some((s) => matchOf(c, s, projectChannels) === undefined)
          ? [c.project]
          : [],
      ),
    ),
  ];
  return {
    why: `cannot be judged: which channel in the account is ${projects.map((p) => `project ${p}'s`).join(', ')} is not known, its state records no id for it`,
    hint: `deploy ${projects.join(', ')} first (its state says which channel is which), then judge again`,
  };
}

function judgeAssertion(
  test: RoutingTest,
  route: GroupRoute,
  assertion: RouteAssertion,
  projectChannels: ProjectChannels | undefined,
): RoutingTestResult {
  const silencedBy = silencingAt(route, test.at);
  const silenced = silencedBy.length > 0;
  const sending = silenced ? [] : reaching(route, assertion.event);
  // A channel named by id in the code, or another project's, is not read without the account: it
  // may or may not send.
  const unread =
    silenced || route.muted ? [] : route.subscriptions.filter((s) => s.activated && s.unread === true);
  const { canPass, canFail } = outcomes(assertion, sending, unread, projectChannels);
  const status = canPass && canFail ? 'unjudged' : canPass ? 'passed' : 'failed';
  const found = sending.map((s) => reachedOf(s, projectChannels));
  const expected = { match: assertion.match, channels: assertion.channels.map(nameOf) };
  const why = route.muted
    ? ' (the group is muted)'
    : silencedBy.length > 0
      ? ` (silenced by ${silencedBy.map((n) => `“${n}”`).join(', ')})`
      : '';
  const wanted = `${assertion.match === 'exactly' ? 'exactly' : 'at least'} ${expected.channels.join(', ') || 'no one'}`;
  const at = test.at === undefined ? '' : `at ${test.at}, `;
  const unjudged =
    status === 'unjudged' ? unjudgedWhy(assertion, sending, unread, projectChannels) : undefined;
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
      unjudged !== undefined
        ? `${at}${unjudged.why}; expected ${wanted}`
        : `${at}reaches ${reachedText(found, why)}${status === 'passed' ? '' : `; expected ${wanted}`}`,
    ...(status === 'failed' ? { hint: failureHint(test, assertion, route) } : {}),
    ...(unjudged === undefined ? {} : { hint: unjudged.hint }),
    location: test.location,
  };
}

function failureHint(test: RoutingTest, assertion: RouteAssertion, route: GroupRoute): string {
  const known = new Set(route.subscriptions.flatMap((s) => (s.logicalId === undefined ? [] : [s.logicalId])));
  const strangers = assertion.channels.flatMap((c) =>
    !('project' in c) && 'logicalId' in c && !known.has(c.logicalId) ? [c] : [],
  );
  const subscribe =
    strangers.length === 0
      ? ''
      : `; ${test.group} has no subscription to ${strangers.map(nameOf).join(', ')}`;
  // A name the project does not have, that another project's channel of the group has.
  const theirs = route.subscriptions.flatMap((s) =>
    s.fromProject !== undefined && strangers.some((c) => c.logicalId === s.fromProject?.logicalId)
      ? [`AlertChannel.fromProject('${s.fromProject.project}', '${s.fromProject.logicalId}')`]
      : [],
  );
  const project = theirs.length === 0 ? '' : ` (another project's channel: name it ${theirs.join(', ')})`;
  return `change who the group pages in the code (alertChannels, the channels' send* switches, muted, maintenance windows), or the test if the route is right${subscribe}${project}`;
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
    return test.assertions.map((a) => judgeAssertion(test, route, a, options.projectChannels));
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
