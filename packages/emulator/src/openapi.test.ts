import { serviceEndpoints } from '@monitor/api';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { harness } from './test-support/harness.js';

const SEED_PATHS = [
  'PUT /v1/dashboards/{dashboardId}',
  'GET /v1/analytics/api-checks/{id}',
  'POST /v1/analytics/checks',
  'POST /v2/check-groups',
  'GET /v1/check-groups/{id}',
  'GET /v1/checks/{id}',
  'PUT /v1/status-pages/{statusPageId}',
  'GET /v1/status-pages/incidents/{incidentId}/incident-updates',
  'DELETE /v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}',
  'POST /v1/incidents',
  'GET /v1/maintenance-windows/{id}',
  'GET /v1/alert-channels',
  'POST /v2/check-sessions/trigger',
  'GET /v1/check-results/{checkId}/{checkResultId}',
  'POST /v1/test-sessions/{testSessionId}/cancel',
  'POST /v1/root-cause-analyses/test-session-error-groups/{testSessionErrorGroupId}',
  'GET /v1/root-cause-analyses/{id}',
  'GET /v1/test-session-error-groups/{id}',
  'GET /v1/error-groups',
  'GET /v1/private-locations/{id}/metrics',
];

describe('contract documents', () => {
  it('serves a valid OpenAPI 3.1 document listing every route, without auth', async () => {
    const h = await harness();
    const res = await fetch(`${h.emulator.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(serviceEndpoints.map((e) => `${e.method} ${e.path}`).sort());
    for (const route of SEED_PATHS) expect(listed).toContain(route);
  });

  it('serves the deprecated swagger.json with Deprecation headers', async () => {
    const h = await harness();
    const res = await fetch(`${h.emulator.url}/swagger.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe('</openapi.json>; rel="successor-version"');
    expect(((await res.json()) as { swagger: string }).swagger).toBe('2.0');
  });
});

describe('agent health endpoints', () => {
  it('answers on their own port; readiness turns 503 while shutting down', async () => {
    const h = await harness();
    const base = h.emulator.agentHealthUrl as string;
    expect(new URL(base).port).not.toBe(new URL(h.emulator.url).port);
    for (const path of ['/-/readiness', '/-/liveness', '/health'])
      expect((await fetch(`${base}${path}`)).status).toBe(200);
    await h.raw('POST', '/_emulator/agent', { body: { ready: false } });
    expect((await fetch(`${base}/-/readiness`)).status).toBe(503);
    expect((await fetch(`${base}/-/liveness`)).status).toBe(200);
  });
});
