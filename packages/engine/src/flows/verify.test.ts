import { type Client, createClient } from '@monitor/api';
import { CheckGroup, createSession, synth } from '@monitor/constructs';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type EmulatorOptions, startEmulator } from '@monitor/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedProject } from '../load/load.js';
import { selectPolicies } from '../policy/select.js';
import { MemoryBackend } from '../test-support/doubles.js';
import { type ApplyOutcome, deploy } from './deploy.js';
import { NothingToVerifyError } from './errors.js';
import type { Target } from './target.js';
import { verifyProject } from './verify.js';

/**
 * `deploy --verify` end to end against the emulator: every path of a verification, with checks in
 * the group the deploy touches, outcomes set by rule, error groups and analyses.
 */

const CHECKS = ['0b000000-0000-4000-8000-000000000001', '0b000000-0000-4000-8000-000000000002'];
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
beforeEach(() => {
  createSession();
});

type Location = NonNullable<ConstructorParameters<typeof CheckGroup>[1]['locations']>[number];
const code = (locations: Location[], name = 'Payments') => {
  createSession();
  new CheckGroup('payments', { name, locations });
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
};

/** An account where group `payments` was deployed and holds two checks. */
async function deployedGroup(options: EmulatorOptions = {}) {
  const emulator = await startEmulator({
    port: 0,
    fixture: {},
    rateLimits: false,
    agentHealthPort: false,
    ...options,
  });
  const client = createClient({
    apiKey: DEV_API_KEY,
    accountId: DEV_ACCOUNT_ID,
    baseUrl: emulator.url,
    env: {},
  });
  open.push(emulator, client);
  const backend = new MemoryBackend();
  const target = (resources: ReturnType<typeof code>): Target => ({
    project: {
      resources,
      config: { projectName: 'p', policies: selectPolicies([], {}).set, routingTests: [] },
      findings: [],
    } as unknown as LoadedProject,
    client: client as Client,
    accountId: DEV_ACCOUNT_ID,
    backend,
  });
  const first = await deploy(target(code(['eu-west-1'])), {
    command: 'test',
    confirm: async () => ({ approved: true }),
  });
  expect(first.status).toBe('applied');
  const groupId = Number(backend.stored.resources['CheckGroup:payments']?.physicalId);
  const checks = CHECKS.map((id, i) => ({
    id,
    checkType: 'API',
    name: `check ${i}`,
    activated: true,
    muted: false,
    frequency: 5,
    locations: ['eu-west-1'],
    tags: [],
    groupId,
    request: { method: 'GET', url: 'https://api.example.com' },
  }));
  const seeded = await fetch(`${emulator.url}/_emulator/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fixture: { checks } }),
  });
  expect(seeded.status).toBeLessThan(300);
  const verify = (
    locations: Location[],
    verify: { strict?: boolean; rca?: boolean; timeoutMs?: number } = {},
    name?: string,
  ) =>
    deploy(target(code(locations, name)), {
      command: 'test',
      confirm: async () => ({ approved: true }),
      verify: { timeoutMs: 60_000, ...verify },
    }) as Promise<Extract<ApplyOutcome, { status: 'applied' }>>;
  return { emulator, client, groupId, verify, backend, target };
}

/** Add fixture data (checks, error groups) to a running emulator. */
async function seed(url: string, fixture: Record<string, unknown>): Promise<void> {
  const seeded = await fetch(`${url}/_emulator/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fixture }),
  });
  expect(seeded.status).toBeLessThan(300);
}

/** An error group of `checkId` for `message`, first seen long before any deploy of these tests. */
const oldErrorGroup = (id: string, checkId: string, message: string) => ({
  id,
  checkId,
  errorHash: id.slice(0, 16),
  cleanedErrorMessage: message,
  rawErrorMessage: message,
  firstSeen: '2020-01-01',
  lastSeen: '2020-01-02',
});

// Runs take emulator time in real time: a failed run is three one-second attempts. The package's
// timeout (vitest.config.ts) bounds them: on a loaded machine they take longer, not for ever.
describe('deploy --verify', () => {
  it('runs the checks of a group whose change affects runs: all pass', async () => {
    const { verify } = await deployedGroup();
    const { verification } = await verify(['eu-west-1', 'us-east-1']);
    expect(verification?.groups).toMatchObject([
      { key: 'CheckGroup:payments', reason: 'changed', checks: 2 },
    ]);
    expect(verification?.outcome).toBe('passed');
    expect(verification?.runs.map((r) => r.verdict)).toEqual(['passed', 'passed']);
  });

  it('a change that cannot affect a run (the name) runs nothing', async () => {
    const { verify } = await deployedGroup();
    const { verification } = await verify(['eu-west-1'], {}, 'Payments renamed');
    expect(verification?.groups).toEqual([]);
    expect(verification?.outcome).toBe('nothing');
  });

  it('a check that breaks with the deploy fails it: location, error, a new error group', async () => {
    const { emulator, verify } = await deployedGroup();
    emulator.control.setOutcomeRules([
      {
        checkId: CHECKS[1] as string,
        location: 'us-east-1',
        outcome: 'FAILED',
        error: 'connect ETIMEDOUT 10.0.0.7:443',
      },
    ]);
    const { verification } = await verify(['eu-west-1', 'us-east-1']);
    expect(verification?.outcome).toBe('failed');
    const broke = verification?.runs.find((r) => r.verdict === 'broke');
    expect(broke?.checkId).toBe(CHECKS[1]);
    expect(broke?.failures).toMatchObject([
      {
        location: 'us-east-1',
        error: 'connect ETIMEDOUT 10.0.0.7:443',
        errorGroup: { new: true, message: expect.stringContaining('ETIMEDOUT') },
      },
    ]);
  });

  it('a check that was failing before is told apart: not this deploy’s fault, unless strict', async () => {
    const { emulator, verify } = await deployedGroup();
    await verify(['eu-west-1', 'us-east-1', 'ap-south-1']);
    // From now on it fails everywhere, with an error it has had for long.
    const check = CHECKS[0] as string;
    await seed(emulator.url, {
      errorGroups: [oldErrorGroup('e0000000-0000-4000-8000-00000000000d', check, 'HTTP 500')],
    });
    emulator.control.setOutcomeRules([{ checkId: check, outcome: 'FAILED', error: 'HTTP 500' }]);
    // A deploy that changes a run field but adds no location.
    const lenient = await verify(['eu-west-1', 'us-east-1']);
    expect(lenient.verification?.runs.find((r) => r.checkId === check)?.verdict).toBe('still-failing');
    expect(lenient.verification?.outcome).toBe('passed');
    const strict = await verify(['eu-west-1'], { strict: true });
    expect(strict.verification?.outcome).toBe('failed');
    const run = strict.verification?.runs.find((r) => r.checkId === check);
    expect(run?.verdict).toBe('still-failing');
    expect(run?.failures[0]).toMatchObject({ location: 'eu-west-1', errorGroup: { new: false } });
  });

  it('with rca, a new error group gets an analysis: completed in time, or said to be pending', async () => {
    const quick = await deployedGroup({ rcaDurationMs: 0 });
    quick.emulator.control.setOutcomeRules([
      { checkId: CHECKS[0] as string, outcome: 'FAILED', error: 'boom' },
    ]);
    const done = await quick.verify(['eu-west-1', 'us-east-1'], { rca: true });
    expect(done.verification?.runs.flatMap((r) => r.failures)[0]?.errorGroup?.rootCause).toMatchObject({
      status: 'completed',
      rootCause: expect.any(String),
    });
    const never = await deployedGroup({ rcaDurationMs: null as unknown as number });
    never.emulator.control.setRcaDurationMs(null);
    never.emulator.control.setOutcomeRules([
      { checkId: CHECKS[0] as string, outcome: 'FAILED', error: 'boom' },
    ]);
    const pending = await never.verify(['eu-west-1', 'us-east-1'], { rca: true, timeoutMs: 8_000 });
    expect(pending.verification?.runs.flatMap((r) => r.failures)[0]?.errorGroup?.rootCause).toMatchObject({
      status: 'pending',
    });
  });

  it('runs still going at the deadline: a timeout, naming them', async () => {
    const { verify } = await deployedGroup({ clock: 'manual' });
    const { verification } = await verify(['eu-west-1', 'us-east-1'], { timeoutMs: 1_500 });
    expect(verification?.outcome).toBe('timeout');
    expect(verification?.running).toHaveLength(2);
  });

  it('a deactivated check is not run: it was turned off on purpose', async () => {
    const { emulator, groupId, verify } = await deployedGroup();
    const off = '0b000000-0000-4000-8000-000000000003';
    const seeded = await fetch(`${emulator.url}/_emulator/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        fixture: {
          checks: [
            {
              id: off,
              checkType: 'API',
              name: 'off',
              activated: false,
              muted: false,
              frequency: 5,
              locations: ['eu-west-1'],
              tags: [],
              groupId,
              request: { method: 'GET', url: 'https://api.example.com' },
            },
          ],
        },
      }),
    });
    expect(seeded.status).toBeLessThan(300);
    const { verification } = await verify(['eu-west-1', 'us-east-1']);
    expect(verification?.groups[0]?.checks).toBe(2);
    expect(verification?.runs.map((r) => r.checkId).sort()).toEqual([...CHECKS].sort());
  });

  it('with all, a deploy with nothing to change still runs every group', async () => {
    const { backend, target } = await deployedGroup();
    const outcome = await deploy(target(code(['eu-west-1'])), {
      command: 'test',
      confirm: async () => ({ approved: true }),
      verify: { timeoutMs: 60_000, all: true },
    });
    expect(outcome.status).toBe('no-changes');
    expect(outcome.status === 'no-changes' && outcome.verification?.runs).toHaveLength(2);
    // Without all there is nothing the deploy did to verify.
    const plain = await deploy(target(code(['eu-west-1'])), {
      command: 'test',
      confirm: async () => ({ approved: true }),
      verify: { timeoutMs: 60_000 },
    });
    expect(plain.status === 'no-changes' && plain.verification?.outcome).toBe('nothing');
    expect(backend.stored.lastDeploy?.groups).toEqual(['CheckGroup:payments']);
  });
});

describe('deploy --verify judges each run by location and error group (issue 44 §2)', () => {
  it('a new failure behind an old one: failing before in eu-west-1, failing after in a new location with a new error group, broke with this deploy', async () => {
    const { emulator, verify } = await deployedGroup();
    const check = CHECKS[0] as string;
    await seed(emulator.url, {
      errorGroups: [oldErrorGroup('e0000000-0000-4000-8000-00000000000a', check, 'error A')],
    });
    emulator.control.setOutcomeRules([
      { checkId: check, location: 'eu-west-1', outcome: 'FAILED', error: 'error A' },
      { checkId: check, location: 'ap-northeast-1', outcome: 'FAILED', error: 'error B' },
    ]);
    const { verification } = await verify(['eu-west-1', 'ap-northeast-1']);
    const run = verification?.runs.find((r) => r.checkId === check);
    expect(run?.verdict).toBe('broke');
    expect(verification?.outcome).toBe('failed');
    const byLocation = Object.fromEntries((run?.failures ?? []).map((f) => [f.location, f]));
    expect(byLocation['eu-west-1']).toMatchObject({ error: 'error A', errorGroup: { new: false } });
    expect(byLocation['eu-west-1']?.newLocation).toBeUndefined();
    expect(byLocation['ap-northeast-1']).toMatchObject({
      error: 'error B',
      newLocation: true,
      errorGroup: { new: true },
    });
    // What the deploy changed in the group, beside the failure.
    expect(verification?.groups[0]?.changes).toEqual([
      expect.objectContaining({
        path: 'locations',
        before: ['eu-west-1'],
        after: ['eu-west-1', 'ap-northeast-1'],
      }),
    ]);
  });

  it('a location new with the deploy breaks it even when the error is one the check had before', async () => {
    const { emulator, verify } = await deployedGroup();
    const check = CHECKS[0] as string;
    await seed(emulator.url, {
      errorGroups: [oldErrorGroup('e0000000-0000-4000-8000-00000000000b', check, 'error A')],
    });
    emulator.control.setOutcomeRules([{ checkId: check, outcome: 'FAILED', error: 'error A' }]);
    const { verification } = await verify(['eu-west-1', 'us-east-1']);
    const run = verification?.runs.find((r) => r.checkId === check);
    expect(run?.verdict).toBe('broke');
    expect(run?.failures.find((f) => f.location === 'us-east-1')).toMatchObject({
      newLocation: true,
      errorGroup: { new: false },
    });
  });
});

describe('monitor verify (verifyProject)', () => {
  it('state records what the last deploy changed in a way that affects runs', async () => {
    const { backend, target } = await deployedGroup();
    const first = backend.stored.lastDeploy;
    expect(first?.groups).toEqual(['CheckGroup:payments']);
    expect(Number.isNaN(Date.parse(first?.at ?? ''))).toBe(false);
    await deploy(target(code(['eu-west-1'], 'Renamed')), {
      command: 'test',
      confirm: async () => ({ approved: true }),
    });
    expect(backend.stored.lastDeploy?.groups).toEqual([]);
    expect(Date.parse(backend.stored.lastDeploy?.at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(first?.at ?? ''),
    );
  });

  it('verifies the groups named, the last deploy’s, or every one the project owns', async () => {
    const { target, emulator } = await deployedGroup();
    const t = target(code(['eu-west-1']));
    const named = await verifyProject(t, { targets: ['payments'], timeoutMs: 60_000 });
    expect(named.context).toBe('verify');
    expect(named.runs).toHaveLength(2);
    expect(named.outcome).toBe('passed');

    // The check fails from now on. The last deploy kept no baseline (it did not verify): its status
    // now says failing, but its error group was first seen after the last deploy, so it is new
    // since it, and a new error group broke since the deploy.
    emulator.control.setOutcomeRules([
      { checkId: CHECKS[0] as string, outcome: 'FAILED', error: 'HTTP 503' },
    ]);
    const since = await verifyProject(t, { sinceDeploy: true, timeoutMs: 60_000 });
    expect(since.lastDeploy).toEqual({ at: expect.any(String), groups: ['CheckGroup:payments'] });
    const failed = since.runs.find((r) => r.checkId === CHECKS[0]);
    expect(failed?.failures[0]?.errorGroup?.new).toBe(true);
    expect(failed?.verdict).toBe('broke');
    expect(since.outcome).toBe('failed');
    // Without --since-deploy the baseline is now, when that error group is known: still failing.
    const now = await verifyProject(t, { timeoutMs: 60_000 });
    expect(now.runs.find((r) => r.checkId === CHECKS[0])?.verdict).toBe('still-failing');
    expect(now.outcome).toBe('passed');
    const strict = await verifyProject(t, { strict: true, timeoutMs: 60_000 });
    expect(strict.outcome).toBe('failed');
  });

  it('a verification killed during the wait does not turn green on retry: --since-deploy judges against the baseline kept with the deploy', async () => {
    const { emulator, backend, target } = await deployedGroup();
    const check = CHECKS[0] as string;
    // The error is one the check had long ago: only how it stood before the deploy tells it broke.
    await seed(emulator.url, {
      errorGroups: [oldErrorGroup('e0000000-0000-4000-8000-00000000000c', check, 'error A')],
    });
    emulator.control.setOutcomeRules([
      { checkId: check, location: 'ap-northeast-1', outcome: 'FAILED', error: 'error A' },
    ]);
    // The deploy is applied and its state committed; the job dies while the checks run.
    const killed = new AbortController();
    const t = target(code(['eu-west-1', 'ap-northeast-1']));
    await deploy(t, {
      command: 'test',
      confirm: async () => ({ approved: true }),
      signal: killed.signal,
      verify: {
        timeoutMs: 60_000,
        onEvent: (event) => {
          if (event.type === 'verify-start') killed.abort();
        },
      },
    });
    const retry = await verifyProject(t, { sinceDeploy: true, timeoutMs: 60_000 });
    const run = retry.runs.find((r) => r.checkId === check);
    expect(run?.verdict).toBe('broke');
    expect(retry.outcome).toBe('failed');
    expect(retry.baselineAt).toBe(backend.stored.lastDeploy?.at);
    // Kept with the deploy's record: how the check stood, and where it ran.
    expect(backend.stored.lastDeploy?.baseline?.checks[check]).toEqual({
      status: 'passing',
      locations: ['eu-west-1'],
    });
  });

  it('a check’s first-ever run is not new as if the deploy caused it: the baseline never saw it run', async () => {
    const { emulator, groupId, target, verify } = await deployedGroup();
    await verify(['eu-west-1', 'us-east-1']);
    const added = '0b000000-0000-4000-8000-000000000009';
    await seed(emulator.url, {
      checks: [
        {
          id: added,
          checkType: 'API',
          name: 'added since',
          activated: true,
          locations: ['eu-west-1'],
          groupId,
          request: { method: 'GET', url: 'https://api.example.com' },
        },
      ],
    });
    emulator.control.setOutcomeRules([{ checkId: added, outcome: 'FAILED', error: 'HTTP 404' }]);
    const t = target(code(['eu-west-1', 'us-east-1']));
    const since = await verifyProject(t, { sinceDeploy: true, timeoutMs: 60_000 });
    const run = since.runs.find((r) => r.checkId === added);
    expect(run?.verdict).toBe('first-run-failed');
    expect(run?.failures[0]?.errorGroup?.new).toBe(false);
    expect(since.outcome).toBe('passed');
    const strict = await verifyProject(t, { sinceDeploy: true, strict: true, timeoutMs: 60_000 });
    expect(strict.outcome).toBe('failed');
  });

  it('refuses what it cannot verify, naming it', async () => {
    const { target } = await deployedGroup();
    const t = target(code(['eu-west-1']));
    await expect(verifyProject(t, { targets: ['paymets'], timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'bad_target',
      hint: 'did you mean payments?',
    });
    const fresh = { ...t, backend: new MemoryBackend() };
    await expect(verifyProject(fresh, { sinceDeploy: true, timeoutMs: 1_000 })).rejects.toBeInstanceOf(
      NothingToVerifyError,
    );
  });
});
