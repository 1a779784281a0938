import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// Imported by package name: this resolves through node_modules to the built dist/, the way a user's
// project and the other packages load it.
import * as api from '@monitor/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ACCOUNT = '0b7c3c1e-54a4-4a49-9d0f-1c7b1f6f2a11';

/** The rows of the endpoint table in spec/api-addendum.md §4, one route per method. */
const SPEC_ROUTES = [
  'GET /v1/check-groups',
  'POST /v2/check-groups',
  'GET /v1/check-groups/{id}',
  'PUT /v2/check-groups/{id}',
  'DELETE /v1/check-groups/{id}',
  'GET /v1/dashboards',
  'POST /v1/dashboards',
  'GET /v1/dashboards/{dashboardId}',
  'PUT /v1/dashboards/{dashboardId}',
  'DELETE /v1/dashboards/{dashboardId}',
  'GET /v1/status-pages',
  'POST /v1/status-pages',
  'GET /v1/status-pages/{statusPageId}',
  'DELETE /v1/status-pages/{statusPageId}',
  'PUT /v1/status-pages/{statusPageId}',
  'GET /v1/status-pages/services',
  'POST /v1/status-pages/services',
  'GET /v1/status-pages/services/{serviceId}',
  'PUT /v1/status-pages/services/{serviceId}',
  'DELETE /v1/status-pages/services/{serviceId}',
  'DELETE /v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}',
  'GET /v1/maintenance-windows',
  'POST /v1/maintenance-windows',
  'GET /v1/maintenance-windows/{id}',
  'PUT /v1/maintenance-windows/{id}',
  'DELETE /v1/maintenance-windows/{id}',
  'POST /v1/incidents',
  'GET /v1/incidents/{id}',
  'PUT /v1/incidents/{id}',
  'DELETE /v1/incidents/{id}',
  'POST /v1/incidents/{incidentId}/updates',
  'GET /v1/status-pages/incidents',
  'POST /v1/status-pages/incidents',
  'GET /v1/status-pages/incidents/{incidentId}',
  'PUT /v1/status-pages/incidents/{incidentId}',
  'DELETE /v1/status-pages/incidents/{incidentId}',
  'GET /v1/status-pages/incidents/{incidentId}/incident-updates',
  'POST /v1/status-pages/incidents/{incidentId}/incident-updates',
  'GET /v1/alert-channels',
  'POST /v1/alert-channels',
  'GET /v1/alert-channels/{id}',
  'DELETE /v1/alert-channels/{id}',
  'PUT /v1/alert-channels/{id}',
  'PUT /v1/alert-channels/{id}/subscriptions',
  'GET /v1/checks',
  'GET /v1/checks/{id}',
  'POST /v2/check-sessions/trigger',
  'GET /v2/check-sessions/{checkSessionId}',
  'GET /v2/check-sessions/{checkSessionId}/completion',
  'GET /v1/check-results/{checkId}/{checkResultId}',
  'POST /v1/test-sessions/{testSessionId}/cancel',
  'GET /v1/analytics/api-checks/{id}',
  'POST /v1/analytics/checks',
  'GET /v1/error-groups',
  'GET /v1/error-groups/{id}',
  'GET /v1/test-session-error-groups/{id}',
  'POST /v1/root-cause-analyses/error-groups/{errorGroupId}',
  'POST /v1/root-cause-analyses/test-session-error-groups/{testSessionErrorGroupId}',
  'GET /v1/root-cause-analyses/{id}',
  'GET /v1/private-locations/{id}/metrics',
];
let url = '';
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-range': '0-0/1' });
  res.end(
    JSON.stringify([
      {
        id: 1,
        type: 'EMAIL',
        config: { address: 'ops@example.com' },
        created_at: '2026-11-21T10:00:00.000Z',
      },
    ]),
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('@monitor/api as built', () => {
  it('exports the client, the endpoint table, the schemas and the errors by name', () => {
    expect(typeof api.createClient).toBe('function');
    expect(typeof api.createAgentHealthClient).toBe('function');
    expect(Object.keys(api.endpoints).length).toBeGreaterThan(50);
    expect(api.checkGroupCreateSchema.safeParse({ name: 'x' }).success).toBe(true);
    const gone = new api.NotFoundError('gone');
    expect(gone).toBeInstanceOf(api.ApiError);
    expect(gone.code).toBe('not_found');
    expect(api.CLIENT_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves exactly the routes of the addendum’s endpoint table (§4), each once', () => {
    const routes = api.serviceEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect([...routes].sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it('calls a real server from the built output', async () => {
    const client = api.createClient({ baseUrl: url, apiKey: 'k-123456', accountId: ACCOUNT, env: {} });
    const channels = await api.collect(client.alertChannels.all());
    expect(channels).toEqual([
      {
        id: 1,
        type: 'EMAIL',
        config: { address: 'ops@example.com' },
        created_at: '2026-11-21T10:00:00.000Z',
      },
    ]);
    await client.close();
  });
});
