// What a post-deploy verification needs from the emulator, through the public HTTP API: runs
// that fail by rule (check, group, location), error groups that appear for failed runs, and root
// cause analyses that complete after a delay on the emulator's clock, or never.
import { collect } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { EmulatorConfigError } from './index.js';
import { advance, FIXTURE, type Harness, harness } from './test-support/harness.js';

const CHECK = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
/** Today by the emulator's clock. */
async function today(h: Harness): Promise<string> {
  return ((await h.raw('GET', '/_emulator/clock')).json as { now: string }).now.slice(0, 10);
}

/** A check group in eu-west-1 and us-east-1 with one API check in it. */
async function groupWithCheck(h: Harness): Promise<number> {
  const group = await h.client.checkGroups.create(
    { name: 'payments', locations: ['eu-west-1', 'us-east-1'] },
    { autoAssignAlerts: false },
  );
  const seeded = await h.raw('POST', '/_emulator/seed', {
    body: {
      fixture: { checks: [{ id: CHECK, checkType: 'API', name: 'Payments health', groupId: group.id }] },
    },
  });
  expect(seeded.status).toBe(204);
  return group.id;
}

/** Trigger one check and let its session finish. */
async function runToEnd(h: Harness, checkId: string) {
  const { sessions } = await h.client.checkSessions.trigger({ target: { checkId: [checkId] } });
  await advance(h, 10_000);
  return h.client.checkSessions.get(sessions[0]?.checkSessionId ?? '');
}

const finals = (session: Awaited<ReturnType<typeof runToEnd>>) =>
  Object.fromEntries(
    session.results.filter((r) => r.resultType === 'FINAL').map((r) => [r.runLocation, r.hasFailures]),
  );

describe('outcome rules', () => {
  it('fail runs by group and location over HTTP; the last matching rule wins; DELETE clears them', async () => {
    const h = await harness();
    const groupId = await groupWithCheck(h);
    expect(await runToEnd(h, CHECK)).toMatchObject({
      status: 'PASSED',
      runLocations: ['eu-west-1', 'us-east-1'],
    });

    const rules = [
      { groupId, outcome: 'FAILED', error: 'connect ETIMEDOUT 10.0.0.7:443' },
      { groupId, location: 'eu-west-1', outcome: 'PASSED' },
    ];
    const set = await h.raw('PUT', '/_emulator/outcome-rules', { body: { rules } });
    expect(set).toMatchObject({ status: 200, json: { rules } });
    expect((await h.raw('GET', '/_emulator/outcome-rules')).json).toEqual({ rules });
    const failed = await runToEnd(h, CHECK);
    expect(failed.status).toBe('FAILED');
    expect(finals(failed)).toEqual({ 'eu-west-1': false, 'us-east-1': true });
    expect(failed.results.filter((r) => r.runLocation === 'us-east-1').map((r) => r.resultType)).toEqual([
      'ATTEMPT',
      'ATTEMPT',
      'FINAL',
    ]);
    const listed = await h.client.checks.list({ status: 'failing' });
    expect(listed.items.map((c) => c.id)).toContain(CHECK);

    expect((await h.raw('DELETE', '/_emulator/outcome-rules')).status).toBe(204);
    expect((await runToEnd(h, CHECK)).status).toBe('PASSED');
  });

  it('fail or degrade one check anywhere; a bad rule is a 400, an unknown account a 404', async () => {
    const h = await harness();
    await h.raw('PUT', '/_emulator/outcome-rules', {
      body: { rules: [{ checkId: FIXTURE.apiCheck, outcome: 'DEGRADED' }] },
    });
    const degraded = await runToEnd(h, FIXTURE.apiCheck);
    expect(degraded.status).toBe('DEGRADED');
    // A rule wins over the check's own outcome (the fixture's failing check).
    await h.raw('PUT', '/_emulator/outcome-rules', {
      body: { rules: [{ checkId: FIXTURE.failingApiCheck, outcome: 'PASSED' }] },
    });
    expect((await runToEnd(h, FIXTURE.failingApiCheck)).status).toBe('PASSED');

    const bad = await h.raw('PUT', '/_emulator/outcome-rules', {
      body: { rules: [{ location: 'eu-west-1', outcome: 'PASSED', error: 'boom' }] },
    });
    expect(bad).toMatchObject({
      status: 400,
      json: { validation: { source: 'payload', keys: ['rules[0].error'] } },
    });
    const unknown = await h.raw('PUT', '/_emulator/outcome-rules', {
      body: { accountId: '00000000-0000-4000-8000-0000000000ff', rules: [] },
    });
    expect(unknown.status).toBe(404);
  });

  it('are set from code too, with the same checks', async () => {
    const h = await harness();
    const groupId = await groupWithCheck(h);
    h.emulator.control.setOutcomeRules([{ groupId, location: 'us-east-1', outcome: 'FAILED' }]);
    expect(h.emulator.control.outcomeRules()).toEqual([
      { groupId, location: 'us-east-1', outcome: 'FAILED' },
    ]);
    expect(finals(await runToEnd(h, CHECK))).toEqual({ 'eu-west-1': false, 'us-east-1': true });
    expect(() => h.emulator.control.setOutcomeRules([{ outcome: 'BROKEN' as never }])).toThrow(
      EmulatorConfigError,
    );
    expect(() => h.emulator.control.setOutcomeRules([], 'no-such-account')).toThrow(
      /no account no-such-account/,
    );
  });
});

describe('error groups of failed runs', () => {
  it('a new group appears once a failed result is in, the result names it, later failures update it', async () => {
    const h = await harness();
    const groupId = await groupWithCheck(h);
    const message = 'connect ETIMEDOUT 10.0.0.7:443 (request 6f1d2c3b-0000-4000-8000-000000000001)';
    await h.raw('PUT', '/_emulator/outcome-rules', {
      body: { rules: [{ groupId, location: 'us-east-1', outcome: 'FAILED', error: message }] },
    });
    const before = (await collect(h.client.errorGroups.all())).map((g) => g.id);
    const { sessions } = await h.client.checkSessions.trigger({ target: { checkId: [CHECK] } });
    expect((await collect(h.client.errorGroups.all())).map((g) => g.id)).toEqual(before);
    await advance(h, 10_000);
    const groups = await collect(h.client.errorGroups.all());
    const added = groups.filter((g) => !before.includes(g.id));
    expect(added).toEqual([
      {
        id: expect.any(String),
        checkId: CHECK,
        errorHash: expect.stringMatching(/^[0-9a-f]{16}$/),
        cleanedErrorMessage: 'connect ETIMEDOUT 10.0.0.7:443 (request <id>)',
        rawErrorMessage: message,
        firstSeen: await today(h),
        lastSeen: await today(h),
        archivedUntilNextEvent: false,
        rootCauseAnalyses: [],
      },
    ]);
    const group = added[0];
    expect(await h.client.errorGroups.get(group?.id ?? '')).toMatchObject({ checkId: CHECK });

    const session = await h.client.checkSessions.get(sessions[0]?.checkSessionId ?? '');
    const failed = session.results.find((r) => r.runLocation === 'us-east-1' && r.resultType === 'FINAL');
    const passed = session.results.find((r) => r.runLocation === 'eu-west-1');
    const detail = await h.client.checkResults.get(CHECK, failed?.checkResultId ?? '');
    expect(detail).toMatchObject({ hasFailures: true, errorGroupIds: [group?.id] });
    expect(detail.apiCheckResult).toMatchObject({ requestError: message });
    expect(await h.client.checkResults.get(CHECK, passed?.checkResultId ?? '')).toMatchObject({
      errorGroupIds: [],
    });

    // The same failure again (another request id): the same group, no new one.
    await runToEnd(h, CHECK);
    expect((await collect(h.client.errorGroups.all())).length).toBe(groups.length);
  });

  it('a failure the account already knew moves its group on and unarchives it; passing and degraded runs add none', async () => {
    const h = await harness();
    const known = await h.client.errorGroups.get('e3c4d5e6-f7a8-4b92-8314-c5d6e7f8a9b0');
    expect(known).toMatchObject({ checkId: FIXTURE.failingApiCheck, archivedUntilNextEvent: true });
    const count = (await collect(h.client.errorGroups.all())).length;
    await runToEnd(h, FIXTURE.failingApiCheck);
    await runToEnd(h, FIXTURE.apiCheck);
    await runToEnd(h, FIXTURE.degradedUrlCheck);
    expect((await collect(h.client.errorGroups.all())).length).toBe(count);
    expect(await h.client.errorGroups.get(known.id)).toMatchObject({
      lastSeen: await today(h),
      archivedUntilNextEvent: false,
    });
  });
});

describe('root cause analysis timing', () => {
  it('completes after the delay set over HTTP, on the emulator clock; null: never', async () => {
    const h = await harness();
    expect((await h.raw('GET', '/_emulator/root-cause-analyses')).json).toEqual({ durationMs: 3000 });
    const set = await h.raw('PUT', '/_emulator/root-cause-analyses', { body: { durationMs: 60_000 } });
    expect(set).toMatchObject({ status: 200, json: { durationMs: 60_000 } });
    const pending = await h.client.rootCauseAnalyses.generate({ errorGroupId: FIXTURE.errorGroup });
    await advance(h, 59_999);
    expect(await h.client.rootCauseAnalyses.get(pending.id)).toEqual({ id: pending.id, status: 'PENDING' });
    await advance(h, 1);
    expect(await h.client.rootCauseAnalyses.get(pending.id)).toMatchObject({
      status: 'COMPLETED',
      durationMs: 60_000,
      checkType: 'API',
      errorGroupId: FIXTURE.errorGroup,
    });

    await h.raw('PUT', '/_emulator/root-cause-analyses', { body: { durationMs: null } });
    const never = await h.client.rootCauseAnalyses.generate({ errorGroupId: FIXTURE.errorGroup });
    await advance(h, 366 * 86_400_000);
    expect(await h.client.rootCauseAnalyses.get(never.id)).toEqual({ id: never.id, status: 'PENDING' });
    const group = await h.client.errorGroups.get(FIXTURE.errorGroup);
    expect(group.rootCauseAnalyses?.map((r) => r.id)).toEqual([pending.id]);
    const bad = await h.raw('PUT', '/_emulator/root-cause-analyses', { body: { durationMs: -1 } });
    expect(bad.status).toBe(400);
  });

  it('is set from code too, and an analysis of a new error group names its check', async () => {
    const h = await harness({ rcaDurationMs: null });
    const groupId = await groupWithCheck(h);
    h.emulator.control.setOutcomeRules([{ groupId, outcome: 'FAILED' }]);
    await runToEnd(h, CHECK);
    const group = (await collect(h.client.errorGroups.all())).find((g) => g.checkId === CHECK);
    expect(group?.cleanedErrorMessage).toBe('Assertion failed: status code 200 expected, got 500');
    const never = await h.client.rootCauseAnalyses.generate({ errorGroupId: group?.id ?? '' });
    h.emulator.control.setRcaDurationMs(0);
    const now = await h.client.rootCauseAnalyses.generate({ errorGroupId: group?.id ?? '' });
    expect(await h.client.rootCauseAnalyses.get(now.id)).toMatchObject({
      status: 'COMPLETED',
      checkId: CHECK,
      errorGroupId: group?.id,
    });
    expect(await h.client.rootCauseAnalyses.get(never.id)).toMatchObject({ status: 'PENDING' });
    expect(() => h.emulator.control.setRcaDurationMs(-5)).toThrow(EmulatorConfigError);
  });
});
