import { KINDS, naturalKeyOf } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { isCreatedFrom, type Live, type LiveResource } from '../plan/plan.js';
import { type State, stateKey } from '../state/state.js';

/** A construct of the code with no state entry, and the live resource that is its own. */
export interface Recovery {
  d: DesiredResource;
  r: LiveResource;
  /** Found by its whole content: the kind has no natural key (an alert channel). */
  byContent: boolean;
}

/**
 * Constructs of the code with no state entry (their own or an alias's) find their resource again:
 * by natural key, or by content where the kind has none. Never a resource this project or
 * another owns (`owners.here`: state's entries by physical id), and each resource for one
 * construct at most. By the construct's state key.
 */
export function recoverLostState(
  code: readonly DesiredResource[],
  live: Live,
  state: State,
  owners: { here: ByPhysicalId<unknown>; elsewhere: ByPhysicalId<string> },
): Map<string, Recovery> {
  const taken = new ByPhysicalId<true>();
  const found = new Map<string, Recovery>();
  for (const d of code) {
    const keys = [d.logicalId, ...d.options.aliases].map((l) => stateKey(d.kind, l));
    if (keys.some((k) => state.resources[k] !== undefined)) continue;
    const natural = naturalKeyOf(KINDS[d.kind], d.payload);
    const free = (r: LiveResource) =>
      !owners.here.has(d.kind, r.id) && !owners.elsewhere.has(d.kind, r.id) && !taken.has(d.kind, r.id);
    const match =
      natural !== undefined
        ? live[d.kind].find((r) => free(r) && naturalKeyOf(KINDS[d.kind], r)?.key === natural.key)
        : live[d.kind].find((r) => free(r) && isCreatedFrom(d.kind, d.payload, r));
    if (match === undefined) continue;
    taken.set(d.kind, match.id, true);
    found.set(stateKey(d.kind, d.logicalId), { d, r: match, byContent: natural === undefined });
  }
  return found;
}
