import { isSensitive, KINDS, type ResourceKind } from '@monitor/api';
import { resolveIds } from '../plan/targets.js';
import { stateKey } from '../state/state.js';
import { readAccount, type Target } from './target.js';

/**
 * What the service assigned to the resources a project owns, for people and other tools after a
 * deploy: ids, and the fields each kind names as its outputs (a dashboard's generated custom URL,
 * a status page's URL). From state and the live account; never a secret.
 */
export interface ResourceOutput {
  key: string;
  kind: ResourceKind;
  logicalId: string;
  physicalId: string | number;
  /** `gone`: state records it, but the account no longer has it. */
  status: 'live' | 'gone';
  /** The kind's output fields, as the account has them. */
  values: Record<string, unknown>;
}

/** The outputs of every resource the project owns, or of the ones `ids` name (as `--target` takes them). */
export async function outputs(target: Target, ids: readonly string[] = []): Promise<ResourceOutput[]> {
  const { state, live } = await readAccount(target);
  const wanted =
    ids.length === 0 ? undefined : new Set(resolveIds(ids, target.project.resources, state, 'output'));
  return Object.values(state.resources)
    .filter((e) => wanted === undefined || wanted.has(stateKey(e.kind, e.logicalId)))
    .sort((a, b) => stateKey(a.kind, a.logicalId).localeCompare(stateKey(b.kind, b.logicalId)))
    .map((entry) => {
      const def = KINDS[entry.kind];
      const resource = live[entry.kind].find((r) => String(r.id) === String(entry.physicalId));
      const values: Record<string, unknown> = {};
      for (const field of def.outputs ?? []) {
        const value = resource?.[field];
        // An output is never a secret, whatever a kind's list says.
        if (
          value === undefined ||
          (typeof value === 'string' && isSensitive(def, field, resource ?? {}, resource ?? {}))
        )
          continue;
        values[field] = value;
      }
      return {
        key: stateKey(entry.kind, entry.logicalId),
        kind: entry.kind,
        logicalId: entry.logicalId,
        physicalId: entry.physicalId,
        status: resource === undefined ? 'gone' : 'live',
        values,
      };
    });
}
