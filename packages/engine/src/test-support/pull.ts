import type { Client, ManagedResource, ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { expect } from 'vitest';
import { apply } from '../apply/apply.js';
import { makePlan } from '../flows/diff.js';
import type { Target } from '../flows/target.js';
import { emptyLive } from '../live/read-live.js';
import type { LoadedProject } from '../load/load.js';
import { plan } from '../plan/plan.js';
import { selectPolicies } from '../policy/select.js';
import { FakeAccount, MemoryBackend } from './doubles.js';

/**
 * A project deployed over the doubles, for pull's stage tests: code applied to a `FakeAccount`
 * with its state in a `MemoryBackend`, then edited in the account (as the UI edits it) or in the
 * code, and planned again.
 */

export const PULL_NOW = new Date('2026-11-24T00:00:00Z');
/** The state secret of these tests: secrets are compared by their keyed hashes. */
export const STATE_SECRET = 'pull-test-secret';

/** A diff target over the doubles for `resources`, as a loaded project would have them. */
export function targetOver(
  account: FakeAccount,
  backend: MemoryBackend,
  resources: DesiredResource[],
  secretKey: string | undefined = STATE_SECRET,
): Target {
  const project = {
    resources,
    files: [],
    projectDir: '/p',
    config: { projectName: 'p', policies: selectPolicies([], {}).set, routingTests: [] },
    findings: [],
  } as unknown as LoadedProject;
  // The fake has the kinds' operations and the request count: all these flows use of a client.
  return { project, client: account as unknown as Client, accountId: 'acct', backend, secretKey };
}

/** `resources` deployed into a new fake account, their state recorded. */
export async function deployedOver(
  resources: DesiredResource[],
  secretKey: string | undefined = STATE_SECRET,
): Promise<{ account: FakeAccount; backend: MemoryBackend }> {
  const account = new FakeAccount();
  const backend = new MemoryBackend();
  const made = plan(resources, emptyLive(), await backend.read(), { now: PULL_NOW, secretKey });
  const result = await apply(made, { client: account, backend });
  expect(result.ok).toBe(true);
  return { account, backend };
}

/** What diff would plan for `resources` against the account and state now. */
export function planOver(
  account: FakeAccount,
  backend: MemoryBackend,
  resources: DesiredResource[],
  secretKey: string | undefined = STATE_SECRET,
) {
  return makePlan(targetOver(account, backend, resources, secretKey), 'apply', PULL_NOW);
}

/** The one resource of `kind` the account holds, as it stores it (edit it in place, as the UI would). */
export function stored(account: FakeAccount, kind: ResourceKind, index = 0): ManagedResource {
  const found = account.all(kind)[index];
  expect(found, `the account holds a ${kind}`).toBeDefined();
  return found as ManagedResource;
}
