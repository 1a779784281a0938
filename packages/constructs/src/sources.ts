import type { ResourceKind } from '@monitor/api';
import { alertChannelSource } from './alert-channels.js';
import { checkGroupSource } from './check-group.js';
import { dashboardSource } from './dashboard.js';
import { maintenanceWindowSource } from './maintenance-window.js';
import type { KindSource } from './source.js';
import { statusPageServiceSource, statusPageSource } from './status-page.js';

/** How the resources of every kind are written as code: each construct module's inverse of its synthesis. */
export const CONSTRUCT_SOURCES: Readonly<Record<ResourceKind, KindSource>> = {
  AlertChannel: alertChannelSource,
  CheckGroup: checkGroupSource,
  Dashboard: dashboardSource,
  StatusPage: statusPageSource,
  StatusPageService: statusPageServiceSource,
  MaintenanceWindow: maintenanceWindowSource,
};
