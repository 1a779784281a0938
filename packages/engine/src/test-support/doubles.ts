import {
  type ManagedOperations,
  type ManagedResource,
  NotFoundError,
  RESOURCE_KINDS,
  type ResourceKind,
} from '@monitor/api';
import type { KindClient } from '../apply/apply.js';
import { secretHasher } from '../hash.js';
import { type Operation, type Plan, summarize } from '../plan/plan.js';
import {
  applyChanges,
  type LockRequest,
  type PendingChanges,
  type StateBackend,
  type StateChanges,
} from '../state/backend.js';
import { LockHeldError } from '../state/errors.js';
import type { ClearedLock } from '../state/lock-holder.js';
import { emptyState, type State } from '../state/state.js';

type Payload = Record<string, unknown>;

/** A hook around one call to the fake account: throw to fail it, `await` to hold it. */
export type CallHook = (call: {
  op: 'create' | 'update' | 'delete';
  kind: ResourceKind;
  payload?: Payload;
  id?: string | number;
}) => Promise<void> | void;

/**
 * An in-memory account behind the kinds' operations, as the service behaves where the engine
 * cares: ids assigned on create, sets come back reordered, secret variables come back empty, a
 * private dashboard's key made by the service and shown whole only in the answer of the write
 * that made it. `before` runs before a call is processed, `after` once it was (throw there for
 * "processed, then the connection dropped").
 */
export class FakeAccount implements KindClient {
  readonly resources = new Map<ResourceKind, Map<string, ManagedResource>>(
    RESOURCE_KINDS.map((k) => [k, new Map()]),
  );
  readonly calls: string[] = [];
  requestCount = 0;
  before: CallHook = () => {};
  after: CallHook = () => {};
  #nextId = 1;

  all(kind: ResourceKind): ManagedResource[] {
    return [...(this.resources.get(kind) as Map<string, ManagedResource>).values()];
  }

  /** A private dashboard without a key gets one: its id, to show whole in this answer only. */
  #makeKey(kind: ResourceKind, resource: Payload): unknown[] {
    if (kind !== 'Dashboard' || resource.isPrivate !== true) return [];
    if (Array.isArray(resource.keys) && resource.keys.length > 0) return [];
    const n = this.#nextId++;
    const rawKey = `dk_${String(n).padStart(32, '0')}`;
    resource.keys = [{ id: `key-${n}`, rawKey, maskedKey: `dk_…${rawKey.slice(-4)}` }];
    return [`key-${n}`];
  }

  managed = (kind: ResourceKind): ManagedOperations => {
    const table = this.resources.get(kind) as Map<string, ManagedResource>;
    const stringIds = kind === 'StatusPage' || kind === 'StatusPageService' || kind === 'Dashboard';
    const echo = (r: ManagedResource, revealed: readonly unknown[] = []) => {
      const out: Payload = structuredClone(r);
      if (Array.isArray(out.keys)) {
        out.keys = (out.keys as Payload[]).map((k) =>
          revealed.includes(k.id) ? k : { ...k, rawKey: k.maskedKey },
        );
      }
      if (Array.isArray(out.tags)) out.tags = [...(out.tags as string[])].reverse();
      if (Array.isArray(out.environmentVariables)) {
        out.environmentVariables = (out.environmentVariables as Payload[])
          .map((v) => (v.secret === true ? { ...v, value: '' } : v))
          .reverse();
      }
      out.created_at = '2026-11-01';
      out.updated_at = null;
      return out as ManagedResource;
    };
    const call = async <T>(
      op: 'create' | 'update' | 'delete',
      work: () => T,
      payload?: Payload,
      id?: string | number,
    ) => {
      this.requestCount++;
      this.calls.push(`${op} ${kind}${id === undefined ? '' : ` ${String(id)}`}`);
      await this.before({
        op,
        kind,
        ...(payload === undefined ? {} : { payload }),
        ...(id === undefined ? {} : { id }),
      });
      const result = work();
      await this.after({
        op,
        kind,
        ...(payload === undefined ? {} : { payload }),
        ...(id === undefined ? {} : { id }),
      });
      return result;
    };
    return {
      pages: async function* (this: FakeAccount) {
        this.requestCount++;
        yield { items: [...table.values()].map((r) => echo(r)) };
      }.bind(this),
      get: async (id) => {
        this.requestCount++;
        this.calls.push(`get ${kind} ${String(id)}`);
        const current = table.get(String(id));
        return current === undefined ? undefined : echo(current);
      },
      create: (payload) =>
        call(
          'create',
          () => {
            const n = this.#nextId++;
            const id = stringIds ? `${kind}-${n}` : n;
            const resource = { ...structuredClone(payload), id } as ManagedResource;
            table.set(String(id), resource);
            return echo(resource, this.#makeKey(kind, resource));
          },
          payload,
        ),
      update: (id, payload) =>
        call(
          'update',
          () => {
            const current = table.get(String(id));
            if (current === undefined) throw new NotFoundError(`${kind} ${String(id)}`);
            Object.assign(current, structuredClone(payload));
            return echo(current, this.#makeKey(kind, current));
          },
          payload,
          id,
        ),
      delete: (id) =>
        call(
          'delete',
          () => {
            if (!table.delete(String(id))) throw new NotFoundError(`${kind} ${String(id)}`);
          },
          undefined,
          id,
        ),
    };
  };
}

/** State in memory, with every record kept in order so tests can see what was written when. */
export class MemoryBackend implements StateBackend {
  readonly location = 'memory';
  stored: State;
  readonly records: { changes: StateChanges; pending: PendingChanges }[] = [];
  commits = 0;
  locked = false;

  constructor(state: State = emptyState('acct')) {
    this.stored = structuredClone(state);
  }

  async read(): Promise<State> {
    return structuredClone(this.stored);
  }

  async lock(_request: LockRequest): Promise<() => Promise<void>> {
    if (this.locked) throw new LockHeldError(undefined, 'wait for it to finish');
    this.locked = true;
    return async () => {
      this.locked = false;
    };
  }

  async record(state: State, changes: StateChanges, pending: PendingChanges = {}): Promise<void> {
    this.records.push({ changes, pending });
    applyChanges(this.stored, structuredClone(changes), pending);
    applyChanges(state, changes, pending);
  }

  async commit(state: State): Promise<State> {
    this.commits++;
    this.stored = { ...structuredClone(state), serial: state.serial + 1 };
    return structuredClone(this.stored);
  }

  async forceUnlock(): Promise<ClearedLock> {
    const removed = this.locked ? 'the in-memory lock' : undefined;
    this.locked = false;
    return { holder: undefined, removed };
  }

  async close(): Promise<void> {}
}

/** A plan of exactly `operations`, for renderer tests: nothing else in it unless `extra` says so. */
export function planOf(operations: Operation[], unchanged = 3, extra: Partial<Plan> = {}): Plan {
  return {
    formatVersion: 1,
    mode: 'apply',
    createdAt: '2026-11-21T00:00:00.000Z',
    operations,
    unchanged,
    forget: [],
    mismatched: [],
    protectedKept: [],
    keptForProtected: [],
    protectChanged: [],
    conflicts: [],
    findings: [],
    unverifiedSecrets: 0,
    abandonedCreates: [],
    summary: summarize(operations, unchanged),
    stateSerial: 4,
    priorState: emptyState('acct'),
    secrets: secretHasher('test-key', 'salt'),
    ...extra,
  };
}
