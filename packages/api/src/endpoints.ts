import {
  alertChannelCreateSchema,
  alertChannelSchema,
  alertChannelSubscriptionSchema,
  alertChannelSubscriptionUpsertSchema,
  alertChannelUpdateSchema,
} from './schemas/alert-channels.js';
import {
  analyticsSummaryBodySchema,
  analyticsSummaryQuerySchema,
  analyticsSummarySchema,
  apiCheckAnalyticsQuerySchema,
  apiCheckAnalyticsSchema,
} from './schemas/analytics.js';
import {
  checkGroupCreateSchema,
  checkGroupListQuerySchema,
  checkGroupSchema,
  checkGroupUpdateSchema,
} from './schemas/check-groups.js';
import {
  checkResultSchema,
  checkSessionCompletionQuerySchema,
  checkSessionSchema,
  checkSessionTriggerResponseSchema,
  checkSessionTriggerSchema,
  testSessionCancelSchema,
} from './schemas/check-sessions.js';
import { checkGetQuerySchema, checkListQuerySchema, checkSchema } from './schemas/checks.js';
import {
  cursorPageSchema,
  cursorQuerySchema,
  pageQuerySchema,
  queryBooleanSchema,
} from './schemas/common.js';
import {
  dashboardCreateSchema,
  dashboardGetQuerySchema,
  dashboardSchema,
  dashboardUpdateSchema,
} from './schemas/dashboards.js';
import {
  errorGroupSchema,
  rootCauseAnalysisGenerateSchema,
  rootCauseAnalysisPendingSchema,
  rootCauseAnalysisResultSchema,
  testSessionErrorGroupSchema,
} from './schemas/error-groups.js';
import {
  incidentCreateSchema,
  incidentGetQuerySchema,
  incidentSchema,
  incidentUpdateBodySchema,
  incidentUpdateCreateSchema,
  incidentUpdateSchema,
} from './schemas/incidents.js';
import {
  maintenanceWindowCreateSchema,
  maintenanceWindowListQuerySchema,
  maintenanceWindowSchema,
  maintenanceWindowUpdateSchema,
} from './schemas/maintenance-windows.js';
import {
  privateLocationMetricsQuerySchema,
  privateLocationMetricsSchema,
} from './schemas/private-locations.js';
import {
  statusPageCreateSchema,
  statusPageIncidentCreateSchema,
  statusPageIncidentSchema,
  statusPageIncidentUpdateBodySchema,
  statusPageIncidentUpdateCreateSchema,
  statusPageIncidentUpdateSchema,
  statusPageSchema,
  statusPageServiceCreateSchema,
  statusPageServiceListQuerySchema,
  statusPageServiceSchema,
  statusPageServiceUpdateSchema,
  statusPageUpdateSchema,
} from './schemas/status-pages.js';
import { z } from './zod.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One operation of the service API: the single source for the client, the emulator and the OpenAPI document. */
export interface Endpoint {
  /** Stable name, `<resource>.<verb>`. */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` placeholders. */
  readonly path: string;
  readonly summary: string;
  /** `seed`: service-api.md; `real`: the addendum's real-service routes. */
  readonly source: 'seed' | 'real';
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Response body schema; `null` for an empty body. */
  readonly response: z.ZodType | null;
  readonly success: readonly number[];
  /**
   * Error statuses of this operation besides those of every operation (400, 401, 403, 429, and
   * 404 when it has a path id): 402 when a plan may lack it, 404 for a referenced resource, 408
   * for a long poll, 409 for a uniqueness or dependency conflict (addendum §4).
   */
  readonly errors?: readonly (402 | 404 | 408 | 409)[];
  readonly pagination?: 'page' | 'cursor';
  /** Query parameters sent as one comma-separated value instead of a repeated key. */
  readonly commaSeparated?: readonly string[];
  /** Served by the private-location agent on its own base URL, without auth. */
  readonly agent?: boolean;
}

function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

const intId = z.coerce.number().int().positive();
const str = z.string().min(1);
const uuid = z.uuid();
const idParam = z.strictObject({ id: intId });
const strIdParam = z.strictObject({ id: str });
const uuidParam = z.strictObject({ id: uuid });
const dashboardParam = z.strictObject({ dashboardId: str });
const statusPageParam = z.strictObject({ statusPageId: str });
const serviceParam = z.strictObject({ serviceId: str });
const spIncidentParam = z.strictObject({ incidentId: str });
const autoAssignQuery = z.strictObject({ autoAssignAlerts: queryBooleanSchema.optional() });

export const endpoints = {
  // Check groups
  checkGroupsList: endpoint({
    operation: 'checkGroups.list',
    method: 'GET',
    path: '/v1/check-groups',
    summary: 'List check groups',
    source: 'real',
    query: checkGroupListQuerySchema,
    response: z.array(checkGroupSchema),
    success: [200],
    pagination: 'page',
  }),
  checkGroupsCreate: endpoint({
    operation: 'checkGroups.create',
    method: 'POST',
    path: '/v2/check-groups',
    summary: 'Create a check group (V2)',
    source: 'seed',
    query: autoAssignQuery,
    body: checkGroupCreateSchema,
    response: checkGroupSchema,
    success: [201],
    errors: [402],
  }),
  checkGroupsGet: endpoint({
    operation: 'checkGroups.get',
    method: 'GET',
    path: '/v1/check-groups/{id}',
    summary: 'Retrieve a check group',
    source: 'seed',
    params: idParam,
    response: checkGroupSchema,
    success: [200],
  }),
  checkGroupsUpdate: endpoint({
    operation: 'checkGroups.update',
    method: 'PUT',
    path: '/v2/check-groups/{id}',
    summary: 'Update a check group (partial)',
    source: 'real',
    params: idParam,
    query: autoAssignQuery,
    body: checkGroupUpdateSchema,
    response: checkGroupSchema,
    success: [200],
  }),
  checkGroupsDelete: endpoint({
    operation: 'checkGroups.delete',
    method: 'DELETE',
    path: '/v1/check-groups/{id}',
    summary: 'Delete a check group',
    source: 'real',
    params: idParam,
    response: null,
    success: [204],
    errors: [409],
  }),

  // Dashboards
  dashboardsList: endpoint({
    operation: 'dashboards.list',
    method: 'GET',
    path: '/v1/dashboards',
    summary: 'List dashboards',
    source: 'real',
    query: pageQuerySchema,
    response: z.array(dashboardSchema),
    success: [200],
    pagination: 'page',
  }),
  dashboardsCreate: endpoint({
    operation: 'dashboards.create',
    method: 'POST',
    path: '/v1/dashboards',
    summary: 'Create a dashboard',
    source: 'real',
    body: dashboardCreateSchema,
    response: dashboardSchema,
    success: [201],
    errors: [409],
  }),
  dashboardsGet: endpoint({
    operation: 'dashboards.get',
    method: 'GET',
    path: '/v1/dashboards/{dashboardId}',
    summary: 'Retrieve a dashboard (by dashboardId, or by customUrl/customDomain with ?type)',
    source: 'real',
    params: dashboardParam,
    query: dashboardGetQuerySchema,
    response: dashboardSchema,
    success: [200],
  }),
  dashboardsUpdate: endpoint({
    operation: 'dashboards.update',
    method: 'PUT',
    path: '/v1/dashboards/{dashboardId}',
    summary: 'Update a dashboard (partial)',
    source: 'seed',
    params: dashboardParam,
    body: dashboardUpdateSchema,
    response: dashboardSchema,
    success: [200],
    errors: [409],
  }),
  dashboardsDelete: endpoint({
    operation: 'dashboards.delete',
    method: 'DELETE',
    path: '/v1/dashboards/{dashboardId}',
    summary: 'Delete a dashboard',
    source: 'real',
    params: dashboardParam,
    response: null,
    success: [204],
  }),

  // Status pages
  statusPagesList: endpoint({
    operation: 'statusPages.list',
    method: 'GET',
    path: '/v1/status-pages',
    summary: 'List status pages',
    source: 'real',
    query: cursorQuerySchema,
    response: cursorPageSchema(statusPageSchema),
    success: [200],
    pagination: 'cursor',
  }),
  statusPagesCreate: endpoint({
    operation: 'statusPages.create',
    method: 'POST',
    path: '/v1/status-pages',
    summary: 'Create a status page',
    source: 'real',
    body: statusPageCreateSchema,
    response: statusPageSchema,
    success: [201],
    errors: [404, 409],
  }),
  statusPagesGet: endpoint({
    operation: 'statusPages.get',
    method: 'GET',
    path: '/v1/status-pages/{statusPageId}',
    summary: 'Retrieve a status page',
    source: 'real',
    params: statusPageParam,
    response: statusPageSchema,
    success: [200],
  }),
  statusPagesUpdate: endpoint({
    operation: 'statusPages.update',
    method: 'PUT',
    path: '/v1/status-pages/{statusPageId}',
    summary: 'Update a status page',
    source: 'seed',
    params: statusPageParam,
    body: statusPageUpdateSchema,
    response: statusPageSchema,
    success: [200],
    errors: [409],
  }),
  statusPagesDelete: endpoint({
    operation: 'statusPages.delete',
    method: 'DELETE',
    path: '/v1/status-pages/{statusPageId}',
    summary: 'Delete a status page',
    source: 'real',
    params: statusPageParam,
    response: null,
    success: [204],
  }),
  statusPagesDeleteSubscription: endpoint({
    operation: 'statusPages.deleteSubscription',
    method: 'DELETE',
    path: '/v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}',
    summary: 'Delete a subscription of a status page',
    source: 'seed',
    params: z.strictObject({ statusPageId: str, subscriptionId: str }),
    response: null,
    success: [204],
  }),

  // Status-page services
  statusPageServicesList: endpoint({
    operation: 'statusPageServices.list',
    method: 'GET',
    path: '/v1/status-pages/services',
    summary: 'List status-page services',
    source: 'real',
    query: statusPageServiceListQuerySchema,
    response: cursorPageSchema(statusPageServiceSchema),
    success: [200],
    pagination: 'cursor',
  }),
  statusPageServicesCreate: endpoint({
    operation: 'statusPageServices.create',
    method: 'POST',
    path: '/v1/status-pages/services',
    summary: 'Create a status-page service',
    source: 'real',
    body: statusPageServiceCreateSchema,
    response: statusPageServiceSchema,
    success: [200],
  }),
  statusPageServicesGet: endpoint({
    operation: 'statusPageServices.get',
    method: 'GET',
    path: '/v1/status-pages/services/{serviceId}',
    summary: 'Retrieve a status-page service',
    source: 'real',
    params: serviceParam,
    response: statusPageServiceSchema,
    success: [200],
  }),
  statusPageServicesUpdate: endpoint({
    operation: 'statusPageServices.update',
    method: 'PUT',
    path: '/v1/status-pages/services/{serviceId}',
    summary: 'Update a status-page service',
    source: 'real',
    params: serviceParam,
    body: statusPageServiceUpdateSchema,
    response: statusPageServiceSchema,
    success: [200],
  }),
  statusPageServicesDelete: endpoint({
    operation: 'statusPageServices.delete',
    method: 'DELETE',
    path: '/v1/status-pages/services/{serviceId}',
    summary: 'Delete a status-page service',
    source: 'real',
    params: serviceParam,
    response: null,
    success: [204],
  }),

  // Status-page incidents
  statusPageIncidentsList: endpoint({
    operation: 'statusPageIncidents.list',
    method: 'GET',
    path: '/v1/status-pages/incidents',
    summary: 'List status-page incidents (newest first)',
    source: 'real',
    query: cursorQuerySchema,
    response: cursorPageSchema(statusPageIncidentSchema),
    success: [200],
    pagination: 'cursor',
  }),
  statusPageIncidentsCreate: endpoint({
    operation: 'statusPageIncidents.create',
    method: 'POST',
    path: '/v1/status-pages/incidents',
    summary: 'Create a status-page incident',
    source: 'real',
    body: statusPageIncidentCreateSchema,
    response: statusPageIncidentSchema,
    success: [201],
    errors: [404],
  }),
  statusPageIncidentsGet: endpoint({
    operation: 'statusPageIncidents.get',
    method: 'GET',
    path: '/v1/status-pages/incidents/{incidentId}',
    summary: 'Retrieve a status-page incident',
    source: 'real',
    params: spIncidentParam,
    response: statusPageIncidentSchema,
    success: [200],
  }),
  statusPageIncidentsUpdate: endpoint({
    operation: 'statusPageIncidents.update',
    method: 'PUT',
    path: '/v1/status-pages/incidents/{incidentId}',
    summary: 'Update a status-page incident',
    source: 'real',
    params: spIncidentParam,
    body: statusPageIncidentUpdateBodySchema,
    response: statusPageIncidentSchema,
    success: [200],
  }),
  statusPageIncidentsDelete: endpoint({
    operation: 'statusPageIncidents.delete',
    method: 'DELETE',
    path: '/v1/status-pages/incidents/{incidentId}',
    summary: 'Delete a status-page incident',
    source: 'real',
    params: spIncidentParam,
    response: null,
    success: [204],
  }),
  statusPageIncidentsListUpdates: endpoint({
    operation: 'statusPageIncidents.listUpdates',
    method: 'GET',
    path: '/v1/status-pages/incidents/{incidentId}/incident-updates',
    summary: 'The 100 latest updates of a status-page incident',
    source: 'seed',
    params: spIncidentParam,
    response: z.array(statusPageIncidentUpdateSchema),
    success: [200],
  }),
  statusPageIncidentsCreateUpdate: endpoint({
    operation: 'statusPageIncidents.createUpdate',
    method: 'POST',
    path: '/v1/status-pages/incidents/{incidentId}/incident-updates',
    summary: 'Add an update to a status-page incident',
    source: 'real',
    params: spIncidentParam,
    body: statusPageIncidentUpdateCreateSchema,
    response: statusPageIncidentUpdateSchema,
    success: [200],
  }),

  // Maintenance windows
  maintenanceWindowsList: endpoint({
    operation: 'maintenanceWindows.list',
    method: 'GET',
    path: '/v1/maintenance-windows',
    summary: 'List maintenance windows',
    source: 'real',
    query: maintenanceWindowListQuerySchema,
    response: z.array(maintenanceWindowSchema),
    success: [200],
    pagination: 'page',
  }),
  maintenanceWindowsCreate: endpoint({
    operation: 'maintenanceWindows.create',
    method: 'POST',
    path: '/v1/maintenance-windows',
    summary: 'Create a maintenance window',
    source: 'real',
    body: maintenanceWindowCreateSchema,
    response: maintenanceWindowSchema,
    success: [201],
  }),
  maintenanceWindowsGet: endpoint({
    operation: 'maintenanceWindows.get',
    method: 'GET',
    path: '/v1/maintenance-windows/{id}',
    summary: 'Retrieve a maintenance window',
    source: 'seed',
    params: idParam,
    response: maintenanceWindowSchema,
    success: [200],
  }),
  maintenanceWindowsUpdate: endpoint({
    operation: 'maintenanceWindows.update',
    method: 'PUT',
    path: '/v1/maintenance-windows/{id}',
    summary: 'Update a maintenance window (partial)',
    source: 'real',
    params: idParam,
    body: maintenanceWindowUpdateSchema,
    response: maintenanceWindowSchema,
    success: [200],
  }),
  maintenanceWindowsDelete: endpoint({
    operation: 'maintenanceWindows.delete',
    method: 'DELETE',
    path: '/v1/maintenance-windows/{id}',
    summary: 'Delete a maintenance window',
    source: 'real',
    params: idParam,
    response: null,
    success: [204],
  }),

  // Dashboard incidents
  incidentsCreate: endpoint({
    operation: 'incidents.create',
    method: 'POST',
    path: '/v1/incidents',
    summary: 'Create an incident on a dashboard',
    source: 'seed',
    body: incidentCreateSchema,
    response: incidentSchema,
    success: [200],
    errors: [404],
  }),
  incidentsGet: endpoint({
    operation: 'incidents.get',
    method: 'GET',
    path: '/v1/incidents/{id}',
    summary: 'Retrieve an incident',
    source: 'real',
    params: uuidParam,
    query: incidentGetQuerySchema,
    response: incidentSchema,
    success: [200],
  }),
  incidentsUpdate: endpoint({
    operation: 'incidents.update',
    method: 'PUT',
    path: '/v1/incidents/{id}',
    summary: 'Update an incident',
    source: 'real',
    params: uuidParam,
    body: incidentUpdateBodySchema,
    response: incidentSchema,
    success: [200],
  }),
  incidentsDelete: endpoint({
    operation: 'incidents.delete',
    method: 'DELETE',
    path: '/v1/incidents/{id}',
    summary: 'Delete an incident',
    source: 'real',
    params: uuidParam,
    response: null,
    success: [204],
  }),
  incidentsCreateUpdate: endpoint({
    operation: 'incidents.createUpdate',
    method: 'POST',
    path: '/v1/incidents/{incidentId}/updates',
    summary: 'Add an update to an incident',
    source: 'real',
    params: z.strictObject({ incidentId: uuid }),
    body: incidentUpdateCreateSchema,
    response: incidentUpdateSchema,
    success: [201],
  }),

  // Alert channels
  alertChannelsList: endpoint({
    operation: 'alertChannels.list',
    method: 'GET',
    path: '/v1/alert-channels',
    summary: 'List alert channels',
    source: 'seed',
    query: pageQuerySchema,
    response: z.array(alertChannelSchema),
    success: [200],
    pagination: 'page',
  }),
  alertChannelsCreate: endpoint({
    operation: 'alertChannels.create',
    method: 'POST',
    path: '/v1/alert-channels',
    summary: 'Create an alert channel',
    source: 'real',
    body: alertChannelCreateSchema,
    response: alertChannelSchema,
    success: [201],
    errors: [402],
  }),
  alertChannelsGet: endpoint({
    operation: 'alertChannels.get',
    method: 'GET',
    path: '/v1/alert-channels/{id}',
    summary: 'Retrieve an alert channel',
    source: 'real',
    params: idParam,
    response: alertChannelSchema,
    success: [200],
  }),
  alertChannelsUpdate: endpoint({
    operation: 'alertChannels.update',
    method: 'PUT',
    path: '/v1/alert-channels/{id}',
    summary: 'Update an alert channel',
    source: 'real',
    params: idParam,
    body: alertChannelUpdateSchema,
    response: alertChannelSchema,
    success: [200],
    errors: [402],
  }),
  alertChannelsDelete: endpoint({
    operation: 'alertChannels.delete',
    method: 'DELETE',
    path: '/v1/alert-channels/{id}',
    summary: 'Delete an alert channel',
    source: 'real',
    params: idParam,
    response: null,
    success: [204],
  }),
  alertChannelsUpsertSubscription: endpoint({
    operation: 'alertChannels.upsertSubscription',
    method: 'PUT',
    path: '/v1/alert-channels/{id}/subscriptions',
    summary: "Create or update a check's or group's subscription to an alert channel",
    source: 'real',
    params: idParam,
    body: alertChannelSubscriptionUpsertSchema,
    response: alertChannelSubscriptionSchema,
    success: [200],
  }),

  // Checks
  checksList: endpoint({
    operation: 'checks.list',
    method: 'GET',
    path: '/v1/checks',
    summary: 'List checks',
    source: 'real',
    query: checkListQuerySchema,
    response: z.array(checkSchema),
    success: [200],
    pagination: 'page',
  }),
  checksGet: endpoint({
    operation: 'checks.get',
    method: 'GET',
    path: '/v1/checks/{id}',
    summary: 'Retrieve a check',
    source: 'seed',
    // Check ids are UUIDs: a malformed one is a 400, not a 404 (addendum §1).
    params: uuidParam,
    query: checkGetQuerySchema,
    response: checkSchema,
    success: [200],
  }),

  // Check sessions and results
  checkSessionsTrigger: endpoint({
    operation: 'checkSessions.trigger',
    method: 'POST',
    path: '/v2/check-sessions/trigger',
    summary: 'Trigger a new check session',
    source: 'seed',
    body: checkSessionTriggerSchema,
    response: checkSessionTriggerResponseSchema,
    success: [201],
    errors: [402, 404],
  }),
  checkSessionsGet: endpoint({
    operation: 'checkSessions.get',
    method: 'GET',
    path: '/v2/check-sessions/{checkSessionId}',
    summary: 'Retrieve a check session with its results (partial while running)',
    // The seed describes this operation without its path; the path is the real service's.
    source: 'seed',
    params: z.strictObject({ checkSessionId: uuid }),
    response: checkSessionSchema,
    success: [200],
  }),
  checkSessionsCompletion: endpoint({
    operation: 'checkSessions.completion',
    method: 'GET',
    path: '/v2/check-sessions/{checkSessionId}/completion',
    summary: 'Wait for a check session to finish (408 while it runs)',
    source: 'real',
    params: z.strictObject({ checkSessionId: uuid }),
    query: checkSessionCompletionQuerySchema,
    response: checkSessionSchema,
    success: [200],
    errors: [408],
  }),
  checkResultsGet: endpoint({
    operation: 'checkResults.get',
    method: 'GET',
    path: '/v1/check-results/{checkId}/{checkResultId}',
    summary: 'Retrieve one check result',
    source: 'seed',
    params: z.strictObject({ checkId: uuid, checkResultId: uuid }),
    response: checkResultSchema,
    success: [200],
  }),
  testSessionsCancel: endpoint({
    operation: 'testSessions.cancel',
    method: 'POST',
    path: '/v1/test-sessions/{testSessionId}/cancel',
    summary: 'Cancel the Playwright runs of a test session',
    source: 'seed',
    params: z.strictObject({ testSessionId: uuid }),
    body: testSessionCancelSchema,
    response: null,
    success: [204],
  }),

  // Analytics
  analyticsApiCheck: endpoint({
    operation: 'analytics.apiCheck',
    method: 'GET',
    path: '/v1/analytics/api-checks/{id}',
    summary: 'Analytics of one API check',
    source: 'seed',
    params: uuidParam,
    query: apiCheckAnalyticsQuerySchema,
    response: apiCheckAnalyticsSchema,
    success: [200],
    commaSeparated: ['metrics'],
  }),
  analyticsSummary: endpoint({
    operation: 'analytics.summary',
    method: 'POST',
    path: '/v1/analytics/checks',
    summary: 'Analytics summary for many checks',
    source: 'seed',
    query: analyticsSummaryQuerySchema,
    body: analyticsSummaryBodySchema,
    response: analyticsSummarySchema,
    success: [200],
  }),

  // Error groups and root cause analyses
  errorGroupsList: endpoint({
    operation: 'errorGroups.list',
    method: 'GET',
    path: '/v1/error-groups',
    summary: 'List error groups',
    source: 'seed',
    query: pageQuerySchema,
    response: z.array(errorGroupSchema),
    success: [200],
    pagination: 'page',
  }),
  errorGroupsGet: endpoint({
    operation: 'errorGroups.get',
    method: 'GET',
    path: '/v1/error-groups/{id}',
    summary: 'Retrieve an error group',
    source: 'real',
    params: uuidParam,
    response: errorGroupSchema,
    success: [200],
  }),
  testSessionErrorGroupsGet: endpoint({
    operation: 'testSessionErrorGroups.get',
    method: 'GET',
    path: '/v1/test-session-error-groups/{id}',
    summary: 'Retrieve a test-session error group',
    source: 'seed',
    params: uuidParam,
    response: testSessionErrorGroupSchema,
    success: [200],
  }),
  rootCauseAnalysesGenerateForErrorGroup: endpoint({
    operation: 'rootCauseAnalyses.generateForErrorGroup',
    method: 'POST',
    path: '/v1/root-cause-analyses/error-groups/{errorGroupId}',
    summary: 'Generate a root cause analysis of an error group',
    source: 'real',
    params: z.strictObject({ errorGroupId: uuid }),
    body: rootCauseAnalysisGenerateSchema,
    response: rootCauseAnalysisPendingSchema,
    success: [202],
    errors: [402],
  }),
  rootCauseAnalysesGenerateForTestSessionErrorGroup: endpoint({
    operation: 'rootCauseAnalyses.generateForTestSessionErrorGroup',
    method: 'POST',
    path: '/v1/root-cause-analyses/test-session-error-groups/{testSessionErrorGroupId}',
    summary: 'Generate a root cause analysis of a test-session error group',
    source: 'seed',
    params: z.strictObject({ testSessionErrorGroupId: str }),
    body: rootCauseAnalysisGenerateSchema,
    response: rootCauseAnalysisPendingSchema,
    success: [202],
    errors: [402],
  }),
  rootCauseAnalysesGet: endpoint({
    operation: 'rootCauseAnalyses.get',
    method: 'GET',
    path: '/v1/root-cause-analyses/{id}',
    summary: 'Retrieve a root cause analysis (202 while pending)',
    source: 'seed',
    params: strIdParam,
    response: rootCauseAnalysisResultSchema,
    success: [200, 202],
  }),

  // Private locations
  privateLocationsMetrics: endpoint({
    operation: 'privateLocations.metrics',
    method: 'GET',
    path: '/v1/private-locations/{id}/metrics',
    summary: 'Queue health metrics of a private location',
    source: 'seed',
    params: strIdParam,
    query: privateLocationMetricsQuerySchema(),
    response: privateLocationMetricsSchema,
    success: [200],
  }),

  // Private-location agent health (own base URL, no auth)
  agentReadiness: endpoint({
    operation: 'agent.readiness',
    method: 'GET',
    path: '/-/readiness',
    summary: 'Agent readiness: 200 ready, 503 shutting down',
    source: 'seed',
    response: null,
    success: [200, 503],
    agent: true,
  }),
  agentLiveness: endpoint({
    operation: 'agent.liveness',
    method: 'GET',
    path: '/-/liveness',
    summary: 'Agent liveness',
    source: 'seed',
    response: null,
    success: [200],
    agent: true,
  }),
  agentHealth: endpoint({
    operation: 'agent.health',
    method: 'GET',
    path: '/health',
    summary: 'Agent health',
    source: 'seed',
    response: null,
    success: [200],
    agent: true,
  }),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;

/** The service's own routes (not the agent's). */
export const serviceEndpoints: readonly Endpoint[] = Object.values(endpoints).filter(
  (e: Endpoint) => e.agent !== true,
);
