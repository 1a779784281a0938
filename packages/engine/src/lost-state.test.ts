import { CheckGroup, createSession, EmailAlertChannel, StatusPage, synth } from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from './apply/apply.js';
import { emptyLive, readLive } from './live.js';
import { lostState } from './lost-state.js';
import { plan } from './plan/plan.js';
import { emptyState } from './state/state.js';
import { FakeAccount, MemoryBackend } from './test-support/doubles.js';

const NOW = { now: new Date('2026-11-21T00:00:00Z'), secretKey: 'team-state-secret' };
const ACCOUNT = 'acct';

beforeEach(() => {
  createSession();
});

/** The project as code: a channel (no key to find it by), a group and a status page (keyed). */
function project(extra: () => void = () => {}) {
  const mail = new EmailAlertChannel('mail', { address: 'a@example.com' });
  new CheckGroup('payments', { name: 'Payments', alertChannels: [mail] });
  new StatusPage('status', { name: 'Status', url: 'acme-status' });
  extra();
  return synth().resources;
}

/** The account after a deploy of `project()`, and the state that deploy wrote. */
async function deployed() {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState(ACCOUNT));
  const result = await apply(plan(project(), emptyLive(), await backend.read(), NOW), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  return { live: await readLive(account), state: result.state };
}

describe('lostState', () => {
  it('the project deployed before, its state gone: every keyed construct is in the account, unowned', async () => {
    const { live } = await deployed();
    createSession();
    const p = plan(project(), live, emptyState(ACCOUNT), NOW);
    expect(p.conflicts.map((c) => c.reason)).toEqual(['exists', 'exists']);
    expect(lostState(p)).toEqual({ found: 2, byKind: { CheckGroup: 1, StatusPage: 1 } });
  });

  it('not when the state is there, when nothing is found, or when a keyed construct is new (a first deploy meeting a hand-made name)', async () => {
    const { live, state } = await deployed();
    createSession();
    expect(lostState(plan(project(), live, state, NOW))).toBeUndefined();
    createSession();
    expect(lostState(plan(project(), emptyLive(), emptyState(ACCOUNT), NOW))).toBeUndefined();
    createSession();
    const withNew = plan(
      project(() => new CheckGroup('billing', { name: 'Billing' })),
      live,
      emptyState(ACCOUNT),
      NOW,
    );
    expect(withNew.conflicts).toHaveLength(2);
    expect(lostState(withNew)).toBeUndefined();
    // State written once, then emptied of its entries (state rm): not a missing state.
    createSession();
    expect(lostState(plan(project(), live, { ...state, resources: {} }, NOW))).toBeUndefined();
  });
});
