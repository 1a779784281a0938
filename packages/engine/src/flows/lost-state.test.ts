import { CheckGroup, createSession, EmailAlertChannel, StatusPage, synth } from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { emptyLive, readLive } from '../live/read-live.js';
import { type Live, plan } from '../plan/plan.js';
import { emptyState } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { lostState, lostStateCandidate } from './lost-state.js';
import type { Target } from './target.js';

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
  return { account, live: await readLive(account), state: result.state };
}

/** What `lostState` reads from a target: the code and the state secret. */
const target = (resources: ReturnType<typeof project>) =>
  ({ project: { resources }, secretKey: NOW.secretKey }) as unknown as Target;

describe('lostState', () => {
  it('the project deployed before, its state gone: its keyed constructs are in the account, unowned, as the code says', async () => {
    const { live } = await deployed();
    createSession();
    const code = project();
    const p = plan(code, live, emptyState(ACCOUNT), NOW);
    expect(p.conflicts.map((c) => c.reason)).toEqual(['exists', 'exists']);
    expect(lostStateCandidate(p)).toEqual({ found: 2, byKind: { CheckGroup: 1, StatusPage: 1 } });
    expect(await lostState(p, target(code), live)).toEqual({
      found: 2,
      byKind: { CheckGroup: 1, StatusPage: 1 },
    });
  });

  it('resources made by hand that share the names but not the rest stay conflicts', async () => {
    const live: Live = emptyLive();
    live.CheckGroup.push({
      ...(await deployed()).live.CheckGroup[0],
      id: 9,
      tags: ['made-by-hand'],
      concurrency: 7,
    } as never);
    live.StatusPage.push({
      ...(await deployed()).live.StatusPage[0],
      id: 'sp',
      description: 'Ours',
    } as never);
    createSession();
    const code = project();
    const p = plan(code, live, emptyState(ACCOUNT), NOW);
    expect(lostStateCandidate(p)).toBeDefined();
    expect(await lostState(p, target(code), live)).toBeUndefined();
  });

  it('not when the state is there, when nothing is found, or when a keyed construct is new', async () => {
    const { live, state } = await deployed();
    createSession();
    expect(lostStateCandidate(plan(project(), live, state, NOW))).toBeUndefined();
    createSession();
    expect(lostStateCandidate(plan(project(), emptyLive(), emptyState(ACCOUNT), NOW))).toBeUndefined();
    createSession();
    const withNew = plan(
      project(() => new CheckGroup('billing', { name: 'Billing' })),
      live,
      emptyState(ACCOUNT),
      NOW,
    );
    expect(withNew.conflicts).toHaveLength(2);
    expect(lostStateCandidate(withNew)).toBeUndefined();
    // State written once, then emptied of its entries (state rm): not a missing state.
    createSession();
    expect(lostStateCandidate(plan(project(), live, { ...state, resources: {} }, NOW))).toBeUndefined();
  });
});
