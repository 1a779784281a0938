import type { ResourceKind } from '@monitor/api';
import { ByPhysicalId, type PhysicalId } from '../identity.js';
import type { State } from '../state/state.js';

/**
 * Who owns a resource of the account: this project (its state records it), another project of the
 * same state (the shared database, or the workspace's state files), or no project at all.
 */
export type Ownership =
  | { owned: 'here'; project: string; logicalId: string }
  | { owned: 'elsewhere'; project: string; logicalId?: string }
  | { owned: 'unowned' };

/** What ownership is read from: this project's state, and what the others' say. */
export interface OwnershipSources {
  project: string;
  state: State;
  /** Resources other projects own (→ the project), from the shared state database. */
  otherOwners?: ByPhysicalId<string> | undefined;
  /** The other projects' states, by project name: they also give each resource's logical id there. */
  otherStates?: ReadonlyMap<string, State> | undefined;
}

/**
 * The owner of a resource, by its physical identity; `unowned` when no state records it. This
 * project's state comes first (a resource two states claim is this project's to fix), then the
 * other projects' states, then the shared database's owners.
 */
export function ownershipOf(sources: OwnershipSources): (kind: ResourceKind, id: PhysicalId) => Ownership {
  const recorded = new ByPhysicalId<Ownership>();
  for (const [project, state] of sources.otherStates ?? []) {
    for (const e of Object.values(state.resources))
      recorded.set(e.kind, e.physicalId, { owned: 'elsewhere', project, logicalId: e.logicalId });
  }
  for (const e of Object.values(sources.state.resources))
    recorded.set(e.kind, e.physicalId, { owned: 'here', project: sources.project, logicalId: e.logicalId });
  return (kind, id) => {
    const known = recorded.tryFind(kind, id);
    if (known !== undefined) return known;
    const project = sources.otherOwners?.tryFind(kind, id);
    return project === undefined ? { owned: 'unowned' } : { owned: 'elsewhere', project };
  };
}
