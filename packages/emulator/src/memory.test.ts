import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNT_ID } from './index.js';
import { TABLES } from './store.js';
import { FIXTURE, type Harness, harness } from './test-support/harness.js';

/** Rows the emulator holds for the dev account, by table. */
function rows(h: Harness): Record<string, number> {
  const tables = h.emulator.app.state.store.data.accounts[DEV_ACCOUNT_ID]?.tables;
  return Object.fromEntries(TABLES.map((t) => [t, Object.keys(tables?.[t] ?? {}).length]));
}

describe('the emulator stays bounded', () => {
  it('keeps the newest requestLogSize requests, and says how many it saw', async () => {
    const h = await harness({ requestLogSize: 3 });
    for (const id of [1, 2, 3, 4, 5]) await h.raw('GET', `/v1/check-groups/${id}`);
    expect(h.emulator.requests.map((r) => r.path)).toEqual([
      '/v1/check-groups/3',
      '/v1/check-groups/4',
      '/v1/check-groups/5',
    ]);
    const log = await h.raw('GET', '/_emulator/requests');
    expect(log.json).toMatchObject({ total: 5, capacity: 3 });
    expect((log.json as { requests: unknown[] }).requests).toHaveLength(3);
    expect((await h.raw('DELETE', '/_emulator/requests')).status).toBe(204);
    // Only the DELETE itself, logged once it was answered.
    expect(h.emulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /_emulator/requests']);
  });

  it('says when each request arrived, in order, as a time of this machine', async () => {
    const h = await harness({ requestLogSize: 10 });
    const before = Date.now();
    for (const id of [1, 2, 3]) await h.raw('GET', `/v1/check-groups/${id}`);
    const after = Date.now();
    const times = h.emulator.requests.map((r) => r.at);
    expect(times).toHaveLength(3);
    for (const at of times) {
      expect(at).toBeGreaterThanOrEqual(before - 1);
      expect(at).toBeLessThanOrEqual(after);
    }
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('a deleted resource takes what hangs off it: subscriptions, incidents, status-page subscriptions', async () => {
    const h = await harness();
    const before = rows(h);
    const channelId = 1; // a channel of the fixture, which stays
    const group = await h.client.checkGroups.create({ name: 'gone soon' }, { autoAssignAlerts: false });
    await h.client.alertChannels.upsertSubscription(channelId, { groupId: group.id, activated: true });
    await h.client.checkGroups.delete(group.id);
    const channel = await h.client.alertChannels.get(channelId);
    expect(channel.subscriptions?.filter((s) => s.groupId === group.id)).toEqual([]);

    const dashboard = await h.client.dashboards.create({ header: 'Gone soon', isPrivate: true });
    const incident = await h.client.incidents.create({
      name: 'Outage',
      impact: 'MAJOR',
      dashboardId: dashboard.id,
      incidentUpdates: [{ status: 'INVESTIGATING', description: 'Looking' }],
    });
    await h.client.dashboards.delete(dashboard.dashboardId);
    expect((await h.raw('GET', `/v1/incidents/${incident.id}`)).status).toBe(404);

    const service = await h.client.statusPageServices.create({ name: 'Gone soon' });
    const page = await h.client.statusPages.create({
      name: 'Gone soon',
      url: 'gone-soon',
      cards: [{ name: 'Core', services: [{ id: service.id }] }],
    });
    const subscription = { id: 'a1b2c3d4-0000-4000-8000-000000000001', statusPageId: page.id };
    await h.raw('POST', '/_emulator/seed', {
      body: { fixture: { statusPageSubscriptions: [subscription] } },
    });
    await h.client.statusPages.delete(page.id);
    await h.client.statusPageServices.delete(service.id);

    expect(rows(h)).toEqual(before);
  });

  it('forgets check sessions and analyses beyond historySize, with their test sessions', async () => {
    const h = await harness({ historySize: 2 });
    const triggered = [];
    for (let i = 0; i < 3; i++) {
      const raw = await h.raw('POST', '/v2/check-sessions/trigger', {
        body: { target: { checkId: [FIXTURE.apiCheck] } },
      });
      triggered.push(
        (raw.json as { sessions: { checkSessionId: string; testSessionId: string }[] }).sessions[0]!,
      );
    }
    const [oldest, ...kept] = triggered;
    expect((await h.raw('GET', `/v2/check-sessions/${oldest?.checkSessionId}`)).status).toBe(404);
    expect(
      (await h.raw('POST', `/v1/test-sessions/${oldest?.testSessionId}/cancel`, { body: {} })).status,
    ).toBe(404);
    for (const s of kept)
      expect((await h.raw('GET', `/v2/check-sessions/${s.checkSessionId}`)).status).toBe(200);
    expect(rows(h)).toMatchObject({ checkSessions: 2, testSessions: 2 });

    const analyses = [];
    for (let i = 0; i < 3; i++)
      analyses.push(await h.client.rootCauseAnalyses.generate({ errorGroupId: FIXTURE.errorGroup }));
    expect((await h.raw('GET', `/v1/root-cause-analyses/${analyses[0]?.id}`)).status).toBe(404);
    expect((await h.raw('GET', `/v1/root-cause-analyses/${analyses[2]?.id}`)).status).toBe(202);
  });
});
