import type { ResourceKind } from '@monitor/api';
import { isSecretValue, markSecrets } from '../import/values.js';
import type { Live } from '../plan/types.js';
import type { State } from '../state/state.js';

/**
 * What neither diff nor pull can see of the account. The service masks secret environment
 * variables (it answers `""` whatever they hold): one rotated in the UI never shows as drift, and
 * pull can never bring it back. And without the state secret (`MONITOR_STATE_SECRET`) a secret's
 * cause cannot be told, since state keeps only keyed hashes of secrets.
 */
export interface UnseenSecrets {
  /** Values the service masks in the resources the project owns: a change made to one in the UI never shows. */
  masked: number;
  /** Secret values in those resources, masked or not. */
  secrets: number;
  /** Whether this run has the state secret: without it, whether a secret changed in the account cannot be told. */
  keyed: boolean;
}

/** What cannot be seen of the owned resources in `live` (`keyed`: the run has the state secret). */
export function unseenSecrets(state: Pick<State, 'resources'>, live: Live, keyed: boolean): UnseenSecrets {
  const owned = new Map<ResourceKind, Set<string>>();
  for (const e of Object.values(state.resources)) {
    const ids = owned.get(e.kind) ?? new Set<string>();
    ids.add(String(e.physicalId));
    owned.set(e.kind, ids);
  }
  let masked = 0;
  let secrets = 0;
  const count = (value: unknown): void => {
    if (isSecretValue(value)) {
      secrets++;
      if (value.masked) masked++;
    } else if (Array.isArray(value)) value.forEach(count);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(count);
  };
  for (const [kind, ids] of owned) {
    for (const r of live[kind] ?? []) if (ids.has(String(r.id))) count(markSecrets(kind, r));
  }
  return { masked, secrets, keyed };
}
