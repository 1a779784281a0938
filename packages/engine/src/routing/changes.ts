import { isPayloadRef } from '@monitor/constructs';
import type { Plan, RouteChange, RoutingChanges } from '../plan/types.js';
import { stateKey } from '../state/state.js';
import { type GroupRoute, routeLine } from './routes.js';
import type { WorldResource } from './world.js';

export type { RouteChange, RoutingChanges } from '../plan/types.js';

/**
 * The groups whose route differs between `before` (the account now) and `after` (once the plan is
 * applied), matched by logical id. Groups the project does not name are left out, and so are groups
 * the plan deletes: their checks go with them.
 */
export function routingChanges(before: readonly GroupRoute[], after: readonly GroupRoute[]): RoutingChanges {
  const was = new Map(before.filter((r) => r.logicalId !== undefined).map((r) => [r.logicalId, r]));
  const changes: RouteChange[] = [];
  // One copy of each line: thousands of groups often share one (a plan keeps them to the end).
  const lines = new Map<string, string>();
  const lineOf = (route: GroupRoute) => {
    const line = routeLine(route);
    const known = lines.get(line);
    if (known !== undefined) return known;
    lines.set(line, line);
    return line;
  };
  for (const now of after) {
    if (now.logicalId === undefined) continue;
    const then = was.get(now.logicalId);
    const line = lineOf(now);
    const previous = then === undefined ? null : lineOf(then);
    if (previous === line) continue;
    changes.push({
      group: now.group,
      logicalId: now.logicalId,
      name: now.name,
      before: previous,
      after: line,
      noFailureRoute: now.noFailureRoute,
    });
  }
  changes.sort((a, b) => a.logicalId.localeCompare(b.logicalId));
  return { changes, unrouted: changes.filter((c) => c.noFailureRoute).map((c) => c.group) };
}

/**
 * Which groups a plan may reroute: every group when it touches a maintenance window (windows
 * silence by tags); else the groups it touches and those subscribed to a channel it touches. The
 * others keep their route, and working theirs out twice would cost a large project a second.
 */
export function mayReroute(plan: Plan): (group: WorldResource) => boolean {
  if (plan.operations.some((op) => op.kind === 'MaintenanceWindow')) return () => true;
  const groups = new Set<string>();
  const channels = new Set<string>();
  for (const op of plan.operations) {
    if (op.kind === 'CheckGroup') groups.add(op.logicalId);
    if (op.kind !== 'AlertChannel') continue;
    channels.add(stateKey(op.kind, op.logicalId));
    if (op.action !== 'create') channels.add(String(op.physicalId));
  }
  return (group) => {
    if (group.logicalId !== undefined && groups.has(group.logicalId)) return true;
    if (channels.size === 0) return false;
    const subscriptions = group.payload.alertChannelSubscriptions;
    return (
      Array.isArray(subscriptions) &&
      subscriptions.some((s: { alertChannelId?: unknown }) => {
        const ref = s?.alertChannelId;
        return isPayloadRef(ref) ? channels.has(ref.$ref) : channels.has(String(ref));
      })
    );
  };
}
