import {
  ConflictError,
  collect,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  serviceEndpoints,
  UnauthorizedError,
  ValidationError,
} from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNT_ID, DEV_API_KEY } from './index.js';
import { advance, FIXTURE, harness } from './test-support/harness.js';

const OTHER_ACCOUNT = '11111111-2222-4333-8444-555555555555';

describe('every endpoint through the @monitor/api client', () => {
  it('serves the whole CRUD surface with the documented success codes', async () => {
    const h = await harness();
    const { client } = h;

    // Check groups
    const group = await client.checkGroups.create(
      { name: 'payments', locations: ['us-east-1', 'eu-west-1'] },
      { autoAssignAlerts: false },
    );
    expect(group).toMatchObject({
      name: 'payments',
      activated: true,
      concurrency: 3,
      locations: ['eu-west-1', 'us-east-1'],
    });
    expect(await client.checkGroups.get(group.id)).toMatchObject({ id: group.id });
    expect((await client.checkGroups.list({ name: 'payments' })).items).toHaveLength(1);
    expect(await client.checkGroups.update(group.id, { name: 'payments', muted: true })).toMatchObject({
      muted: true,
    });

    // Alert channels and subscriptions
    const channel = await client.alertChannels.create({
      type: 'EMAIL',
      config: { address: 'a@example.com' },
    });
    expect(channel).toMatchObject({
      sendFailure: true,
      sendRecovery: true,
      sendDegraded: false,
      sslExpiryThreshold: 30,
    });
    expect(await client.alertChannels.get(channel.id)).toMatchObject({ id: channel.id });
    expect(
      await client.alertChannels.update(channel.id, { type: 'EMAIL', config: { address: 'b@example.com' } }),
    ).toMatchObject({
      config: { address: 'b@example.com' },
    });
    const sub = await client.alertChannels.upsertSubscription(channel.id, {
      activated: true,
      groupId: group.id,
    });
    expect(sub).toMatchObject({ groupId: group.id, activated: true, checkId: null });
    expect((await collect(client.alertChannels.all())).length).toBe(4);

    // Dashboards and incidents
    const dashboard = await client.dashboards.create({ header: 'Status', customUrl: 'acme-status' });
    expect(await client.dashboards.get(dashboard.dashboardId)).toMatchObject({ id: dashboard.id });
    expect(await client.dashboards.get('acme-status', { type: 'customUrl' })).toMatchObject({
      id: dashboard.id,
    });
    expect(await client.dashboards.update(dashboard.dashboardId, { refreshRate: 300 })).toMatchObject({
      refreshRate: 300,
    });
    expect((await client.dashboards.list()).items).toHaveLength(1);
    const incident = await client.incidents.create({
      name: 'Outage',
      impact: 'MAJOR',
      dashboardId: dashboard.id,
      incidentUpdates: [{ status: 'INVESTIGATING', description: 'Looking' }],
    });
    const update = await client.incidents.createUpdate(incident.id, {
      status: 'RESOLVED',
      description: 'Fixed',
    });
    expect(update.incidentId).toBe(incident.id);
    expect((await client.incidents.get(incident.id)).incidentUpdates).toHaveLength(1);
    expect(
      (await client.incidents.get(incident.id, { includeAllIncidentUpdates: true })).incidentUpdates,
    ).toHaveLength(2);
    expect(await client.incidents.update(incident.id, { name: 'Outage', impact: 'MINOR' })).toMatchObject({
      impact: 'MINOR',
    });
    await client.incidents.delete(incident.id);

    // Status pages, services, status-page incidents
    const service = await client.statusPageServices.create({ name: 'API' });
    expect(await client.statusPageServices.get(service.id)).toMatchObject({
      name: 'API',
      accountId: DEV_ACCOUNT_ID,
    });
    expect(await client.statusPageServices.update(service.id, { name: 'Public API' })).toMatchObject({
      name: 'Public API',
    });
    expect((await collect(client.statusPageServices.all())).map((s) => s.name)).toContain('Public API');
    const page = await client.statusPages.create({
      name: 'Acme',
      url: 'Acme-Status',
      cards: [{ name: 'Core', services: [{ id: service.id }] }],
    });
    expect(page).toMatchObject({
      url: 'acme-status',
      defaultTheme: 'AUTO',
      isPrivate: false,
      whiteLabel: false,
    });
    expect(page.cards[0]?.services[0]).toMatchObject({ id: service.id, name: 'Public API' });
    expect(await client.statusPages.get(page.id)).toMatchObject({ id: page.id });
    expect(
      await client.statusPages.update(page.id, {
        name: 'Acme',
        url: 'acme-status',
        cards: [],
        defaultTheme: 'DARK',
      }),
    ).toMatchObject({ cards: [], defaultTheme: 'DARK' });
    expect((await client.statusPages.list()).items).toHaveLength(1);
    const spIncident = await client.statusPageIncidents.create({
      name: 'Degraded',
      severity: 'MEDIUM',
      services: [{ id: service.id, name: 'Public API', accountId: DEV_ACCOUNT_ID }],
      incidentUpdates: [{ description: 'Looking into it' }],
    });
    expect(spIncident.incidentUpdates?.[0]).toMatchObject({
      status: 'INVESTIGATING',
      notifySubscribers: false,
    });
    await client.statusPageIncidents.createUpdate(spIncident.id, {
      description: 'Fixed',
      status: 'RESOLVED',
    });
    expect((await client.statusPageIncidents.listUpdates(spIncident.id)).map((u) => u.status)).toEqual([
      'RESOLVED',
      'INVESTIGATING',
    ]);
    expect(await client.statusPageIncidents.get(spIncident.id)).toMatchObject({
      lastUpdateStatus: 'RESOLVED',
    });
    expect(
      await client.statusPageIncidents.update(spIncident.id, {
        name: 'Degraded',
        severity: 'MINOR',
        services: [],
      }),
    ).toMatchObject({ severity: 'MINOR' });
    const incidents = await collect(client.statusPageIncidents.all());
    expect(incidents[0]?.id).toBe(spIncident.id); // newest first
    await client.statusPageIncidents.delete(spIncident.id);

    // Maintenance windows
    const window = await client.maintenanceWindows.create({
      name: 'Upgrade',
      startsAt: '2026-12-01T10:00:00.000Z',
      endsAt: '2026-12-01T12:00:00.000Z',
      repeatUnit: null,
    });
    expect(window).toMatchObject({
      tags: [],
      pauseAllChecks: false,
      statusPageVisibility: { autoStart: true },
    });
    expect(await client.maintenanceWindows.get(window.id)).toMatchObject({ name: 'Upgrade' });
    expect(await client.maintenanceWindows.update(window.id, { tags: ['b', 'a'] })).toMatchObject({
      tags: ['a', 'b'],
    });
    expect((await client.maintenanceWindows.list({ startsAt: { gte: '2026-11-30' } })).items).toHaveLength(1);
    expect((await client.maintenanceWindows.list({ startsAt: { lt: '2026-11-30' } })).items).toHaveLength(0);

    // Checks, error groups, analytics, private locations
    expect((await client.checks.list({ checkType: 'API' })).items.map((c) => c.id).sort()).toEqual(
      [FIXTURE.apiCheck, FIXTURE.failingApiCheck].sort(),
    );
    expect(await client.checks.get(FIXTURE.apiCheck)).toMatchObject({ checkType: 'API' });
    expect((await collect(client.errorGroups.all())).length).toBe(3);
    expect(await client.errorGroups.get(FIXTURE.errorGroup)).toMatchObject({ checkId: FIXTURE.apiCheck });
    expect(await client.testSessionErrorGroups.get(FIXTURE.testSessionErrorGroup)).toMatchObject({
      projectId: 'web-e2e',
    });
    const analytics = await client.analytics.apiCheck(FIXTURE.apiCheck, {
      metrics: ['responseTime_p95', 'availability'],
    });
    expect(Object.keys(analytics.metadata).sort()).toEqual(['availability', 'responseTime_p95']);
    const summary = await client.analytics.summary({ checkIds: [FIXTURE.apiCheck, FIXTURE.icmpCheck] });
    expect(summary.map((s) => s.checkId)).toEqual([FIXTURE.apiCheck, FIXTURE.icmpCheck]);
    const now = Math.floor(Date.now() / 1000);
    const metrics = await client.privateLocations.metrics(FIXTURE.privateLocation, {
      from: now - 3600,
      to: now,
    });
    expect(metrics.timestamps.length).toBe(metrics.queueSize.length);

    // Deletes answer 204
    await client.statusPages.delete(page.id);
    await client.statusPageServices.delete(service.id);
    await client.maintenanceWindows.delete(window.id);
    await client.dashboards.delete(dashboard.dashboardId);
    await client.alertChannels.delete(channel.id);
    await client.checkGroups.delete(group.id);
    const codes = h.emulator.requests.filter((r) => r.method === 'DELETE').map((r) => r.status);
    expect(new Set(codes)).toEqual(new Set([204]));
    const creates = h.emulator.requests
      .filter((r) => r.method === 'POST')
      .map((r) => `${r.route} ${r.status}`);
    expect(creates).toContain('/v2/check-groups 201');
    expect(creates).toContain('/v1/status-pages/services 200');
    expect(creates).toContain('/v1/incidents 200');
    expect(creates).toContain('/v1/incidents/{incidentId}/updates 201');
  });

  it('serves every route of the endpoint table', async () => {
    const h = await harness();
    for (const endpoint of serviceEndpoints) {
      const path = endpoint.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000009');
      const res = await h.raw(endpoint.method, path, endpoint.body === undefined ? {} : { body: {} });
      // Not 404-for-route: every route exists (a 404 here names the missing resource instead).
      if (res.status === 404) expect((res.json as { message: string }).message).not.toMatch(/^Route /);
    }
  });
});

describe('error paths', () => {
  it('400 names the field, for bodies, queries and path params', async () => {
    const h = await harness();
    const body = await h.raw('POST', '/v2/check-groups', { body: { concurrency: 2 } });
    expect(body.status).toBe(400);
    expect(body.json).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: '"name" is required',
      validation: { source: 'payload' },
    });
    const unknown = await h.raw('PUT', '/v2/check-groups/1', {
      body: { name: 'x', created_at: '2026-01-01' },
    });
    expect(unknown.json).toMatchObject({ message: '"created_at" is not allowed' });
    const limit = await h.raw('GET', '/v1/alert-channels?limit=101');
    expect(limit.json).toMatchObject({
      message: '"limit" must be less than or equal to 100',
      validation: { source: 'query', keys: ['limit'] },
    });
    const id = await h.raw('GET', '/v1/check-groups/abc');
    expect(id.status).toBe(400);
    expect((id.json as { validation: { source: string } }).validation.source).toBe('params');
    const badJson = await h.raw('POST', '/v2/check-groups', { rawBody: '{"name":' });
    expect(badJson).toMatchObject({ status: 400, json: { message: 'Invalid request payload JSON format' } });
    const notJson = await h.raw('POST', '/v2/check-groups', {
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    const range = await h.raw('PUT', '/v1/dashboards/x', { body: { checksPerPage: 21 } });
    expect(range.json).toMatchObject({ message: '"checksPerPage" must be less than or equal to 20' });
  });

  it('400 from the client as a ValidationError when client-side checks are off', async () => {
    const h = await harness({}, { validateRequests: false });
    const error = await h.client.checkGroups
      .create({ name: 'g', locations: ['mars-1' as never] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).serverMessage).toMatch(/"locations\[0\]" must be one of/);
  });

  it('401 for a missing or unknown key, or a missing account header; 403 without access', async () => {
    const h = await harness({
      accounts: [
        { id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY], readOnlyKeys: ['mk_read_only'] },
        { id: OTHER_ACCOUNT, keys: ['mk_other'] },
      ],
    });
    expect((await h.raw('GET', '/v1/check-groups', { headers: { authorization: '' } })).status).toBe(401);
    expect((await h.raw('GET', '/v1/check-groups', { headers: { authorization: 'Basic abc' } })).status).toBe(
      401,
    );
    const unknown = await h.raw('GET', '/v1/check-groups', { headers: { authorization: 'Bearer nope' } });
    expect(unknown).toMatchObject({
      status: 401,
      json: { statusCode: 401, error: 'Unauthorized', attributes: {} },
    });
    expect((await h.raw('GET', '/v1/check-groups', { headers: { 'x-monitor-account': '' } })).status).toBe(
      401,
    );
    const other = h.clientFor({ apiKey: 'mk_other' });
    await expect(other.checkGroups.list()).rejects.toBeInstanceOf(ForbiddenError);
    const unauthorized = h.clientFor({ apiKey: 'mk_wrong' });
    await expect(unauthorized.checkGroups.list()).rejects.toBeInstanceOf(UnauthorizedError);
    const readOnly = h.clientFor({ apiKey: 'mk_read_only' });
    await expect(readOnly.checkGroups.list()).resolves.toBeDefined();
    await expect(readOnly.checkGroups.create({ name: 'x' })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('402 for operations the plan lacks', async () => {
    const h = await harness({
      accounts: [{ id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY], paymentRequired: ['alertChannels.create'] }],
    });
    const error = await h.client.alertChannels
      .create({ type: 'EMAIL', config: { address: 'a@b.co' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
  });

  it('404 for unknown ids and routes', async () => {
    const h = await harness();
    await expect(h.client.checkGroups.get(999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.checkGroups.delete(999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.statusPages.get('nope')).rejects.toBeInstanceOf(NotFoundError);
    const route = await h.raw('GET', '/v1/nothing-here');
    expect(route).toMatchObject({ status: 404, json: { statusCode: 404, error: 'Not Found' } });
    const sub = await h.raw('DELETE', '/v1/status-pages/x/subscriptions/y');
    expect(sub.json).toMatchObject({ message: expect.any(String), attributes: expect.any(Object) });
    await expect(
      h.client.statusPages.create({
        name: 'x',
        url: 'x',
        cards: [{ name: 'c', services: [{ id: 'missing' }] }],
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      h.client.incidents.create({
        name: 'i',
        impact: 'MINOR',
        dashboardId: 99,
        incidentUpdates: [{ status: 'INVESTIGATING', description: 'd' }],
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('409 for a dashboard customUrl taken in another account, and a group that still has checks', async () => {
    const h = await harness({
      accounts: [
        { id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY] },
        { id: OTHER_ACCOUNT, keys: ['mk_other'] },
      ],
    });
    await h.client.dashboards.create({ header: 'A', customUrl: 'shared-name' });
    const other = h.clientFor({ apiKey: 'mk_other', accountId: OTHER_ACCOUNT });
    await expect(other.dashboards.create({ header: 'B', customUrl: 'shared-name' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await h.client.dashboards.create({ header: 'C', customDomain: 'status.acme.com' });
    await expect(
      other.dashboards.create({ header: 'D', customDomain: 'status.acme.com' }),
    ).rejects.toBeInstanceOf(ConflictError);

    const group = await h.client.checkGroups.create({ name: 'with-checks' });
    await h.raw('POST', '/_emulator/seed', {
      body: {
        fixture: {
          checks: [
            {
              id: '0d0d0d0d-0d0d-4d0d-8d0d-0d0d0d0d0d0d',
              checkType: 'API',
              name: 'in group',
              groupId: group.id,
            },
          ],
        },
      },
    });
    await expect(h.client.checkGroups.delete(group.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('429 with Retry-After and X-RateLimit headers once the account is over its limit', async () => {
    const h = await harness({ rateLimits: { default: { limit: 5, windowMs: 60_000 }, routes: [] } });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof h.raw>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await h.raw('GET', '/v1/check-groups');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('5');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last?.json).toMatchObject({ statusCode: 429, attributes: {} });
    const client = h.clientFor({ retry: { rateLimitRetries: 0 }, rateLimit: false });
    await expect(client.checkGroups.list()).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('counts per-route buckets apart and every /v1 answer has rate-limit headers', async () => {
    const h = await harness();
    const res = await h.raw('GET', `/v1/analytics/api-checks/${FIXTURE.apiCheck}?metrics=availability`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    const list = await h.raw('GET', '/v1/check-groups');
    expect(list.headers.get('x-ratelimit-limit')).toBe('600');
    expect(list.headers.get('x-ratelimit-remaining')).toBe('599');
  });

  it('keeps accounts apart: a resource of one account is 404 in another', async () => {
    const h = await harness({
      accounts: [
        { id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY] },
        { id: OTHER_ACCOUNT, keys: ['mk_other'] },
      ],
    });
    const group = await h.client.checkGroups.create({ name: 'mine' });
    const other = h.clientFor({ apiKey: 'mk_other', accountId: OTHER_ACCOUNT });
    await expect(other.checkGroups.get(group.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await other.checkGroups.list()).items).toEqual([]);
  });
});

describe('answers against the real contract (audit findings)', () => {
  const DATE = /^\d{4}-\d{2}-\d{2}$/;

  it('sends server-set date fields as dates: services, status-page incidents and updates, error groups, analyses', async () => {
    const h = await harness();
    const seeded = await h.client.statusPageServices.get(FIXTURE.seededService);
    expect(seeded.created_at).toMatch(DATE);
    const made = await h.client.statusPageServices.create({ name: 'Made' });
    expect([made.created_at, made.updated_at]).toEqual([
      expect.stringMatching(DATE),
      expect.stringMatching(DATE),
    ]);
    const incident = await h.client.statusPageIncidents.get(FIXTURE.seededIncident);
    expect(incident.created_at).toMatch(DATE);
    expect(incident.incidentUpdates?.every((u) => DATE.test(u.created_at ?? ''))).toBe(true);
    const group = await h.client.errorGroups.get(FIXTURE.errorGroup);
    expect([group.firstSeen, group.lastSeen]).toEqual([
      expect.stringMatching(DATE),
      expect.stringMatching(DATE),
    ]);
    const pending = await h.client.rootCauseAnalyses.generate({ errorGroupId: FIXTURE.errorGroup });
    await advance(h, 3000);
    const analysis = await h.client.rootCauseAnalyses.get(pending.id);
    expect(analysis.status === 'COMPLETED' && analysis.created_at).toMatch(DATE);
  });

  it('lists status pages with accountId; an incident carries whole services and a string updated_at from the start', async () => {
    const h = await harness();
    await h.client.statusPages.create({
      name: 'P',
      url: 'audit-page',
      cards: [{ name: 'c', services: [{ id: FIXTURE.seededService }] }],
    });
    const [page] = (await h.client.statusPages.list()).items;
    expect(page?.accountId).toBe(DEV_ACCOUNT_ID);
    const service = await h.client.statusPageServices.get(FIXTURE.seededService);
    const incident = await h.client.statusPageIncidents.create({
      name: 'Slow',
      severity: 'MINOR',
      services: [{ id: service.id, name: service.name, accountId: service.accountId }],
      incidentUpdates: [{ description: 'Looking' }],
    });
    expect(incident.services[0]).toMatchObject({ id: service.id, created_at: expect.stringMatching(DATE) });
    expect(incident.updated_at).toMatch(DATE);
  });

  it('answers 400, not 404, for malformed check, error-group and analytics ids', async () => {
    const h = await harness();
    for (const path of [
      '/v1/checks/not-a-uuid',
      '/v1/error-groups/not-a-uuid',
      '/v1/analytics/api-checks/not-a-uuid?metrics=availability',
    ]) {
      expect((await h.raw('GET', path)).status, path).toBe(400);
    }
    expect((await h.raw('GET', '/v1/checks/99999999-9999-4999-8999-999999999999')).status).toBe(404);
  });

  it('deletes a status-page subscription with 204 and an empty body; then 404 in shape B', async () => {
    const h = await harness();
    const page = await h.client.statusPages.create({
      name: 'P',
      url: 'sub-page',
      cards: [{ name: 'c', services: [{ id: FIXTURE.seededService }] }],
    });
    await h.raw('POST', '/_emulator/seed', {
      body: { fixture: { statusPageSubscriptions: [{ id: 'sub-1', statusPageId: page.id }] } },
    });
    const deleted = await h.raw('DELETE', `/v1/status-pages/${page.id}/subscriptions/sub-1`);
    expect(deleted.status).toBe(204);
    expect(deleted.json).toBeUndefined();
    const again = await h.raw('DELETE', `/v1/status-pages/${page.id}/subscriptions/sub-1`);
    expect(again).toMatchObject({
      status: 404,
      json: { statusCode: 404, message: expect.any(String), attributes: { subscriptionId: 'sub-1' } },
    });
  });
});
