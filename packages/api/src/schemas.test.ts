import { describe, expect, it } from 'vitest';
import { alertChannelCreateSchema } from './schemas/alert-channels.js';
import { analyticsSummaryBodySchema, apiCheckAnalyticsQuerySchema } from './schemas/analytics.js';
import { checkGroupCreateSchema } from './schemas/check-groups.js';
import { testSessionCancelSchema } from './schemas/check-sessions.js';
import { METRIC_NAMES, pageQuerySchema } from './schemas/common.js';
import { dashboardCreateSchema, dashboardUpdateSchema } from './schemas/dashboards.js';
import { rootCauseAnalysisGenerateSchema } from './schemas/error-groups.js';
import { incidentCreateSchema } from './schemas/incidents.js';
import { privateLocationMetricsQuerySchema } from './schemas/private-locations.js';
import { statusPageCreateSchema, statusPageUpdateSchema } from './schemas/status-pages.js';

const UUID = '11111111-1111-4111-8111-111111111111';

function paths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return result.success ? [] : (result.error?.issues ?? []).map((i) => i.path.join('.'));
}

describe('limits of the spec', () => {
  it.each([
    ['checksPerPage 1–20', dashboardUpdateSchema, { checksPerPage: 20 }, { checksPerPage: 21 }],
    ['checksPerPage 1–20 (low)', dashboardUpdateSchema, { checksPerPage: 1 }, { checksPerPage: 0 }],
    [
      'description ≤ 500',
      statusPageCreateSchema,
      { name: 'a', url: 'a', cards: [], description: 'x'.repeat(500) },
      { name: 'a', url: 'a', cards: [], description: 'x'.repeat(501) },
    ],
    [
      'userContext ≤ 256',
      rootCauseAnalysisGenerateSchema,
      { userContext: 'x'.repeat(256) },
      { userContext: 'x'.repeat(257) },
    ],
    [
      'environmentVariables ≤ 100',
      checkGroupCreateSchema,
      {
        name: 'g',
        environmentVariables: Array.from({ length: 100 }, (_, i) => ({ key: `K${i}`, value: 'v' })),
      },
      {
        name: 'g',
        environmentVariables: Array.from({ length: 101 }, (_, i) => ({ key: `K${i}`, value: 'v' })),
      },
    ],
    [
      'sslExpiryThreshold 1–30',
      alertChannelCreateSchema,
      { type: 'EMAIL', config: { address: 'a@b.co' }, sslExpiryThreshold: 30 },
      { type: 'EMAIL', config: { address: 'a@b.co' }, sslExpiryThreshold: 31 },
    ],
    ['concurrency ≥ 1', checkGroupCreateSchema, { name: 'g', concurrency: 1 }, { name: 'g', concurrency: 0 }],
    [
      'checkIds 1–100',
      analyticsSummaryBodySchema,
      { checkIds: Array.from({ length: 100 }, () => UUID) },
      { checkIds: Array.from({ length: 101 }, () => UUID) },
    ],
    ['checkIds not empty', analyticsSummaryBodySchema, { checkIds: [UUID] }, { checkIds: [] }],
    [
      'aggregationInterval 1–43200',
      apiCheckAnalyticsQuerySchema,
      { metrics: 'responseTime', aggregationInterval: '43200' },
      { metrics: 'responseTime', aggregationInterval: '43201' },
    ],
    ['limit 1–100', pageQuerySchema, { limit: '100' }, { limit: '101' }],
    [
      'incidentUpdates exactly one',
      incidentCreateSchema,
      {
        name: 'i',
        impact: 'MINOR',
        dashboardId: 1,
        incidentUpdates: [{ status: 'INVESTIGATING', description: 'd' }],
      },
      {
        name: 'i',
        impact: 'MINOR',
        dashboardId: 1,
        incidentUpdates: [
          { status: 'INVESTIGATING', description: 'd' },
          { status: 'RESOLVED', description: 'e' },
        ],
      },
    ],
    ['sequenceId ≥ 1 when present', testSessionCancelSchema, { sequenceId: [UUID] }, { sequenceId: [] }],
  ])('%s', (_name, schema, ok, bad) => {
    expect(schema.safeParse(ok).success).toBe(true);
    expect(schema.safeParse(bad).success).toBe(false);
  });

  it('rejects unknown body fields, naming them', () => {
    const result = checkGroupCreateSchema.safeParse({ name: 'g', id: 4, created_at: '2026-01-01' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('created_at');
  });

  it('requires a check group name and types strictly', () => {
    expect(paths(checkGroupCreateSchema.safeParse({ concurrency: '3' })).sort()).toEqual([
      'concurrency',
      'name',
    ]);
  });

  it('accepts every metric name, including each <base>_<aggregate> form', () => {
    expect(METRIC_NAMES).toHaveLength(8 + 6 * 10);
    expect(METRIC_NAMES).toContain('responseTime_p95');
    expect(METRIC_NAMES).toContain('download_stddev');
    expect(apiCheckAnalyticsQuerySchema.safeParse({ metrics: METRIC_NAMES.join(',') }).success).toBe(true);
    expect(apiCheckAnalyticsQuerySchema.safeParse({ metrics: 'availability_p95' }).success).toBe(false);
  });

  it('checks the alert-channel config shape of each type', () => {
    expect(
      alertChannelCreateSchema.safeParse({ type: 'SMS', config: { number: '+31612345678' } }).success,
    ).toBe(true);
    expect(paths(alertChannelCreateSchema.safeParse({ type: 'SMS', config: { number: '0612' } }))).toEqual([
      'config.number',
    ]);
    expect(paths(alertChannelCreateSchema.safeParse({ type: 'EMAIL', config: {} }))).toEqual([
      'config.address',
    ]);
    expect(
      alertChannelCreateSchema.safeParse({ type: 'SLACK_APP', config: { slackChannels: [] } }).success,
    ).toBe(false);
    expect(alertChannelCreateSchema.safeParse({ type: 'FAX', config: {} }).success).toBe(false);
  });

  describe('URLs that open on a public page are http(s), like webhook and Slack URLs', () => {
    const page = { name: 'p', url: 'p', cards: [] };
    it.each([
      ['dashboard logo', dashboardCreateSchema, { header: 'd' }, 'logo'],
      ['dashboard favicon', dashboardCreateSchema, { header: 'd' }, 'favicon'],
      ['dashboard link', dashboardCreateSchema, { header: 'd' }, 'link'],
      ['dashboard link (update)', dashboardUpdateSchema, {}, 'link'],
      ['status page logo', statusPageCreateSchema, page, 'logo'],
      ['status page logoDark', statusPageCreateSchema, page, 'logoDark'],
      ['status page favicon', statusPageCreateSchema, page, 'favicon'],
      ['status page redirectTo', statusPageCreateSchema, page, 'redirectTo'],
      ['status page redirectTo (update)', statusPageUpdateSchema, page, 'redirectTo'],
    ])('%s', (_name, schema, base, field) => {
      for (const ok of ['https://cdn.example.com/logo.png', 'http://example.com/', null])
        expect(schema.safeParse({ ...base, [field]: ok }).success, String(ok)).toBe(true);
      for (const bad of ['javascript:alert(1)', 'ftp://files.example.com/logo.png', 'example.com/logo.png']) {
        const result = schema.safeParse({ ...base, [field]: bad });
        expect(paths(result), bad).toEqual([field]);
        expect(result.error?.issues[0]?.message).toBe(`must be an http(s) URL, got ${JSON.stringify(bad)}`);
      }
    });
  });

  it('keeps private-location metrics to windows starting less than 15 days ago', () => {
    const now = Date.UTC(2026, 10, 21);
    const schema = privateLocationMetricsQuerySchema(() => now);
    const sec = Math.floor(now / 1000);
    const day = 86_400;
    expect(schema.safeParse({ from: sec - 14 * day, to: sec }).success).toBe(true);
    expect(paths(schema.safeParse({ from: sec - 15 * day, to: sec }))).toEqual(['from']);
    expect(paths(schema.safeParse({ from: sec, to: sec - 10 }))).toEqual(['from']);
  });
});
