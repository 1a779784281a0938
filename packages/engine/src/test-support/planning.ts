import type { ResourceKind } from '@monitor/api';
import { createSession, type DesiredResource, synth } from '@monitor/constructs';
import { expect } from 'vitest';
import { emptyLive } from '../live/read-live.js';
import type { Live, LiveResource } from '../plan/types.js';
import { emptyState, type State, type StateEntry, stateKey } from '../state/state.js';

/** Hand-made constructs, state and live accounts for the planner's table tests. */

/** The resources of the constructs `build` makes, in a fresh session; they must synthesize cleanly. */
export function synthesized(build: () => void): DesiredResource[] {
  createSession();
  build();
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

export function construct(
  kind: ResourceKind,
  logicalId: string,
  payload: Record<string, unknown>,
  options: Partial<DesiredResource['options']> & { dependsOn?: string[] } = {},
): DesiredResource {
  const { dependsOn = [], ...rest } = options;
  return {
    kind,
    construct: kind,
    logicalId,
    payload,
    dependsOn,
    options: { protect: false, aliases: [], adopt: false, ignoreChanges: [], policyExceptions: [], ...rest },
  };
}

export function entry(
  kind: ResourceKind,
  logicalId: string,
  physicalId: string | number,
  extra: Partial<StateEntry> = {},
): StateEntry {
  return { kind, logicalId, physicalId, appliedHash: 'h', secretHashes: {}, protect: false, ...extra };
}

export function stateOf(entries: StateEntry[], pendingCreates: string[] = []): State {
  const state = emptyState('acct');
  for (const e of entries) state.resources[stateKey(e.kind, e.logicalId)] = e;
  state.pendingCreates = pendingCreates;
  return state;
}

export function liveOf(resources: Partial<Record<ResourceKind, Record<string, unknown>[]>>): Live {
  const live = emptyLive();
  for (const [kind, list] of Object.entries(resources)) live[kind as ResourceKind] = list as LiveResource[];
  return live;
}
