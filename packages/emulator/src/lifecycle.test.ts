import { describe, expect, it } from 'vitest';
import { ATTEMPT_MS, LOCATION_STAGGER_MS } from './handlers/check-sessions.js';
import { advance, FIXTURE, harness } from './test-support/harness.js';

describe('check sessions on a controlled clock', () => {
  it('goes STARTED → PROGRESS → PASSED with one FINAL result per location', async () => {
    const h = await harness();
    const { sessions } = await h.client.checkSessions.trigger({ target: { checkId: [FIXTURE.apiCheck] } });
    expect(sessions).toHaveLength(1);
    const id = sessions[0]!.checkSessionId;
    expect(sessions[0]?.stoppedAt).toBeUndefined();
    expect(sessions[0]?.timeElapsed).toBe(0);
    const started = await h.client.checkSessions.get(id);
    expect(started.status).toBe('STARTED');
    expect(started.results).toEqual([]);
    await advance(h, ATTEMPT_MS);
    const progress = await h.client.checkSessions.get(id);
    expect(progress.status).toBe('PROGRESS');
    expect(progress.results).toHaveLength(1); // partial: one of two locations done
    expect(await h.client.checkSessions.completion(id, { maxWaitSeconds: 1 })).toEqual({
      session: null,
      retryAfterMs: 1000,
    });
    await advance(h, LOCATION_STAGGER_MS);
    const done = await h.client.checkSessions.get(id);
    expect(done.status).toBe('PASSED');
    expect(done.stoppedAt).not.toBeNull();
    expect(done.results.map((r) => [r.runLocation, r.resultType])).toEqual([
      ['eu-west-1', 'FINAL'],
      ['us-east-1', 'FINAL'],
    ]);
    const completed = await h.client.checkSessions.completion(id, { maxWaitSeconds: 1 });
    expect(completed.session?.status).toBe('PASSED');
    const result = await h.client.checkResults.get(FIXTURE.apiCheck, done.results[0]!.checkResultId);
    expect(result).toMatchObject({ checkId: FIXTURE.apiCheck, runLocation: 'eu-west-1', hasFailures: false });
    expect(result.apiCheckResult).toMatchObject({ response: { status: 200 } });
  });

  it('ends FAILED with one ATTEMPT result per failed attempt and one FINAL', async () => {
    const h = await harness();
    const { sessions } = await h.client.checkSessions.trigger({
      target: { checkId: [FIXTURE.failingApiCheck] },
    });
    const id = sessions[0]!.checkSessionId;
    await advance(h, ATTEMPT_MS);
    expect((await h.client.checkSessions.get(id)).status).toBe('PROGRESS_FAILED');
    await advance(h, ATTEMPT_MS * 2);
    const done = await h.client.checkSessions.get(id);
    expect(done.status).toBe('FAILED');
    expect(done.results.map((r) => r.resultType)).toEqual(['ATTEMPT', 'ATTEMPT', 'FINAL']);
  });

  it('ends DEGRADED when the outcome is configured so', async () => {
    const h = await harness();
    await h.raw('PUT', '/_emulator/outcomes', { body: { outcomes: { [FIXTURE.apiCheck]: 'DEGRADED' } } });
    const { sessions } = await h.client.checkSessions.trigger({ target: { checkId: [FIXTURE.apiCheck] } });
    await advance(h, 10_000);
    const done = await h.client.checkSessions.get(sessions[0]!.checkSessionId);
    expect(done.status).toBe('DEGRADED');
  });

  it('answers the completion long poll with 408 and Retry-After while running', async () => {
    const h = await harness();
    const { sessions } = await h.client.checkSessions.trigger({ target: { checkId: [FIXTURE.apiCheck] } });
    const res = await h.raw(
      'GET',
      `/v2/check-sessions/${sessions[0]!.checkSessionId}/completion?maxWaitSeconds=1`,
    );
    expect(res.status).toBe(408);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.json).toMatchObject({
      message:
        'Check session is still in progress, but maximum per-request wait time was exceeded. Please retry.',
    });
    const missing = await h.raw('GET', '/v2/check-sessions/00000000-0000-4000-8000-000000000000/completion');
    expect(missing).toMatchObject({ status: 404, json: { message: 'No such check session.' } });
  });

  it('matches tags with AND inside an inner array and skips heartbeats and deactivated checks', async () => {
    const h = await harness();
    const { sessions } = await h.client.checkSessions.trigger({ target: { matchTags: [['api', 'prod']] } });
    expect(sessions.map((s) => s.checkId).sort()).toEqual([FIXTURE.apiCheck, FIXTURE.failingApiCheck].sort());
    const all = await h.client.checkSessions.trigger();
    expect(all.sessions.map((s) => s.checkId)).not.toContain(FIXTURE.heartbeat);
    expect(all.sessions).toHaveLength(8);
    const none = await h.raw('POST', '/v2/check-sessions/trigger', {
      body: { target: { matchTags: [['nope']] } },
    });
    expect(none).toMatchObject({ status: 404, json: { message: 'No matching checks were found.' } });
  });
});

describe('test-session cancel', () => {
  it('cancels the Playwright runs only; other types run to the end', async () => {
    const h = await harness();
    const trigger = await h.raw('POST', '/v2/check-sessions/trigger', {
      body: { target: { checkId: [FIXTURE.playwrightCheck, FIXTURE.apiCheck] } },
    });
    const sessions = (
      trigger.json as { sessions: { checkId: string; checkSessionId: string; testSessionId: string }[] }
    ).sessions;
    const testSessionId = sessions[0]!.testSessionId;
    await advance(h, ATTEMPT_MS);
    const cancel = await h.raw('POST', `/v1/test-sessions/${testSessionId}/cancel`, { body: {} });
    expect(cancel.status).toBe(204);
    await advance(h, 10_000);
    const byCheck = Object.fromEntries(sessions.map((s) => [s.checkId, s.checkSessionId]));
    const playwright = await h.client.checkSessions.get(byCheck[FIXTURE.playwrightCheck]!);
    expect(playwright.status).toBe('CANCELLED');
    expect(playwright.results.some((r) => r.isCancelled)).toBe(true);
    const api = await h.client.checkSessions.get(byCheck[FIXTURE.apiCheck]!);
    expect(api.status).toBe('PASSED');
    const unknown = await h.raw('POST', '/v1/test-sessions/00000000-0000-4000-8000-000000000000/cancel', {
      body: {},
    });
    expect(unknown.status).toBe(404);
    const emptySequence = await h.raw('POST', `/v1/test-sessions/${testSessionId}/cancel`, {
      body: { sequenceId: [] },
    });
    expect(emptySequence.status).toBe(400);
  });
});

describe('root cause analyses', () => {
  it('is PENDING (202), then COMPLETED with a full analysis, and shows on the error group', async () => {
    const h = await harness();
    const pending = await h.client.rootCauseAnalyses.generate(
      { errorGroupId: FIXTURE.errorGroup },
      { userContext: 'after deploy' },
    );
    expect(pending.status).toBe('PENDING');
    const raw = await h.raw('GET', `/v1/root-cause-analyses/${pending.id}`);
    expect(raw).toMatchObject({ status: 202, json: { id: pending.id, status: 'PENDING' } });
    await advance(h, 3000);
    const done = await h.client.rootCauseAnalyses.get(pending.id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      errorGroupId: FIXTURE.errorGroup,
      checkId: FIXTURE.apiCheck,
    });
    expect(done).toHaveProperty('analysis.evidence.0.artifacts.0.name');
    const group = await h.client.errorGroups.get(FIXTURE.errorGroup);
    expect(group.rootCauseAnalyses?.map((r) => r.id)).toContain(pending.id);
    const ts = await h.client.rootCauseAnalyses.generate({
      testSessionErrorGroupId: FIXTURE.testSessionErrorGroup,
    });
    expect(ts.status).toBe('PENDING');
    const tooLong = await h.raw('POST', `/v1/root-cause-analyses/error-groups/${FIXTURE.errorGroup}`, {
      body: { userContext: 'x'.repeat(257) },
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('analytics', () => {
  it('is deterministic, honours metrics, windows, intervals, grouping, status filters and paging', async () => {
    const h = await harness();
    const query = {
      metrics: ['responseTime_p95', 'availability'] as const,
      from: 1_763_600_000,
      to: 1_763_686_400,
    };
    const a = await h.client.analytics.apiCheck(FIXTURE.apiCheck, { ...query, metrics: [...query.metrics] });
    const b = await h.client.analytics.apiCheck(FIXTURE.apiCheck, { ...query, metrics: [...query.metrics] });
    expect(a).toEqual(b);
    expect(a.from).toBe(new Date(query.from * 1000).toISOString());
    expect(Object.keys(a.metadata).sort()).toEqual(['availability', 'responseTime_p95']);
    const grouped = await h.client.analytics.apiCheck(FIXTURE.apiCheck, {
      ...query,
      metrics: ['responseTime'],
      groupBy: 'runLocation',
      aggregationInterval: 60,
      limit: 5,
      page: 2,
    });
    expect(grouped.series).toHaveLength(2);
    const first = grouped.series[0] as { runLocation: string; data: { timestamp: string }[] };
    expect(first.runLocation).toBe('eu-west-1');
    expect(first.data).toHaveLength(5);
    expect(first.data[0]?.timestamp).toBe(new Date((query.from + 5 * 3600) * 1000).toISOString());
    const ok = await h.client.analytics.apiCheck(FIXTURE.apiCheck, {
      ...query,
      metrics: ['availability'],
      filterByStatus: ['success'],
    });
    expect((ok.series[0] as { data: { availability: number } }).data.availability).toBe(100);
    const notApi = await h.raw(
      'GET',
      `/v1/analytics/api-checks/${FIXTURE.browserCheck}?metrics=availability`,
    );
    expect(notApi.status).toBe(404);
    const summary = await h.client.analytics.summary({ checkIds: [FIXTURE.icmpCheck, FIXTURE.heartbeat] });
    expect(summary[0]).toHaveProperty('latency_p95');
    expect(summary[0]).not.toHaveProperty('responseTime_p95');
    expect(Object.keys(summary[1] ?? {}).sort()).toEqual(['availability', 'checkId', 'checkType']);
  });
});

describe('private-location metrics', () => {
  it('refuses a window that starts 15 days ago or earlier, by the emulator clock', async () => {
    const h = await harness();
    const now = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const ok = await h.raw(
      'GET',
      `/v1/private-locations/${FIXTURE.privateLocation}/metrics?from=${now - 14 * day}&to=${now}`,
    );
    expect(ok.status).toBe(200);
    const old = await h.raw(
      'GET',
      `/v1/private-locations/${FIXTURE.privateLocation}/metrics?from=${now - 16 * day}&to=${now}`,
    );
    expect(old).toMatchObject({ status: 400, json: { validation: { keys: ['from'] } } });
    const unknown = await h.raw('GET', `/v1/private-locations/nope/metrics?from=${now - 60}&to=${now}`);
    expect(unknown.status).toBe(404);
  });
});
