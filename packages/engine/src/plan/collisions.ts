import type { ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { conflictOf } from './conflict.js';
import type { AccountIndex, Matching } from './match.js';
import { uniqueKeysOf } from './resource.js';
import type { Conflict, DeleteOperation, LiveResource } from './types.js';

/**
 * The collision stage: a create that needs a key the service keeps unique (a status page's url, a
 * dashboard's customUrl) while a live resource holds it would fail with 409. Only unique keys of
 * the kind definitions count: names the service lets repeat (groups, services, windows) never
 * collide, whoever holds them.
 * - `rename`: the holder is this project's and is being deleted (a logical id renamed without `aliases`);
 * - `taken`: the holder is this project's under another logical id, and stays;
 * - `owned`: another project owns the holder;
 * - `exists`: no project owns it.
 */

/** Live resources by kind and unique key (lower-cased, as the service compares them). */
class UniqueKeyIndex {
  readonly #byKind = new Map<ResourceKind, Map<string, LiveResource>>();

  constructor(account: AccountIndex, adopted: ReadonlySet<LiveResource>) {
    for (const kind of Object.keys(account.live) as ResourceKind[]) {
      const byKey = new Map<string, LiveResource>();
      // A resource a construct adopts is that construct's: its keys are not in another's way.
      for (const r of account.live[kind]) {
        if (adopted.has(r)) continue;
        for (const { key } of uniqueKeysOf(kind, r)) if (!byKey.has(key)) byKey.set(key, r);
      }
      this.#byKind.set(kind, byKey);
    }
  }

  tryFind(kind: ResourceKind, key: string): LiveResource | undefined {
    return this.#byKind.get(kind)?.get(key);
  }
}

/** Conflicts of the constructs that would be created (no entry, nothing adopted) over unique keys. */
export function uniqueKeyConflicts(
  creates: readonly DesiredResource[],
  matching: Matching,
  account: AccountIndex,
  deletes: readonly DeleteOperation[],
): Conflict[] {
  const index = new UniqueKeyIndex(account, new Set(matching.adopted.values()));
  const deleting = ByPhysicalId.of(deletes, (op) => [op.kind, op.physicalId]);
  const conflicts: Conflict[] = [];
  for (const d of creates) {
    for (const unique of uniqueKeysOf(d.kind, d.payload)) {
      const holder = index.tryFind(d.kind, unique.key);
      if (holder === undefined) continue;
      conflicts.push(collision(d, unique, holder, account, deleting));
      break;
    }
  }
  return conflicts;
}

function collision(
  d: DesiredResource,
  unique: { field: string; value: string },
  holder: LiveResource,
  account: AccountIndex,
  deleting: ByPhysicalId<DeleteOperation>,
): Conflict {
  const gone = deleting.tryFind(d.kind, holder.id);
  if (gone !== undefined) return conflictOf('rename', d, unique, holder, gone.logicalId);
  const owner = account.ownedHere.tryFind(d.kind, holder.id);
  if (owner !== undefined) return conflictOf('taken', d, unique, holder, owner.logicalId);
  const other = account.otherOwners.tryFind(d.kind, holder.id);
  if (other !== undefined) return conflictOf('owned', d, unique, holder, other);
  return conflictOf('exists', d, unique, holder);
}
