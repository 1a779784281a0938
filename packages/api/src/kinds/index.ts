import { alertChannelKind } from './alert-channel.js';
import { checkGroupKind } from './check-group.js';
import { dashboardKind } from './dashboard.js';
import type { KindDefinition, ResourceKind } from './definition.js';
import { maintenanceWindowKind } from './maintenance-window.js';
import { statusPageKind, statusPageServiceKind } from './status-page.js';

/** The definition of every managed kind. */
export const KINDS: Readonly<Record<ResourceKind, KindDefinition>> = {
  CheckGroup: checkGroupKind,
  Dashboard: dashboardKind,
  StatusPage: statusPageKind,
  StatusPageService: statusPageServiceKind,
  MaintenanceWindow: maintenanceWindowKind,
  AlertChannel: alertChannelKind,
};

/** Kinds ordered so that every kind comes after the kinds it refers to (depth-first over references). */
function referenceOrder(kinds: Readonly<Record<ResourceKind, KindDefinition>>): ResourceKind[] {
  const order: ResourceKind[] = [];
  const visiting = new Set<ResourceKind>();
  const visit = (kind: ResourceKind) => {
    if (order.includes(kind)) return;
    if (visiting.has(kind))
      throw new Error(`kind definitions refer to each other in a cycle through ${kind}`);
    visiting.add(kind);
    for (const ref of kinds[kind].references) visit(ref.kind);
    visiting.delete(kind);
    order.push(kind);
  };
  for (const kind of Object.keys(kinds) as ResourceKind[]) visit(kind);
  return order;
}

/** The managed kinds, in the order their creates may run: what is referred to comes first. */
export const RESOURCE_KINDS: readonly ResourceKind[] = referenceOrder(KINDS);

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === 'string' && Object.hasOwn(KINDS, value);
}
