import type { Client, Page } from '@monitor/api';
import type { ResourceKind } from '@monitor/constructs';
import type { LiveResource } from './plan/plan.js';

/** The managed kinds, in the order their creates may run: what is referred to comes first. */
export const RESOURCE_KINDS: readonly ResourceKind[] = [
  'AlertChannel',
  'StatusPageService',
  'CheckGroup',
  'Dashboard',
  'StatusPage',
  'MaintenanceWindow',
];

type Payload = Record<string, unknown>;
type PhysicalId = string | number;

/** How one kind is listed, created, updated and deleted through the API. */
export interface KindApi {
  /** Every live resource, one list call per page of 100. */
  pages(client: Client): AsyncIterable<Page<LiveResource>>;
  create(client: Client, payload: Payload): Promise<LiveResource>;
  update(client: Client, id: PhysicalId, payload: Payload): Promise<LiveResource>;
  delete(client: Client, id: PhysicalId): Promise<void>;
}

const LIMIT = { limit: 100 } as const;
// The typed client checks bodies against the schemas at run time; the payloads here are
// synthesized from the same schemas, so the static type is widened on purpose.
const body = (payload: Payload) => payload as never;
const live = (value: unknown) => value as LiveResource;
const pagesOf = (iterable: AsyncIterable<Page<unknown>>) => iterable as AsyncIterable<Page<LiveResource>>;

/**
 * Dashboards carry a numeric `id` and a string `dashboardId`; their endpoints take `dashboardId`.
 * Live dashboards get it as `id` (the planner's physical id) and keep the number as `numericId`.
 */
function dashboard(value: unknown): LiveResource {
  const d = value as LiveResource & { dashboardId: string };
  return { ...d, id: d.dashboardId, numericId: d.id };
}
async function* dashboardPages(c: Client): AsyncIterable<Page<LiveResource>> {
  for await (const page of c.dashboards.pages(LIMIT)) yield { ...page, items: page.items.map(dashboard) };
}

export const KIND_API: Record<ResourceKind, KindApi> = {
  CheckGroup: {
    pages: (c) => pagesOf(c.checkGroups.pages(LIMIT)),
    // A group created with no subscriptions would otherwise be subscribed to every channel.
    create: async (c, p) => live(await c.checkGroups.create(body(p), { autoAssignAlerts: false })),
    update: async (c, id, p) => live(await c.checkGroups.update(Number(id), body(p))),
    delete: async (c, id) => {
      await c.checkGroups.delete(Number(id));
    },
  },
  Dashboard: {
    pages: dashboardPages,
    create: async (c, p) => dashboard(await c.dashboards.create(body(p))),
    update: async (c, id, p) => dashboard(await c.dashboards.update(String(id), body(p))),
    delete: async (c, id) => {
      await c.dashboards.delete(String(id));
    },
  },
  StatusPage: {
    pages: (c) => pagesOf(c.statusPages.pages(LIMIT)),
    create: async (c, p) => live(await c.statusPages.create(body(p))),
    update: async (c, id, p) => live(await c.statusPages.update(String(id), body(p))),
    delete: async (c, id) => {
      await c.statusPages.delete(String(id));
    },
  },
  StatusPageService: {
    pages: (c) => pagesOf(c.statusPageServices.pages(LIMIT)),
    create: async (c, p) => live(await c.statusPageServices.create(body(p))),
    update: async (c, id, p) => live(await c.statusPageServices.update(String(id), body(p))),
    delete: async (c, id) => {
      await c.statusPageServices.delete(String(id));
    },
  },
  MaintenanceWindow: {
    pages: (c) => pagesOf(c.maintenanceWindows.pages(LIMIT)),
    create: async (c, p) => live(await c.maintenanceWindows.create(body(p))),
    update: async (c, id, p) => live(await c.maintenanceWindows.update(Number(id), body(p))),
    delete: async (c, id) => {
      await c.maintenanceWindows.delete(Number(id));
    },
  },
  AlertChannel: {
    pages: (c) => pagesOf(c.alertChannels.pages(LIMIT)),
    create: async (c, p) => live(await c.alertChannels.create(body(p))),
    update: async (c, id, p) => live(await c.alertChannels.update(Number(id), body(p))),
    delete: async (c, id) => {
      await c.alertChannels.delete(Number(id));
    },
  },
};
