// The schemas of the managed kinds: what loads zod and builds them. An entry of its own: the kinds'
// definitions (`kinds/`) reach it only through `kinds/schemas-link.ts`, which in the build loads it
// when a schema is first asked for, so a run that only loads a project whose payloads passed
// before (a warm `monitor validate`) neither loads zod nor builds a schema.

import { registerKindSchemas } from './kinds/schema-registry.js';
import {
  alertChannelCreateSchema,
  alertChannelSchema,
  alertChannelUpdateSchema,
} from './schemas/alert-channels.js';
import { checkGroupCreateSchema, checkGroupSchema, checkGroupUpdateSchema } from './schemas/check-groups.js';
import { dashboardCreateSchema, dashboardSchema, dashboardUpdateSchema } from './schemas/dashboards.js';
import {
  maintenanceWindowCreateSchema,
  maintenanceWindowSchema,
  maintenanceWindowUpdateSchema,
} from './schemas/maintenance-windows.js';
import {
  statusPageCreateSchema,
  statusPageSchema,
  statusPageServiceCreateSchema,
  statusPageServiceSchema,
  statusPageServiceUpdateSchema,
  statusPageUpdateSchema,
} from './schemas/status-pages.js';

/** Each kind's request bodies (create: strict; update: a partial PUT) and its live resource (tolerant). */
export const KIND_SCHEMAS = {
  CheckGroup: { create: checkGroupCreateSchema, update: checkGroupUpdateSchema, response: checkGroupSchema },
  Dashboard: { create: dashboardCreateSchema, update: dashboardUpdateSchema, response: dashboardSchema },
  StatusPage: { create: statusPageCreateSchema, update: statusPageUpdateSchema, response: statusPageSchema },
  StatusPageService: {
    create: statusPageServiceCreateSchema,
    update: statusPageServiceUpdateSchema,
    response: statusPageServiceSchema,
  },
  MaintenanceWindow: {
    create: maintenanceWindowCreateSchema,
    update: maintenanceWindowUpdateSchema,
    response: maintenanceWindowSchema,
  },
  AlertChannel: {
    create: alertChannelCreateSchema,
    update: alertChannelUpdateSchema,
    response: alertChannelSchema,
  },
} as const;

registerKindSchemas(KIND_SCHEMAS);
