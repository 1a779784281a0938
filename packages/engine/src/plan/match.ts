import { KINDS, naturalKeyOf as naturalKeyIn, type ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { conflictOf } from './conflict.js';
import { type IdentityMatch, isCreatedFrom, matchIdentity, naturalKeyOf } from './resource.js';
import type { Conflict, Live, LiveResource } from './types.js';

/**
 * The matching stage: which state entry and which live resource each construct is. Ownership is
 * what state records; a construct without an entry takes a live resource only when it says
 * `adopt: true` or an interrupted deploy created it (a pending create).
 */

/** The state entry a construct takes: its own, or that of one of its aliases (a move). */
export interface Claim {
  entry: StateEntry;
  /** The alias whose entry it takes. */
  from?: string;
}

export interface Matching {
  claims: Map<DesiredResource, Claim>;
  /** State keys of the entries the constructs take. */
  claimedKeys: Set<string>;
  /** Live resources taken by constructs that had no entry: `adopt: true`, or a resumed create. */
  adopted: Map<DesiredResource, LiveResource>;
  /** `exists` (a live resource with the construct's natural key that it does not adopt) and `owned`. */
  conflicts: Conflict[];
}

/** The live account and who owns what in it, indexed once for the stages that look things up. */
export interface AccountIndex {
  live: Live;
  byId: ByPhysicalId<LiveResource>;
  /** This project's state entries by the resource they record. */
  ownedHere: ByPhysicalId<StateEntry>;
  /** Resources other projects own (→ the project). */
  otherOwners: ByPhysicalId<string>;
}

export function indexAccount(live: Live, state: State, otherOwners?: ByPhysicalId<string>): AccountIndex {
  const byId = new ByPhysicalId<LiveResource>();
  for (const kind of Object.keys(live) as ResourceKind[]) for (const r of live[kind]) byId.set(kind, r.id, r);
  return {
    live,
    byId,
    ownedHere: ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]),
    otherOwners: otherOwners ?? new ByPhysicalId<string>(),
  };
}

/** Each construct's own state entry, else the first of its aliases' that no construct took yet. */
export function claimStateEntries(
  desired: readonly DesiredResource[],
  state: State,
): Pick<Matching, 'claims' | 'claimedKeys'> {
  const claims = new Map<DesiredResource, Claim>();
  const claimedKeys = new Set<string>();
  for (const d of desired) {
    const key = stateKey(d.kind, d.logicalId);
    const own = state.resources[key];
    if (own !== undefined) {
      claims.set(d, { entry: own });
      claimedKeys.add(key);
    }
  }
  for (const d of desired) {
    if (claims.has(d)) continue;
    for (const alias of d.options.aliases) {
      const key = stateKey(d.kind, alias);
      const aliased = state.resources[key];
      if (aliased !== undefined && !claimedKeys.has(key)) {
        claims.set(d, { entry: aliased, from: alias });
        claimedKeys.add(key);
        break;
      }
    }
  }
  return { claims, claimedKeys };
}

/** Live resources by kind and natural key: the candidates a construct without state may take. */
class NaturalKeyIndex {
  readonly #byKind = new Map<ResourceKind, Map<string, LiveResource[]>>();

  constructor(live: Live) {
    for (const kind of Object.keys(live) as ResourceKind[]) {
      const byKey = new Map<string, LiveResource[]>();
      for (const r of live[kind]) {
        const key = naturalKeyOf(kind, r);
        if (key === undefined) continue;
        const same = byKey.get(key);
        if (same === undefined) byKey.set(key, [r]);
        else same.push(r);
      }
      this.#byKind.set(kind, byKey);
    }
  }

  candidates(kind: ResourceKind, key: string): readonly LiveResource[] {
    return this.#byKind.get(kind)?.get(key) ?? [];
  }
}

/**
 * Live resources for the constructs that have no state entry. A pending create (an interrupted
 * deploy sent it) is resumed: the resource it made is found by natural key, or for alert channels,
 * which have none, by content. `adopt: true` takes a resource no project owns that has the
 * construct's natural key. Any other such resource is an `exists` conflict; one that another
 * project owns is `owned`, whatever the construct says. Resumed creates are matched first, so
 * that a construct that shares a name with one never takes the resource that create made.
 */
export function adoptLive(
  desired: readonly DesiredResource[],
  claims: ReadonlyMap<DesiredResource, Claim>,
  state: State,
  account: AccountIndex,
): Pick<Matching, 'adopted' | 'conflicts'> {
  const pending = new Set(state.pendingCreates);
  const resuming = (d: DesiredResource) => pending.has(stateKey(d.kind, d.logicalId));
  const byNaturalKey = new NaturalKeyIndex(account.live);
  const adopted = new Map<DesiredResource, LiveResource>();
  const taken = new Set<LiveResource>();
  const conflicts: Conflict[] = [];
  const unclaimed = desired.filter((d) => !claims.has(d));
  const ordered = [...unclaimed.filter(resuming), ...unclaimed.filter((d) => !resuming(d))];
  for (const d of ordered) {
    const natural = naturalKeyIn(KINDS[d.kind], d.payload);
    const candidates =
      natural !== undefined
        ? byNaturalKey.candidates(d.kind, natural.key)
        : resuming(d)
          ? account.live[d.kind].filter((r) => isCreatedFrom(d.kind, d.payload, r))
          : [];
    // A resource found by content (no natural key) that another project owns is simply not this one.
    const match = candidates.find(
      (r) =>
        !taken.has(r) &&
        !account.ownedHere.has(d.kind, r.id) &&
        (natural !== undefined || !account.otherOwners.has(d.kind, r.id)),
    );
    if (match === undefined) continue;
    const owner = account.otherOwners.tryFind(d.kind, match.id);
    if (owner !== undefined && natural !== undefined) {
      conflicts.push(conflictOf('owned', d, natural, match, owner));
    } else if (resuming(d) || d.options.adopt) {
      adopted.set(d, match);
      taken.add(match);
    } else if (natural !== undefined) {
      conflicts.push(conflictOf('exists', d, natural, match));
    }
  }
  return { adopted, conflicts };
}

/**
 * Whether the live resource at an entry's recorded id is that entry's, by `matchIdentity`, unless
 * another entry of the state records exactly it (a swap of ids, not a rename): then `recordedFor`
 * names that entry. `proof` says how sure: for a delete only `same` and `renamed` count as ours,
 * while a construct in the code keeps its resource unless it is proven another (`other`, a swap).
 */
export function recordedResource(
  entry: StateEntry,
  live: LiveResource,
  state: State,
): { match: IdentityMatch; recordedFor?: StateEntry } {
  const match = matchIdentity(entry.kind, entry.identity, live);
  if (match === 'same' || match === 'other') return { match };
  const recordedFor = Object.values(state.resources).find(
    (e) =>
      e !== entry &&
      e.kind === entry.kind &&
      e.identity !== undefined &&
      matchIdentity(e.kind, e.identity, live) === 'same',
  );
  return recordedFor === undefined ? { match } : { match: 'other', recordedFor };
}

/**
 * Claims whose recorded id holds another resource than the one recorded: a state problem (ids
 * swapped or edited by hand, a state of another service), so an `identity` conflict, never an
 * update of a stranger. The entry whose recorded identity the stranger has, if any, is named: two
 * swapped entries name each other.
 */
export function identityConflicts(
  claims: ReadonlyMap<DesiredResource, Claim>,
  state: State,
  account: AccountIndex,
): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const [d, { entry }] of claims) {
    const live = account.byId.tryFind(entry.kind, entry.physicalId);
    if (live === undefined) continue;
    // Kept unless proven another: an older entry renamed in the UI is drift, as it always was.
    const { match, recordedFor } = recordedResource(entry, live, state);
    if (match !== 'other') continue;
    conflicts.push(
      conflictOf(
        'identity',
        d,
        { field: 'id', value: String(entry.physicalId) },
        live,
        recordedFor?.logicalId,
      ),
    );
  }
  return conflicts;
}

/** The matching stage in full. */
export function matchResources(
  desired: readonly DesiredResource[],
  state: State,
  account: AccountIndex,
): Matching {
  const { claims, claimedKeys } = claimStateEntries(desired, state);
  const { adopted, conflicts } = adoptLive(desired, claims, state, account);
  return {
    claims,
    claimedKeys,
    adopted,
    conflicts: [...identityConflicts(claims, state, account), ...conflicts],
  };
}
