import type { DesiredResource, RoutingTest } from '@monitor/constructs';
import type { PhysicalId } from '../identity.js';
import type { Plan } from '../plan/types.js';
import { mayReroute, type RoutingChanges, routingChanges } from '../routing/changes.js';
import { type MaintenanceSchedule, maintenanceSchedule } from '../routing/maintenance.js';
import { picturedChanges } from '../routing/picture.js';
import { type GroupRoute, routesOf } from '../routing/routes.js';
import { selectRoutes } from '../routing/select.js';
import { namedByPlan, type World, worldAfterPlan, worldFromCode, worldFromLive } from '../routing/world.js';
import {
  checkGroupsOf,
  judgeRoutingTests,
  type ProjectChannels,
  type RoutingTestResult,
} from '../routing-tests/judge.js';
import type { State } from '../state/state.js';
import type { AccountSnapshot } from './target.js';

/**
 * Where routing reads from: the code, or the account as `readAccount` read it (with the code, to
 * tell a group not deployed yet from a name that is wrong).
 */
export type RoutingSource =
  | { code: readonly DesiredResource[] }
  | { account: AccountSnapshot; code?: readonly DesiredResource[] };

function worldOf(source: RoutingSource): World {
  return 'account' in source
    ? worldFromLive(source.account.live, source.account.state)
    : worldFromCode(source.code);
}

export interface RoutesOptions {
  /** Check groups to show (logical id, `CheckGroup:logicalId` or id in the account); all when empty. */
  ids?: readonly string[];
  now: Date;
  /** The user's IANA time zone. */
  timeZone: string;
  /** Occurrences listed for each silencing window. @default 3 */
  occurrences?: number;
}

/** `monitor routes`: where the alerts of the project's check groups go. Unknown ids are an `UnknownGroupError`. */
export function projectRoutes(source: RoutingSource, options: RoutesOptions): GroupRoute[] {
  const routes = routesOf(worldOf(source), {
    now: options.now,
    timeZone: options.timeZone,
    ...(options.occurrences === undefined ? {} : { occurrences: options.occurrences }),
  });
  const undeployed =
    'account' in source
      ? (source.code ?? [])
          .filter((d) => d.kind === 'CheckGroup' && !routes.some((r) => r.logicalId === d.logicalId))
          .map((d) => d.logicalId)
      : [];
  return selectRoutes(routes, options.ids ?? [], undeployed);
}

/** `monitor maintenance`: the windows on during the next `days` days, from the code or the account. */
export function upcomingMaintenance(
  source: RoutingSource,
  options: { from: Date; days: number; timeZone: string },
): MaintenanceSchedule {
  // From the account, every window counts: one the project does not own silences its groups too.
  return maintenanceSchedule(worldOf(source), options);
}

/** The account before `plan` (named by state and the plan) and once it is applied. */
function planWorlds(
  plan: Plan,
  account: Pick<AccountSnapshot, 'live' | 'state'>,
): { before: World; after: World } {
  const before = namedByPlan(worldFromLive(account.live, account.state), plan);
  return { before, after: worldAfterPlan(before, plan) };
}

/**
 * The routing section of a plan: the groups whose route changes, before (the account now, named
 * by state and the plan) and after (the account once the plan is applied), and their picture.
 */
export function planRouting(plan: Plan, account: Pick<AccountSnapshot, 'live' | 'state'>): RoutingChanges {
  // Only groups, channels and windows route alerts: a plan of none of them reroutes nothing.
  const routing = new Set<string>(['CheckGroup', 'AlertChannel', 'MaintenanceWindow']);
  if (!plan.operations.some((op) => routing.has(op.kind))) return { changes: [], unrouted: [] };
  const { before, after } = planWorlds(plan, account);
  // Route lines name each window's schedule, not its occurrences: the user's zone plays no part.
  const options = { now: new Date(plan.createdAt), timeZone: 'UTC', occurrences: 1 };
  const only = mayReroute(plan);
  const was = routesOf(before, options, only);
  const will = routesOf(after, options, only);
  const changed = routingChanges(was, will);
  if (changed.changes.length === 0) return changed;
  return { ...changed, picture: picturedChanges(changed.changes, was, will) };
}

/**
 * The ids of other projects' alert channels, by `project:logicalId`, as their states record them
 * (`states`: by project name; undefined for a project not found).
 */
export function projectChannelsOf(states: ReadonlyMap<string, State | undefined>): ProjectChannels {
  const ids = new Map<string, PhysicalId>();
  for (const [project, state] of states) {
    for (const entry of Object.values(state?.resources ?? {}))
      if (entry.kind === 'AlertChannel') ids.set(`${project}:${entry.logicalId}`, entry.physicalId);
  }
  return ids;
}

/**
 * The project's routing tests judged against the account once `plan` is applied: what diff and
 * deploy check (`routes --test --live` too). `projectStates`, the states of the projects the code
 * references, tell which channel in the account is another project's a test names.
 */
export function planRoutingTests(
  plan: Plan,
  account: Pick<AccountSnapshot, 'live' | 'state'>,
  project: { resources: readonly DesiredResource[]; tests: readonly RoutingTest[] },
  projectStates?: ReadonlyMap<string, State | undefined>,
): RoutingTestResult[] {
  if (project.tests.length === 0) return [];
  return judgeRoutingTests(project.tests, planWorlds(plan, account).after, {
    now: new Date(plan.createdAt),
    codeGroups: checkGroupsOf(project.resources),
    ...(projectStates === undefined ? {} : { projectChannels: projectChannelsOf(projectStates) }),
  });
}
