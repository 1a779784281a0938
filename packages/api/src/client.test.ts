import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from './client.js';
import { type EndpointName, endpoints } from './endpoints.js';
import * as f from './test-support/fixtures.js';
import {
  type Reply,
  startTestServer,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestServer,
} from './test-support/server.js';

interface Case {
  endpoint: EndpointName;
  call: (c: Client) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  reply: Reply;
  /** What the call returns; defaults to the reply's JSON. */
  result?: unknown;
}

const since = Math.floor(Date.now() / 1000) - 3600;
const until = since + 1800;

const cases: Case[] = [
  {
    endpoint: 'checkGroupsList',
    call: (c) => c.checkGroups.list({ limit: 5, page: 2, tag: ['a', 'b'] }),
    method: 'GET',
    path: '/v1/check-groups',
    query: { limit: '5', page: '2', tag: ['a', 'b'] },
    reply: { json: [f.checkGroup], headers: { 'content-range': '5-5/6' } },
    result: { items: [f.checkGroup], total: 6 },
  },
  {
    endpoint: 'checkGroupsCreate',
    call: (c) =>
      c.checkGroups.create({ name: 'payments', locations: ['eu-west-1'] }, { autoAssignAlerts: false }),
    method: 'POST',
    path: '/v2/check-groups',
    query: { autoAssignAlerts: 'false' },
    body: { name: 'payments', locations: ['eu-west-1'] },
    reply: { status: 201, json: f.checkGroup },
  },
  {
    endpoint: 'checkGroupsGet',
    call: (c) => c.checkGroups.get(45),
    method: 'GET',
    path: '/v1/check-groups/45',
    reply: { json: f.checkGroup },
  },
  {
    endpoint: 'checkGroupsUpdate',
    call: (c) => c.checkGroups.update(45, { name: 'payments', retryStrategy: null }),
    method: 'PUT',
    path: '/v2/check-groups/45',
    body: { name: 'payments', retryStrategy: null },
    reply: { json: f.checkGroup },
  },
  {
    endpoint: 'checkGroupsDelete',
    call: (c) => c.checkGroups.delete(45),
    method: 'DELETE',
    path: '/v1/check-groups/45',
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'dashboardsList',
    call: (c) => c.dashboards.list(),
    method: 'GET',
    path: '/v1/dashboards',
    reply: { json: [f.dashboard], headers: { 'content-range': '0-0/1' } },
    result: { items: [f.dashboard], total: 1 },
  },
  {
    endpoint: 'dashboardsCreate',
    call: (c) => c.dashboards.create({ header: 'Status', customUrl: 'acme-status', refreshRate: 300 }),
    method: 'POST',
    path: '/v1/dashboards',
    body: { header: 'Status', customUrl: 'acme-status', refreshRate: 300 },
    reply: { status: 201, json: f.dashboard },
  },
  {
    endpoint: 'dashboardsGet',
    call: (c) => c.dashboards.get('acme-status', { type: 'customUrl' }),
    method: 'GET',
    path: '/v1/dashboards/acme-status',
    query: { type: 'customUrl' },
    reply: { json: f.dashboard },
  },
  {
    endpoint: 'dashboardsUpdate',
    call: (c) => c.dashboards.update('dash-3', { checksPerPage: 20 }),
    method: 'PUT',
    path: '/v1/dashboards/dash-3',
    body: { checksPerPage: 20 },
    reply: { json: f.dashboard },
  },
  {
    endpoint: 'dashboardsDelete',
    call: (c) => c.dashboards.delete('dash-3'),
    method: 'DELETE',
    path: '/v1/dashboards/dash-3',
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'statusPagesList',
    call: (c) => c.statusPages.list({ limit: 1, nextId: 'cursor-1' }),
    method: 'GET',
    path: '/v1/status-pages',
    query: { limit: '1', nextId: 'cursor-1' },
    reply: { json: { length: 1, entries: [f.statusPage], nextId: 'cursor-2' } },
    result: { items: [f.statusPage], nextId: 'cursor-2' },
  },
  {
    endpoint: 'statusPagesCreate',
    call: (c) =>
      c.statusPages.create({
        name: 'Acme',
        url: 'acme',
        cards: [{ name: 'Core', services: [{ id: f.UUID1 }] }],
      }),
    method: 'POST',
    path: '/v1/status-pages',
    body: { name: 'Acme', url: 'acme', cards: [{ name: 'Core', services: [{ id: f.UUID1 }] }] },
    reply: { status: 201, json: f.statusPage },
  },
  {
    endpoint: 'statusPagesGet',
    call: (c) => c.statusPages.get(f.UUID2),
    method: 'GET',
    path: `/v1/status-pages/${f.UUID2}`,
    reply: { json: f.statusPage },
  },
  {
    endpoint: 'statusPagesUpdate',
    call: (c) =>
      c.statusPages.update(f.UUID2, { name: 'Acme', url: 'acme', cards: [], defaultTheme: 'DARK' }),
    method: 'PUT',
    path: `/v1/status-pages/${f.UUID2}`,
    body: { name: 'Acme', url: 'acme', cards: [], defaultTheme: 'DARK' },
    reply: { json: f.statusPage },
  },
  {
    endpoint: 'statusPagesDelete',
    call: (c) => c.statusPages.delete(f.UUID2),
    method: 'DELETE',
    path: `/v1/status-pages/${f.UUID2}`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'statusPagesDeleteSubscription',
    call: (c) => c.statusPages.deleteSubscription(f.UUID2, 'sub-1'),
    method: 'DELETE',
    path: `/v1/status-pages/${f.UUID2}/subscriptions/sub-1`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'statusPageServicesList',
    call: (c) => c.statusPageServices.list({ paginated: false }),
    method: 'GET',
    path: '/v1/status-pages/services',
    query: { paginated: 'false' },
    reply: { json: { length: 1, entries: [f.service], nextId: null } },
    result: { items: [f.service], nextId: null },
  },
  {
    endpoint: 'statusPageServicesCreate',
    call: (c) => c.statusPageServices.create({ name: 'API' }),
    method: 'POST',
    path: '/v1/status-pages/services',
    body: { name: 'API' },
    reply: { status: 200, json: f.service },
  },
  {
    endpoint: 'statusPageServicesGet',
    call: (c) => c.statusPageServices.get(f.UUID1),
    method: 'GET',
    path: `/v1/status-pages/services/${f.UUID1}`,
    reply: { json: f.service },
  },
  {
    endpoint: 'statusPageServicesUpdate',
    call: (c) => c.statusPageServices.update(f.UUID1, { name: 'API v2' }),
    method: 'PUT',
    path: `/v1/status-pages/services/${f.UUID1}`,
    body: { name: 'API v2' },
    reply: { json: f.service },
  },
  {
    endpoint: 'statusPageServicesDelete',
    call: (c) => c.statusPageServices.delete(f.UUID1),
    method: 'DELETE',
    path: `/v1/status-pages/services/${f.UUID1}`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'statusPageIncidentsList',
    call: (c) => c.statusPageIncidents.list(),
    method: 'GET',
    path: '/v1/status-pages/incidents',
    reply: { json: { length: 1, entries: [f.spIncident], nextId: null } },
    result: { items: [f.spIncident], nextId: null },
  },
  {
    endpoint: 'statusPageIncidentsCreate',
    call: (c) =>
      c.statusPageIncidents.create({
        name: 'Outage',
        severity: 'MAJOR',
        services: [{ id: f.UUID1, name: 'API', accountId: f.UUID2 }],
        incidentUpdates: [{ description: 'Looking into it' }],
      }),
    method: 'POST',
    path: '/v1/status-pages/incidents',
    body: {
      name: 'Outage',
      severity: 'MAJOR',
      services: [{ id: f.UUID1, name: 'API', accountId: f.UUID2 }],
      incidentUpdates: [{ description: 'Looking into it' }],
    },
    reply: { status: 201, json: f.spIncident },
  },
  {
    endpoint: 'statusPageIncidentsGet',
    call: (c) => c.statusPageIncidents.get(f.UUID1),
    method: 'GET',
    path: `/v1/status-pages/incidents/${f.UUID1}`,
    reply: { json: f.spIncident },
  },
  {
    endpoint: 'statusPageIncidentsUpdate',
    call: (c) => c.statusPageIncidents.update(f.UUID1, { name: 'Outage', severity: 'MINOR', services: [] }),
    method: 'PUT',
    path: `/v1/status-pages/incidents/${f.UUID1}`,
    body: { name: 'Outage', severity: 'MINOR', services: [] },
    reply: { json: f.spIncident },
  },
  {
    endpoint: 'statusPageIncidentsDelete',
    call: (c) => c.statusPageIncidents.delete(f.UUID1),
    method: 'DELETE',
    path: `/v1/status-pages/incidents/${f.UUID1}`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'statusPageIncidentsListUpdates',
    call: (c) => c.statusPageIncidents.listUpdates(f.UUID1),
    method: 'GET',
    path: `/v1/status-pages/incidents/${f.UUID1}/incident-updates`,
    reply: { json: [f.spIncidentUpdate] },
  },
  {
    endpoint: 'statusPageIncidentsCreateUpdate',
    call: (c) => c.statusPageIncidents.createUpdate(f.UUID1, { description: 'Fixed', status: 'RESOLVED' }),
    method: 'POST',
    path: `/v1/status-pages/incidents/${f.UUID1}/incident-updates`,
    body: { description: 'Fixed', status: 'RESOLVED' },
    reply: { json: f.spIncidentUpdate },
  },
  {
    endpoint: 'maintenanceWindowsList',
    call: (c) => c.maintenanceWindows.list({ startsAt: { gte: '2026-11-01' } }),
    method: 'GET',
    path: '/v1/maintenance-windows',
    query: { 'startsAt[gte]': '2026-11-01' },
    reply: { json: [f.maintenanceWindow] },
    result: { items: [f.maintenanceWindow], total: undefined },
  },
  {
    endpoint: 'maintenanceWindowsCreate',
    call: (c) =>
      c.maintenanceWindows.create({
        name: 'Upgrade',
        startsAt: f.NOW,
        endsAt: '2026-11-21T12:00:00.000Z',
        repeatUnit: null,
      }),
    method: 'POST',
    path: '/v1/maintenance-windows',
    body: { name: 'Upgrade', startsAt: f.NOW, endsAt: '2026-11-21T12:00:00.000Z', repeatUnit: null },
    reply: { status: 201, json: f.maintenanceWindow },
  },
  {
    endpoint: 'maintenanceWindowsGet',
    call: (c) => c.maintenanceWindows.get(9),
    method: 'GET',
    path: '/v1/maintenance-windows/9',
    reply: { json: f.maintenanceWindow },
  },
  {
    endpoint: 'maintenanceWindowsUpdate',
    call: (c) => c.maintenanceWindows.update(9, { tags: ['db'] }),
    method: 'PUT',
    path: '/v1/maintenance-windows/9',
    body: { tags: ['db'] },
    reply: { json: f.maintenanceWindow },
  },
  {
    endpoint: 'maintenanceWindowsDelete',
    call: (c) => c.maintenanceWindows.delete(9),
    method: 'DELETE',
    path: '/v1/maintenance-windows/9',
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'incidentsCreate',
    call: (c) =>
      c.incidents.create({
        name: 'Outage',
        impact: 'MINOR',
        dashboardId: 3,
        incidentUpdates: [{ status: 'INVESTIGATING', description: 'Looking' }],
      }),
    method: 'POST',
    path: '/v1/incidents',
    body: {
      name: 'Outage',
      impact: 'MINOR',
      dashboardId: 3,
      incidentUpdates: [{ status: 'INVESTIGATING', description: 'Looking' }],
    },
    reply: { json: f.incident },
  },
  {
    endpoint: 'incidentsGet',
    call: (c) => c.incidents.get(f.UUID1, { includeAllIncidentUpdates: true }),
    method: 'GET',
    path: `/v1/incidents/${f.UUID1}`,
    query: { includeAllIncidentUpdates: 'true' },
    reply: { json: f.incident },
  },
  {
    endpoint: 'incidentsUpdate',
    call: (c) => c.incidents.update(f.UUID1, { name: 'Outage', impact: 'MAJOR' }),
    method: 'PUT',
    path: `/v1/incidents/${f.UUID1}`,
    body: { name: 'Outage', impact: 'MAJOR' },
    reply: { json: f.incident },
  },
  {
    endpoint: 'incidentsDelete',
    call: (c) => c.incidents.delete(f.UUID1),
    method: 'DELETE',
    path: `/v1/incidents/${f.UUID1}`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'incidentsCreateUpdate',
    call: (c) => c.incidents.createUpdate(f.UUID1, { status: 'RESOLVED', description: 'Done' }),
    method: 'POST',
    path: `/v1/incidents/${f.UUID1}/updates`,
    body: { status: 'RESOLVED', description: 'Done' },
    reply: { status: 201, json: f.incidentUpdate },
  },
  {
    endpoint: 'alertChannelsList',
    call: (c) => c.alertChannels.list({ limit: 100 }),
    method: 'GET',
    path: '/v1/alert-channels',
    query: { limit: '100' },
    reply: { json: [f.alertChannel], headers: { 'content-range': '0-0/1' } },
    result: { items: [f.alertChannel], total: 1 },
  },
  {
    endpoint: 'alertChannelsCreate',
    call: (c) =>
      c.alertChannels.create({ type: 'EMAIL', config: { address: 'ops@example.com' }, sslExpiry: true }),
    method: 'POST',
    path: '/v1/alert-channels',
    body: { type: 'EMAIL', config: { address: 'ops@example.com' }, sslExpiry: true },
    reply: { status: 201, json: f.alertChannel },
  },
  {
    endpoint: 'alertChannelsGet',
    call: (c) => c.alertChannels.get(7),
    method: 'GET',
    path: '/v1/alert-channels/7',
    reply: { json: f.alertChannel },
  },
  {
    endpoint: 'alertChannelsUpdate',
    call: (c) =>
      c.alertChannels.update(7, {
        type: 'OPSGENIE',
        config: { name: 'og', apiKey: 'k', region: 'EU', priority: 'P2' },
      }),
    method: 'PUT',
    path: '/v1/alert-channels/7',
    body: { type: 'OPSGENIE', config: { name: 'og', apiKey: 'k', region: 'EU', priority: 'P2' } },
    reply: { json: f.alertChannel },
  },
  {
    endpoint: 'alertChannelsDelete',
    call: (c) => c.alertChannels.delete(7),
    method: 'DELETE',
    path: '/v1/alert-channels/7',
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'alertChannelsUpsertSubscription',
    call: (c) => c.alertChannels.upsertSubscription(7, { activated: true, groupId: 45 }),
    method: 'PUT',
    path: '/v1/alert-channels/7/subscriptions',
    body: { activated: true, groupId: 45 },
    reply: { json: { id: 1, checkId: null, groupId: 45, activated: true } },
  },
  {
    endpoint: 'checksList',
    call: (c) => c.checks.list({ checkType: 'API', search: 'health', applyGroupSettings: true }),
    method: 'GET',
    path: '/v1/checks',
    query: { checkType: 'API', search: 'health', applyGroupSettings: 'true' },
    reply: { json: [f.check] },
    result: { items: [f.check], total: undefined },
  },
  {
    endpoint: 'checksGet',
    call: (c) => c.checks.get(f.UUID1, { includeDependencies: true }),
    method: 'GET',
    path: `/v1/checks/${f.UUID1}`,
    query: { includeDependencies: 'true' },
    reply: { json: f.check },
  },
  {
    endpoint: 'checkSessionsTrigger',
    call: (c) => c.checkSessions.trigger({ target: { matchTags: [['api', 'prod']] }, refreshCache: true }),
    method: 'POST',
    path: '/v2/check-sessions/trigger',
    body: { target: { matchTags: [['api', 'prod']] }, refreshCache: true },
    reply: { status: 201, json: f.triggered },
  },
  {
    endpoint: 'checkSessionsGet',
    call: (c) => c.checkSessions.get(f.UUID2),
    method: 'GET',
    path: `/v2/check-sessions/${f.UUID2}`,
    reply: { json: f.checkSession },
  },
  {
    endpoint: 'checkSessionsCompletion',
    call: (c) => c.checkSessions.completion(f.UUID2, { maxWaitSeconds: 5 }),
    method: 'GET',
    path: `/v2/check-sessions/${f.UUID2}/completion`,
    query: { maxWaitSeconds: '5' },
    reply: { json: f.checkSession },
    result: { session: f.checkSession },
  },
  {
    endpoint: 'checkResultsGet',
    call: (c) => c.checkResults.get(f.UUID1, f.UUID2),
    method: 'GET',
    path: `/v1/check-results/${f.UUID1}/${f.UUID2}`,
    reply: { json: f.checkResult },
  },
  {
    endpoint: 'testSessionsCancel',
    call: (c) => c.testSessions.cancel(f.UUID1, { sequenceId: [f.UUID2] }),
    method: 'POST',
    path: `/v1/test-sessions/${f.UUID1}/cancel`,
    body: { sequenceId: [f.UUID2] },
    reply: { status: 204 },
    result: undefined,
  },
  {
    endpoint: 'analyticsApiCheck',
    call: (c) =>
      c.analytics.apiCheck(f.UUID1, {
        metrics: ['responseTime_p95', 'availability'],
        quickRange: 'last7Days',
        groupBy: 'runLocation',
        filterByStatus: ['success', 'failure'],
        aggregationInterval: 60,
      }),
    method: 'GET',
    path: `/v1/analytics/api-checks/${f.UUID1}`,
    query: {
      metrics: 'responseTime_p95,availability',
      quickRange: 'last7Days',
      groupBy: 'runLocation',
      filterByStatus: ['success', 'failure'],
      aggregationInterval: '60',
    },
    reply: { json: f.apiCheckAnalytics },
  },
  {
    endpoint: 'analyticsSummary',
    call: (c) => c.analytics.summary({ checkIds: [f.UUID1] }, { quickRange: 'lastWeek' }),
    method: 'POST',
    path: '/v1/analytics/checks',
    query: { quickRange: 'lastWeek' },
    body: { checkIds: [f.UUID1] },
    reply: { json: f.summary },
  },
  {
    endpoint: 'errorGroupsList',
    call: (c) => c.errorGroups.list({ page: 1 }),
    method: 'GET',
    path: '/v1/error-groups',
    query: { page: '1' },
    reply: { json: [f.errorGroup] },
    result: { items: [f.errorGroup], total: undefined },
  },
  {
    endpoint: 'errorGroupsGet',
    call: (c) => c.errorGroups.get(f.UUID2),
    method: 'GET',
    path: `/v1/error-groups/${f.UUID2}`,
    reply: { json: f.errorGroup },
  },
  {
    endpoint: 'testSessionErrorGroupsGet',
    call: (c) => c.testSessionErrorGroups.get(f.UUID1),
    method: 'GET',
    path: `/v1/test-session-error-groups/${f.UUID1}`,
    reply: { json: f.testSessionErrorGroup },
  },
  {
    endpoint: 'rootCauseAnalysesGenerateForErrorGroup',
    call: (c) => c.rootCauseAnalyses.generate({ errorGroupId: f.UUID2 }, { userContext: 'after deploy' }),
    method: 'POST',
    path: `/v1/root-cause-analyses/error-groups/${f.UUID2}`,
    body: { userContext: 'after deploy' },
    reply: { status: 202, json: f.rcaPending },
  },
  {
    endpoint: 'rootCauseAnalysesGenerateForTestSessionErrorGroup',
    call: (c) => c.rootCauseAnalyses.generate({ testSessionErrorGroupId: f.UUID1 }),
    method: 'POST',
    path: `/v1/root-cause-analyses/test-session-error-groups/${f.UUID1}`,
    body: {},
    reply: { status: 202, json: f.rcaPending },
  },
  {
    endpoint: 'rootCauseAnalysesGet',
    call: (c) => c.rootCauseAnalyses.get('rca-1'),
    method: 'GET',
    path: '/v1/root-cause-analyses/rca-1',
    reply: { json: f.rcaCompleted },
  },
  {
    endpoint: 'privateLocationsMetrics',
    call: (c) => c.privateLocations.metrics('pl-1', { from: since, to: until }),
    method: 'GET',
    path: '/v1/private-locations/pl-1/metrics',
    query: { from: String(since), to: String(until) },
    reply: { json: f.plMetrics },
  },
];

let server: TestServer;
let replies: Reply[] = [];
let client: Client;

beforeAll(async () => {
  server = await startTestServer((_req, i) => replies[i] ?? { status: 500 });
  client = createClient({ baseUrl: server.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT, env: {} });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('client methods', () => {
  it('covers every service endpoint', () => {
    const covered = new Set(cases.map((c) => c.endpoint));
    const serviceNames = (Object.keys(endpoints) as EndpointName[]).filter((n) => !n.startsWith('agent'));
    expect(serviceNames.filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(cases)('$endpoint sends $method $path', async (c) => {
    server.requests.length = 0;
    replies = [c.reply];
    const result = await c.call(client);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe(c.method);
    expect(req.path).toBe(c.path);
    expect(req.method).toBe(endpoints[c.endpoint].method);
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(req.query.keys())) {
      const all = req.query.getAll(key);
      query[key] = all.length > 1 ? all : all[0]!;
    }
    expect(query).toEqual(c.query ?? {});
    expect(req.body).toEqual(c.body);
    if (c.body !== undefined) expect(req.headers['content-type']).toBe('application/json');
    expect(result).toEqual('result' in c ? c.result : c.reply.json);
  });

  it('awaitCompletion asks again after a 408, waiting its Retry-After, until the session is final', async () => {
    server.requests.length = 0;
    replies = [
      { status: 408, headers: { 'retry-after': '0.05' }, json: { message: 'still running' } },
      { json: f.checkSession },
    ];
    const session = await client.checkSessions.awaitCompletion(f.UUID2, { maxWaitSeconds: 5 });
    expect(session).toEqual(f.checkSession);
    expect(server.requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      `/v2/check-sessions/${f.UUID2}/completion?maxWaitSeconds=5`,
      `/v2/check-sessions/${f.UUID2}/completion?maxWaitSeconds=5`,
    ]);
  });
});
