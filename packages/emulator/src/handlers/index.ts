import type { Handler } from '../context.js';
import { alertChannelHandlers } from './alert-channels.js';
import { analyticsHandlers } from './analytics.js';
import { checkGroupHandlers } from './check-groups.js';
import { checkSessionHandlers } from './check-sessions.js';
import { checkHandlers } from './checks.js';
import { dashboardHandlers } from './dashboards.js';
import { errorGroupHandlers } from './error-groups.js';
import { incidentHandlers } from './incidents.js';
import { maintenanceWindowHandlers } from './maintenance-windows.js';
import { privateLocationHandlers } from './private-locations.js';
import { statusPageHandlers } from './status-pages.js';

/** Every service operation's handler, by the endpoint table's operation name. */
export const handlers: Record<string, Handler> = {
  ...checkGroupHandlers,
  ...dashboardHandlers,
  ...statusPageHandlers,
  ...incidentHandlers,
  ...maintenanceWindowHandlers,
  ...alertChannelHandlers,
  ...checkHandlers,
  ...checkSessionHandlers,
  ...analyticsHandlers,
  ...errorGroupHandlers,
  ...privateLocationHandlers,
};
