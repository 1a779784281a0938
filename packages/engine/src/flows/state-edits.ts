import { isResourceKind } from '@monitor/api';
import { InvalidStateError } from '../errors.js';
import { ByPhysicalId } from '../identity.js';
import { describeIdentity, identityOf, matchIdentity } from '../plan/resource.js';
import type { Live, LiveResource } from '../plan/types.js';
import type { StateBackend } from '../state/backend.js';
import {
  checkIntegrity,
  type IntegrityProblem,
  integrityProblems,
  type State,
  type StateEntry,
  stateKey,
} from '../state/state.js';
import { OwnedElsewhereError, StaleStateError, StateEditError } from './errors.js';
import { type LockEvent, lockedFlow } from './locked.js';
import { checkService } from './target.js';

/**
 * The edits of `monitor state`: list, show, mv, rm, pull, push, migrate, unlock and rebind. They
 * change what a project owns without touching the account, so they go through the checks a deploy
 * goes through: no entry may take a resource another project owns (whatever `--force` says), and
 * nothing is written that would leave the state damaged. Listing, pulling and removing work on a
 * damaged state, so that it can always be repaired from the CLI.
 */

/** Where the edits work: one project's state for one account. */
export interface StateTarget {
  backend: StateBackend;
  accountId: string;
  /** The service the account is on (`serviceIdentity`); state of another is refused. */
  service?: string | undefined;
  /** What holds the lock while an edit writes, e.g. `monitor state mv`. */
  command: string;
  /** How long to wait for a deploy that holds the lock. @default 0 */
  lockTimeoutMs?: number;
  /** Told of a wait for the lock, or of a lock left behind that was removed. */
  onEvent?: (event: LockEvent) => void;
}

export interface StateListing {
  location: string;
  state: State;
  /** What is wrong in it: a deploy refuses such a state until `rm` or `push --force` repairs it. */
  problems: IntegrityProblem[];
}

/** The state as it is, damaged or not, with what is wrong in it. */
export async function listState(backend: StateBackend): Promise<StateListing> {
  const state = await backend.read({ allowDamaged: true });
  return { location: backend.location, state, problems: integrityProblems(state) };
}

/** The entry at `Kind:logicalId`; a clear error, with near matches, when there is none. */
export function findEntry(state: State, key: string): StateEntry {
  const entry = state.resources[key];
  if (entry !== undefined) return entry;
  const wanted = (key.split(':').pop() ?? '').toLowerCase();
  const close = Object.keys(state.resources).filter((k) => k.toLowerCase().includes(wanted));
  throw new StateEditError(
    `no entry "${key}" in the state`,
    close.length > 0
      ? `did you mean ${close.slice(0, 3).join(', ')}?`
      : 'list the entries with monitor state list',
  );
}

/** One entry, read from a state that may be damaged. */
export async function showEntry(backend: StateBackend, key: string): Promise<StateEntry> {
  return findEntry(await backend.read({ allowDamaged: true }), key);
}

/**
 * Refuse a state this project is about to write when an entry of it records a resource that
 * another project sharing the database owns: only the owner can give a resource away (`rm` there,
 * then `adopt: true` here).
 */
async function checkOwnership(state: State, backend: StateBackend): Promise<void> {
  const owners = (await backend.owners?.()) ?? new ByPhysicalId<string>();
  for (const [key, entry] of Object.entries(state.resources)) {
    const owner = owners.tryFind(entry.kind, entry.physicalId);
    if (owner === undefined) continue;
    throw new OwnedElsewhereError(
      `entry "${key}" records ${entry.kind} id ${String(entry.physicalId)}, which belongs to project "${owner}" in ${backend.location}; nothing was written`,
      `only project "${owner}" can give it away: remove it from its code or forget it there (monitor state rm), then take it here with adopt: true`,
    );
  }
}

/** Write `next` whole, after the checks every edit makes: integrity and ownership. */
async function writeChecked(backend: StateBackend, next: State): Promise<State> {
  checkIntegrity(next, 'to be written');
  await checkOwnership(next, backend);
  return backend.commit(next);
}

/** Rename an entry (what `aliases` do in a deploy): the resource keeps its physical id. */
export async function moveEntry(
  target: StateTarget,
  from: string,
  to: string,
): Promise<{ from: string; to: string }> {
  return lockedFlow(target.backend, target, async () => {
    const state = await target.backend.read({ allowDamaged: true });
    const entry = findEntry(state, from);
    const colon = to.indexOf(':');
    const toKind = colon < 0 ? '' : to.slice(0, colon);
    const toId = colon < 0 ? '' : to.slice(colon + 1);
    if (toKind !== entry.kind || !isResourceKind(toKind) || toId === '') {
      throw new StateEditError(
        `"${to}" must be a ${entry.kind}:logical-id`,
        `e.g. monitor state mv ${from} ${entry.kind}:new-id`,
      );
    }
    if (state.resources[to] !== undefined) {
      throw new StateEditError(`"${to}" is already in the state`, `remove it first: monitor state rm ${to}`);
    }
    const resources = { ...state.resources };
    delete resources[from];
    resources[stateKey(entry.kind, toId)] = { ...entry, logicalId: toId };
    await writeChecked(target.backend, { ...state, resources });
    return { from, to };
  });
}

/**
 * Forget an entry: the resource stays in the account, unmanaged. Works on a damaged state: it is how
 * one of two entries that record one resource is removed.
 */
export async function removeEntry(target: StateTarget, key: string): Promise<StateEntry> {
  return lockedFlow(target.backend, target, async () => {
    const state = await target.backend.read({ allowDamaged: true });
    const entry = findEntry(state, key);
    const resources = { ...state.resources };
    delete resources[key];
    await target.backend.commit({
      ...state,
      resources,
      pendingCreates: state.pendingCreates.filter((k) => k !== key),
    });
    return entry;
  });
}

/** The state, damaged or not, as `pushState` takes it back. */
export async function pullState(backend: StateBackend): Promise<State> {
  return backend.read({ allowDamaged: true });
}

export interface PushOptions {
  /** Push even when the state moved since the file was pulled (how a damaged state is replaced). */
  force?: boolean;
  /** The file it came from, for messages. */
  source: string;
}

/**
 * Replace the state with `pushed` (a hand-edited pull). Refused, with nothing written: a state of
 * another account or service; a damaged one; one whose entries take resources other projects own
 * (`force` never overrides these); and without `force`, a state that moved since it was pulled.
 */
export async function pushState(
  target: StateTarget,
  pushed: State,
  options: PushOptions,
): Promise<{ entries: number; serial: number }> {
  if (pushed.accountId !== target.accountId) {
    throw new StateEditError(
      `${options.source} is the state of account ${pushed.accountId}, not ${target.accountId}`,
      'push it with that account selected (--account)',
    );
  }
  checkService(pushed, target.service, options.source);
  const problems = integrityProblems(pushed);
  if (problems.length > 0) {
    throw new InvalidStateError(
      `${options.source} ${problems.map((p) => p.message).join('; ')}; nothing was pushed`,
      'fix the file (each resource recorded once, under its own Kind:logicalId) and push it again',
    );
  }
  return lockedFlow(target.backend, target, async () => {
    const current = await target.backend.read({ allowDamaged: true });
    if (current.serial !== pushed.serial && options.force !== true) {
      throw new StaleStateError(
        `the state moved since ${options.source} was pulled (serial ${pushed.serial} → ${current.serial}); nothing was pushed`,
        'pull again and redo the edit, or push anyway with --force',
      );
    }
    const saved = await writeChecked(target.backend, {
      ...pushed,
      ...(pushed.service === undefined && target.service !== undefined ? { service: target.service } : {}),
      serial: Math.max(current.serial, pushed.serial),
    });
    return { entries: Object.keys(saved.resources).length, serial: saved.serial };
  });
}

/**
 * Copy the state to another backend (files to PostgreSQL, say). The source must be sound; the
 * destination must not hold state for this project and account unless `force`, and never may an
 * entry take what another project owns there.
 */
export async function migrateState(
  target: StateTarget,
  destination: StateBackend,
  options: { force?: boolean } = {},
): Promise<{ entries: number; serial: number }> {
  if (destination.location === target.backend.location) {
    throw new StateEditError('--to is where the state already is', 'name the other backend');
  }
  return lockedFlow(target.backend, target, () =>
    lockedFlow(destination, target, async () => {
      const source = await target.backend.read();
      const existing = await destination.read({ allowDamaged: true });
      if (Object.keys(existing.resources).length > 0 && options.force !== true) {
        throw new StateEditError(
          `${destination.location} already holds ${Object.keys(existing.resources).length} entries for this project and account; nothing was moved`,
          'choose an empty destination, or replace it with --force',
        );
      }
      const saved = await writeChecked(destination, {
        ...source,
        serial: Math.max(source.serial, existing.serial),
      });
      return { entries: Object.keys(saved.resources).length, serial: saved.serial };
    }),
  );
}

/** What rebind found of one entry at the new service. */
export interface RebindEntry {
  key: string;
  physicalId: string | number;
  /**
   * `same`: the resource at its id there is the one recorded, re-pointed. `missing`: nothing there
   * (re-pointed: the next plan sees it gone). `other`: another resource there, or the same one
   * renamed, which a move of service cannot tell apart; `unchecked`: the entry records nothing to
   * tell it by. Both are forgotten: never changed or deleted there.
   */
  status: 'same' | 'missing' | 'other' | 'unchecked';
  recorded: string;
  found?: string;
}

export interface Rebind {
  from: string | null;
  to: string;
  entries: RebindEntry[];
}

/** Whether to go ahead with a rebind: a person asked, or `--yes`. */
export type RebindConsent = (
  rebind: Rebind,
) => Promise<{ approved: true } | { approved: false; reason: string; hint?: string }>;

/** What each entry's id holds at the new service, judged strictly: only the resource recorded is re-pointed. */
export function planRebind(state: State, to: string, live: Live): Rebind {
  const byId = new ByPhysicalId<LiveResource>();
  for (const kind of Object.keys(live) as (keyof Live)[]) for (const r of live[kind]) byId.set(kind, r.id, r);
  const entries = Object.entries(state.resources).map(([key, entry]): RebindEntry => {
    const base = { key, physicalId: entry.physicalId, recorded: describeIdentity(entry.identity) };
    if (entry.identity === undefined) return { ...base, status: 'unchecked' };
    const there = byId.tryFind(entry.kind, entry.physicalId);
    if (there === undefined) return { ...base, status: 'missing' };
    const found = describeIdentity(identityOf(entry.kind, there));
    // A rename cannot be told from a stranger created the same day on another server: only `same` counts.
    return {
      ...base,
      found,
      status: matchIdentity(entry.kind, entry.identity, there) === 'same' ? 'same' : 'other',
    };
  });
  return { from: state.service ?? null, to, entries };
}

/**
 * Record that the state belongs to the service this run talks to (`live` is its account), when
 * the same service moved to a new address: each entry is checked against what its id holds there,
 * and only the resources recorded are re-pointed; the others are forgotten, so that nothing of
 * another server is ever changed or deleted as this project's. `consent` sees the list first.
 */
export async function rebindState(
  target: StateTarget,
  readAccount: () => Promise<Live>,
  consent: RebindConsent,
): Promise<
  ({ status: 'rebound'; forgotten: string[] } & Rebind) | { status: 'refused'; reason: string; hint?: string }
> {
  const service = target.service;
  if (service === undefined) {
    throw new StateEditError(
      'no service to record: this run talks to none',
      'run it with MONITOR_BASE_URL set',
    );
  }
  return lockedFlow(target.backend, target, async () => {
    const state = await target.backend.read({ allowDamaged: true });
    const rebind = planRebind(state, service, await readAccount());
    const answer = await consent(rebind);
    if (!answer.approved) {
      return {
        status: 'refused',
        reason: answer.reason,
        ...(answer.hint === undefined ? {} : { hint: answer.hint }),
      };
    }
    const forgotten = rebind.entries
      .filter((e) => e.status === 'other' || e.status === 'unchecked')
      .map((e) => e.key);
    const resources = { ...state.resources };
    for (const key of forgotten) delete resources[key];
    await target.backend.commit({ ...state, resources, service });
    return { status: 'rebound', ...rebind, forgotten };
  });
}
