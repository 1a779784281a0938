import { describe, expect, it } from 'vitest';
import { harness } from './test-support/harness.js';

describe('like the real service', () => {
  it('fills documented defaults on create', async () => {
    const h = await harness();
    const group = await h.client.checkGroups.create({ name: 'g' }, { autoAssignAlerts: false });
    expect(group).toMatchObject({
      activated: true,
      muted: false,
      doubleCheck: false,
      runParallel: false,
      concurrency: 3,
      tags: [],
      locations: [],
      privateLocations: [],
      environmentVariables: [],
      alertChannelSubscriptions: [],
      runtimeId: null,
      retryStrategy: 'FALLBACK',
      apiCheckDefaults: {
        url: '',
        headers: [],
        queryParameters: [],
        assertions: [],
        basicAuth: { username: '', password: '' },
      },
      alertSettings: {
        escalationType: 'RUN_BASED',
        runBasedEscalation: { failedRunThreshold: 1 },
        reminders: { amount: 0, interval: 5 },
        parallelRunFailureThreshold: { enabled: false, percentage: 10 },
      },
      updated_at: null,
    });
    expect(group.created_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const dashboard = await h.client.dashboards.create({ header: 'x' });
    expect(dashboard).toMatchObject({
      width: 'FULL',
      refreshRate: 60,
      paginate: true,
      paginationRate: 60,
      checksPerPage: 15,
      showHeader: true,
      showP95: true,
      showP99: true,
      showCheckRunLinks: false,
      customCSS: '',
      isPrivate: false,
      keys: [],
    });
    expect(dashboard.customUrl).toMatch(/^dashboard-/);
  });

  it('subscribes a new group to every alert channel unless autoAssignAlerts=false', async () => {
    const h = await harness();
    const auto = await h.client.checkGroups.create({ name: 'auto' });
    expect(auto.alertChannelSubscriptions?.map((s) => s.alertChannelId)).toEqual([1, 2, 3]);
    const manual = await h.client.checkGroups.create({ name: 'manual' }, { autoAssignAlerts: false });
    expect(manual.alertChannelSubscriptions).toEqual([]);
  });

  it('treats PUT as a partial update: omitted kept, null clears, null arrays ignored, nested replaced whole', async () => {
    const h = await harness();
    const group = await h.client.checkGroups.create(
      {
        name: 'g',
        tags: ['a'],
        runtimeId: '2025.04',
        retryStrategy: { type: 'FIXED', maxRetries: 2 },
        apiCheckDefaults: { url: 'https://x', headers: [{ key: 'k', value: 'v' }] },
      },
      { autoAssignAlerts: false },
    );
    const updated = await h.client.checkGroups.update(group.id, {
      name: 'g',
      runtimeId: null,
      retryStrategy: null,
      tags: null,
      apiCheckDefaults: { url: 'https://y' },
    });
    expect(updated.tags).toEqual(['a']);
    expect(updated.runtimeId).toBeNull();
    expect(updated.retryStrategy).toBeNull();
    expect(updated.apiCheckDefaults).toEqual({ url: 'https://y' });
    expect(updated.concurrency).toBe(3);
    expect(updated.updated_at).not.toBeNull();
    const cleared = await h.client.checkGroups.update(group.id, { name: 'g', tags: [] });
    expect(cleared.tags).toEqual([]);
  });

  it('returns sets reordered', async () => {
    const h = await harness();
    const group = await h.client.checkGroups.create({
      name: 'g',
      tags: ['zeta', 'alpha', 'mid'],
      locations: ['us-west-2', 'eu-west-1'],
    });
    expect(group.tags).toEqual(['alpha', 'mid', 'zeta']);
    expect(group.locations).toEqual(['eu-west-1', 'us-west-2']);
    const window = await h.client.maintenanceWindows.create({
      name: 'w',
      startsAt: '2026-12-01',
      endsAt: '2026-12-02',
      repeatUnit: null,
      silenceAlertsTags: ['b', 'a'],
      statusPageVisibility: { serviceIds: ['s2', 's1'] },
    });
    expect(window.silenceAlertsTags).toEqual(['a', 'b']);
    expect(window.statusPageVisibility?.serviceIds).toEqual(['s1', 's2']);
    expect(window.startsAt).toBe('2026-12-01'); // a sent value comes back in its form
  });

  it('returns secret environment variable values empty, always', async () => {
    const h = await harness();
    const group = await h.client.checkGroups.create({
      name: 'g',
      environmentVariables: [
        { key: 'PLAIN', value: 'visible' },
        { key: 'TOKEN', value: 'canary-secret', secret: true },
      ],
    });
    expect(group.environmentVariables).toEqual([
      { key: 'PLAIN', value: 'visible', locked: false, secret: false },
      { key: 'TOKEN', value: '', locked: false, secret: true },
    ]);
    expect(JSON.stringify(await h.client.checkGroups.get(group.id))).not.toContain('canary-secret');
    expect(JSON.stringify((await h.client.checkGroups.list()).items)).not.toContain('canary-secret');
  });

  it("shows a dashboard key's rawKey only in the answer that made it", async () => {
    const h = await harness();
    const created = await h.client.dashboards.create({ header: 'private', isPrivate: true });
    const key = created.keys?.[0];
    expect(key?.rawKey).toMatch(/^dk_[0-9a-f]{32}$/);
    expect(key?.maskedKey).toBe(`dk_…${key?.rawKey.slice(-4)}`);
    const read = await h.client.dashboards.get(created.dashboardId);
    expect(read.keys?.[0]?.rawKey).toBe(key?.maskedKey);
    const listed = await h.client.dashboards.list();
    expect(JSON.stringify(listed.items)).not.toContain(key?.rawKey);

    const later = await h.client.dashboards.create({ header: 'later' });
    const madePrivate = await h.client.dashboards.update(later.dashboardId, { isPrivate: true });
    expect(madePrivate.keys?.[0]?.rawKey).toMatch(/^dk_[0-9a-f]{32}$/);
    const again = await h.client.dashboards.update(later.dashboardId, { header: 'renamed' });
    expect(again.keys?.[0]?.rawKey).toBe(again.keys?.[0]?.maskedKey);
  });

  it('maintains created_at and updated_at', async () => {
    const h = await harness();
    const page = await h.client.statusPageServices.create({ name: 's' });
    const created = await h.client.maintenanceWindows.create({
      name: 'w',
      startsAt: '2026-12-01',
      endsAt: '2026-12-02',
      repeatUnit: null,
    });
    expect(created.updated_at).toBeNull();
    const updated = await h.client.maintenanceWindows.update(created.id, { name: 'w2' });
    expect(updated.updated_at).not.toBeNull();
    expect(page.created_at).toBeDefined();
  });

  it('lower-cases status page urls and keeps sent card ids', async () => {
    const h = await harness();
    const service = await h.client.statusPageServices.create({ name: 's' });
    const page = await h.client.statusPages.create({
      name: 'p',
      url: 'MiXeD',
      cards: [{ id: 'card-fixed-id', name: 'c', services: [{ id: service.id }] }],
    });
    expect(page.url).toBe('mixed');
    expect(page.cards[0]?.id).toBe('card-fixed-id');
  });
});
