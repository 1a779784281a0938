import { KINDS, naturalKeyOf as naturalKeyIn, type ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { conflictOf } from './conflict.js';
import type { AccountIndex, Matching } from './match.js';
import { naturalKeyOf, uniqueKeysOf } from './resource.js';
import type { Conflict, LiveResource } from './types.js';

/**
 * The collision stage: a create that needs a key the service keeps unique (a status page's url, a
 * dashboard's customUrl) while a live resource holds it would fail with 409. Only unique keys of
 * the kind definitions count: names the service lets repeat (groups, services, windows) never
 * collide, whoever holds them.
 * - `rename`: the holder is this project's and leaves the code, deleted or kept as protected (a
 *   logical id renamed without `aliases`); caught by natural key too, for kinds whose names repeat;
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

/** An entry this plan takes out of the code: deleted, or kept because it is protected. */
export interface LeavingEntry {
  kind: ResourceKind;
  logicalId: string;
  physicalId: string | number;
}

/**
 * Conflicts of the constructs that would be created (no entry, nothing adopted) over unique keys,
 * and over natural keys held by a resource leaving the code (a renamed logical id: creating would
 * make a twin, and the old one, with its checks, would be deleted or left unmanaged).
 */
export function uniqueKeyConflicts(
  creates: readonly DesiredResource[],
  matching: Matching,
  account: AccountIndex,
  leaving: {
    deleted: readonly LeavingEntry[];
    keptProtected: readonly LeavingEntry[];
    undecided?: readonly LeavingEntry[];
  },
): Conflict[] {
  const index = new UniqueKeyIndex(account, new Set(matching.adopted.values()));
  // A unique key held by a kept protected resource stays held: `taken`, not `rename`.
  const gone = ByPhysicalId.of(leaving.deleted, (e) => [e.kind, e.physicalId]);
  const renamedCandidates = [...leaving.deleted, ...leaving.keptProtected, ...(leaving.undecided ?? [])];
  const conflicts: Conflict[] = [];
  for (const d of creates) {
    const renamed = renamedFrom(d, account, renamedCandidates);
    if (renamed !== undefined) {
      conflicts.push(conflictOf('rename', d, renamed.natural, renamed.holder, renamed.logicalId));
      continue;
    }
    for (const unique of uniqueKeysOf(d.kind, d.payload)) {
      const holder = index.tryFind(d.kind, unique.key);
      if (holder === undefined) continue;
      conflicts.push(collision(d, unique, holder, account, gone));
      break;
    }
  }
  return conflicts;
}

/** The resource leaving the code that has the create's natural key, if one does: the same, renamed. */
function renamedFrom(d: DesiredResource, account: AccountIndex, leaving: readonly LeavingEntry[]) {
  const natural = naturalKeyIn(KINDS[d.kind], d.payload);
  if (natural === undefined) return undefined;
  for (const entry of leaving) {
    if (entry.kind !== d.kind) continue;
    const holder = account.byId.tryFind(entry.kind, entry.physicalId);
    if (holder !== undefined && naturalKeyOf(d.kind, holder) === natural.key) {
      return { natural, holder, logicalId: entry.logicalId };
    }
  }
  return undefined;
}

function collision(
  d: DesiredResource,
  unique: { field: string; value: string },
  holder: LiveResource,
  account: AccountIndex,
  leaving: ByPhysicalId<LeavingEntry>,
): Conflict {
  const gone = leaving.tryFind(d.kind, holder.id);
  if (gone !== undefined) return conflictOf('rename', d, unique, holder, gone.logicalId);
  const owner = account.ownedHere.tryFind(d.kind, holder.id);
  if (owner !== undefined) return conflictOf('taken', d, unique, holder, owner.logicalId);
  const other = account.otherOwners.tryFind(d.kind, holder.id);
  if (other !== undefined) return conflictOf('owned', d, unique, holder, other);
  return conflictOf('exists', d, unique, holder);
}
