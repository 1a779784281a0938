import { CHECK_SESSION_STATUSES, serviceEndpoints } from '@monitor/api';
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
  'GET /v2/check-sessions/{checkSessionId}',
];

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
type Operation = {
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  default?: unknown;
  deprecated?: boolean;
  $ref?: string;
  required?: string[];
};

async function openapi(): Promise<Doc> {
  const h = await harness();
  return (await (await fetch(`${h.emulator.url}/openapi.json`)).json()) as Doc;
}

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

  it("documents each operation's errors in the right shape: the common ones, 404 with a path id, and its own 402/408/409", async () => {
    const doc = await openapi();
    const codes = (path: string, method: string) => Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    expect(codes('/v1/checks', 'get')).toEqual(['200', '400', '401', '403', '429']);
    expect(codes('/v1/checks/{id}', 'get')).toEqual(['200', '400', '401', '403', '404', '429']);
    expect(codes('/v2/check-sessions/trigger', 'post')).toEqual([
      '201',
      '400',
      '401',
      '402',
      '403',
      '404',
      '429',
    ]);
    expect(codes('/v2/check-sessions/{checkSessionId}/completion', 'get')).toContain('408');
    expect(codes('/v1/check-groups/{id}', 'delete')).toContain('409');
    expect(codes('/v1/dashboards', 'post')).toEqual(['201', '400', '401', '403', '409', '429']);
    const response = (path: string, method: string, status: string) =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema.$ref;
    expect(response('/v1/checks/{id}', 'get', '404')).toBe('#/components/schemas/Error');
    expect(response('/v1/checks/{id}', 'get', '400')).toBe('#/components/schemas/ValidationError');
    expect(response('/v1/checks/{id}', 'get', '429')).toBe('#/components/schemas/ErrorWithAttributes');
    expect(response('/v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}', 'delete', '404')).toBe(
      '#/components/schemas/ErrorWithAttributes',
    );
    expect(doc.components.schemas.Error).toMatchObject({ required: ['statusCode', 'error', 'message'] });
  });

  it("uses the spec's enums and defaults, marks optional bodies and doubleCheck, and types the analysis GET's 202", async () => {
    const doc = await openapi();
    const ok = (path: string, method: string, status = '200') =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema as Schema;
    expect(ok('/v1/checks/{id}', 'get').properties?.checkType?.enum).toContain('PLAYWRIGHT');
    expect(ok('/v2/check-sessions/{checkSessionId}', 'get').properties?.status?.enum).toEqual([
      ...CHECK_SESSION_STATUSES,
    ]);
    expect(ok('/v1/incidents', 'post').properties?.impact?.enum).toEqual(['MAINTENANCE', 'MAJOR', 'MINOR']);
    const pending = ok('/v1/root-cause-analyses/{id}', 'get', '202');
    expect(Object.keys(pending.properties ?? {})).toEqual(['id', 'status']);
    expect(ok('/v1/root-cause-analyses/{id}', 'get').properties?.analysis).toBeDefined();
    for (const [path, method] of [
      ['/v2/check-sessions/trigger', 'post'],
      ['/v1/root-cause-analyses/error-groups/{errorGroupId}', 'post'],
      ['/v1/root-cause-analyses/test-session-error-groups/{testSessionErrorGroupId}', 'post'],
      ['/v1/test-sessions/{testSessionId}/cancel', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.requestBody?.required, path).toBe(false);
    }
    expect(doc.paths['/v1/incidents']?.post?.requestBody?.required).toBe(true);
    const createGroup = doc.paths['/v2/check-groups']?.post?.requestBody?.content['application/json']
      ?.schema as Schema;
    expect(createGroup.properties?.concurrency?.default).toBe(3);
    expect(createGroup.properties?.activated?.default).toBe(true);
    expect(createGroup.properties?.doubleCheck?.deprecated).toBe(true);
    expect(ok('/v1/check-groups/{id}', 'get').properties?.doubleCheck?.deprecated).toBe(true);
    const limit = doc.paths['/v1/alert-channels']?.get?.parameters.find((p) => p.name === 'limit');
    expect(limit?.schema.default).toBe(10);
    const cursorLimit = doc.paths['/v1/status-pages']?.get?.parameters.find((p) => p.name === 'limit');
    expect(cursorLimit?.schema.default).toBe(20);
    // A PUT is partial: no defaults that would read as "sent when left out".
    const update = doc.paths['/v2/check-groups/{id}']?.put?.requestBody?.content['application/json']
      ?.schema as Schema;
    expect(update.properties?.concurrency?.default).toBeUndefined();
  });

  it('serves the deprecated swagger.json with Deprecation headers', async () => {
    const h = await harness();
    const res = await fetch(`${h.emulator.url}/swagger.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe('</openapi.json>; rel="successor-version"');
    const doc = (await res.json()) as { swagger: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.swagger).toBe('2.0');
    // The seed's 21 operations, check-session retrieval among them.
    expect(Object.values(doc.paths).flatMap((ops) => Object.keys(ops))).toHaveLength(21);
    expect(doc.paths['/v2/check-sessions/{checkSessionId}']).toBeDefined();
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
