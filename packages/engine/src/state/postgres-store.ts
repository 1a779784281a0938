import { hostname } from 'node:os';
import type { ResourceKind } from '@monitor/api';
import type { Client as PgClient } from 'pg';
import { InvalidStateError, StateStorageError } from '../errors.js';
import { ByPhysicalId } from '../identity.js';
import {
  applyChanges,
  type LockRequest,
  type PendingChanges,
  type ReadOptions,
  type StateBackend,
  type StateChanges,
} from './backend.js';
import { LockHeldError } from './errors.js';
import type { ClearedLock, LockHolder } from './lock-holder.js';
import type { OtherProjects } from './other-projects.js';
import {
  checkFormatVersion,
  checkIntegrity,
  emptyState,
  type LastDeploy,
  STATE_FORMAT_VERSION,
  type State,
  type StateEntry,
  stateSchema,
} from './state.js';

/**
 * Versioned migrations of monitor's own schema (`monitor`), applied in order under a transaction
 * lock, each once. Never edit one that has shipped: add the next.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE monitor.states (
     project text NOT NULL,
     account_id text NOT NULL,
     format_version integer NOT NULL,
     serial bigint NOT NULL,
     salt text NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (project, account_id)
   );
   CREATE TABLE monitor.entries (
     project text NOT NULL,
     account_id text NOT NULL,
     key text NOT NULL,
     kind text NOT NULL,
     logical_id text NOT NULL,
     physical_id jsonb NOT NULL,
     applied_hash text NOT NULL,
     secret_hashes jsonb NOT NULL,
     protect boolean NOT NULL,
     PRIMARY KEY (project, account_id, key),
     FOREIGN KEY (project, account_id) REFERENCES monitor.states ON DELETE CASCADE
   );
   CREATE INDEX entries_by_resource ON monitor.entries (account_id, kind, physical_id);
   CREATE TABLE monitor.pending_creates (
     project text NOT NULL,
     account_id text NOT NULL,
     key text NOT NULL,
     PRIMARY KEY (project, account_id, key),
     FOREIGN KEY (project, account_id) REFERENCES monitor.states ON DELETE CASCADE
   );
   CREATE TABLE monitor.lock_holders (
     project text NOT NULL,
     account_id text NOT NULL,
     command text NOT NULL,
     host text NOT NULL,
     pid integer NOT NULL,
     since timestamptz NOT NULL,
     PRIMARY KEY (project, account_id)
   );`,
  // 0.2: the service a state belongs to, and what tells each entry's resource apart.
  `ALTER TABLE monitor.states ADD COLUMN service text;
   ALTER TABLE monitor.entries ADD COLUMN identity text;`,
  // 0.3: the last deploy, for verify --since-deploy.
  'ALTER TABLE monitor.states ADD COLUMN last_deploy jsonb;',
  // 4: what each field was when last applied, to tell its changes by cause.
  'ALTER TABLE monitor.entries ADD COLUMN field_hashes text;',
  // 5: each account's rate budget, shared by the runs calling it (budget/postgres-budget.ts): the
  // leases of the last window and the runs seen in it, and the last take's answer for its RETURNING.
  `CREATE TABLE monitor.account_budgets (
     service text NOT NULL,
     account_id text NOT NULL,
     leases jsonb NOT NULL DEFAULT '[]',
     runs jsonb NOT NULL DEFAULT '{}',
     last_take jsonb,
     PRIMARY KEY (service, account_id)
   );`,
  // 6: the constructs of other projects each entry references (X.fromProject), for their owners'
  // delete protection.
  'ALTER TABLE monitor.entries ADD COLUMN uses jsonb;',
];

/** Serializes migrations of concurrent runs (an arbitrary constant, the same for every run). */
const MIGRATION_LOCK = 7_041_338_211;

/** A `postgres://` URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'the state URL (not a valid URL)';
  }
}

/** What went wrong reaching or using the database, for people, with the way out. */
export function storageError(error: unknown, where: string): Error {
  const e = error as { code?: string; message?: string };
  const detail = (e.message ?? String(error)).replace(/postgres(ql)?:\/\/[^\s]*/g, (u) => redactUrl(u));
  const known: Record<string, [string, string]> = {
    ECONNREFUSED: [
      'connection refused',
      'start the PostgreSQL server, or fix the host and port in the state URL',
    ],
    ENOTFOUND: ['the host name does not resolve', 'fix the host in the state URL'],
    ETIMEDOUT: ['the connection timed out', 'check the network between here and the database'],
    ECONNRESET: [
      'the connection was closed',
      'check that the database is up, then run the same command again',
    ],
    '28P01': ['the password was refused', 'check the user and password in the state URL (MONITOR_STATE_URL)'],
    '28000': ['the server refused this user', 'check the user in the state URL and pg_hba.conf'],
    '3D000': [
      'the database does not exist',
      'create it (createdb NAME, or CREATE DATABASE) or fix its name in the state URL',
    ],
    '42501': [
      'permission denied',
      'grant the user CREATE on the database: monitor makes and migrates its own schema, "monitor"',
    ],
    '57P01': [
      'the server shut down',
      'start it again, then run the same command again: what was done is recorded',
    ],
    '57P03': ['the server is starting or shutting down', 'try again in a moment'],
  };
  const reason = e.code === undefined ? undefined : known[e.code];
  if (reason !== undefined) {
    return new StateStorageError(
      `cannot use the state database ${where}: ${reason[0]} (${detail})`,
      reason[1],
    );
  }
  if (/Connection terminated|connection.*(closed|ended)|not queryable/i.test(detail)) {
    return new StateStorageError(
      `lost the connection to the state database ${where}: ${detail}`,
      'check that the database is up, then run the same command again: what was done is recorded',
    );
  }
  return new StateStorageError(
    `the state database ${where} failed: ${detail}`,
    'see the message; the state is as it was',
  );
}

/** A state entry as a row: the physical id kept as JSON, so an int stays an int. */
interface EntryRow {
  key: string;
  kind: string;
  logical_id: string;
  physical_id: string | number;
  applied_hash: string;
  secret_hashes: Record<string, string>;
  protect: boolean;
  identity: string | null;
  field_hashes: string | null;
  uses: string[] | null;
}

/** A state's row with its entries and pending creates, as `read` selects it. */
interface StateRow {
  project: string;
  format_version: number;
  service: string | null;
  last_deploy: LastDeploy | null;
  serial: string;
  salt: string;
  entries: EntryRow[];
  pending: string[];
}

/** The states' rows with their entries and pending creates, in one round trip; `$1` is the account. */
const SELECT_STATES = `SELECT s.project, s.format_version, s.service, s.last_deploy, s.serial, s.salt,
   COALESCE((SELECT json_agg(json_build_object('key', e.key, 'kind', e.kind, 'logical_id', e.logical_id,
               'physical_id', e.physical_id, 'applied_hash', e.applied_hash,
               'secret_hashes', e.secret_hashes, 'protect', e.protect, 'identity', e.identity,
               'field_hashes', e.field_hashes, 'uses', e.uses))
               FROM monitor.entries e WHERE e.project = s.project AND e.account_id = s.account_id), '[]') AS entries,
   COALESCE((SELECT json_agg(p.key) FROM monitor.pending_creates p
               WHERE p.project = s.project AND p.account_id = s.account_id), '[]') AS pending
 FROM monitor.states s WHERE s.account_id = $1`;

export interface PostgresBackendOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** The project whose state this is (its `projectName`): projects share a database. */
  project: string;
  accountId: string;
  /** How often a waiting lock looks again. @default 250 */
  pollMs?: number;
}

/**
 * State in PostgreSQL: one row per project and account, one per entry and per pending create, in
 * monitor's own schema, migrated on first use. Each `record` is one transaction. The deploy lock
 * is a session advisory lock on this backend's connection, so a run that dies (even SIGKILLed)
 * releases it with its connection; a row names the holder for messages. Everything runs on that
 * one connection, one statement or transaction at a time (`#exclusive`): a deploy records from
 * many operations at once, and two transactions interleaved on a connection would be one.
 */
export class PostgresStateBackend implements StateBackend {
  readonly location: string;
  readonly #url: string;
  readonly #project: string;
  readonly #accountId: string;
  readonly #pollMs: number;
  #client: Promise<PgClient> | undefined;
  /** The tail of the work queued on the connection: each use waits for the one before. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: PostgresBackendOptions) {
    this.#url = options.url;
    this.#project = options.project;
    this.#accountId = options.accountId;
    this.#pollMs = options.pollMs ?? 250;
    this.location = `${redactUrl(options.url)} (project ${options.project}, account ${options.accountId})`;
  }

  /** The connection, opened and migrated on first use. */
  #connection(): Promise<PgClient> {
    this.#client ??= (async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 10_000 });
      // An idle connection that breaks must not crash the process: the next query reports it.
      client.on('error', () => {});
      try {
        await client.connect();
        await migrate(client);
      } catch (e) {
        await client.end().catch(() => {});
        throw e;
      }
      return client;
    })().catch((e: unknown) => {
      this.#client = undefined;
      throw e instanceof StateStorageError || e instanceof InvalidStateError
        ? e
        : storageError(e, this.#where());
    });
    return this.#client;
  }

  #where(): string {
    return redactUrl(this.#url);
  }

  /** Run `body` on the connection once everything queued before it is done. */
  #exclusive<T>(body: (client: PgClient) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => body(await this.#connection()));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #query<T extends object>(text: string, values: unknown[] = []): Promise<T[]> {
    return this.#exclusive(async (client) => {
      try {
        return (await client.query(text, values)).rows as T[];
      } catch (e) {
        throw storageError(e, this.#where());
      }
    });
  }

  /** Run `body` in one transaction, alone on the connection: all of it is recorded, or none. */
  async #transaction(body: (q: (text: string, values?: unknown[]) => Promise<unknown>) => Promise<void>) {
    await this.#exclusive(async (client) => {
      try {
        await client.query('BEGIN');
        await body((text, values = []) => client.query(text, values));
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e instanceof InvalidStateError ? e : storageError(e, this.#where());
      }
    });
  }

  async read(options: ReadOptions = {}): Promise<State> {
    const [head] = await this.#query<StateRow>(`${SELECT_STATES} AND s.project = $2`, [
      this.#accountId,
      this.#project,
    ]);
    if (head === undefined) return emptyState(this.#accountId);
    const state = this.#stateOf(head, this.location);
    return options.allowDamaged === true ? state : checkIntegrity(state, this.location);
  }

  /**
   * What the other projects sharing this database record in this account (`X.fromProject`
   * resolves against them, and their `uses` keep what they reference from being deleted).
   */
  otherProjects(): OtherProjects {
    const where = `${redactUrl(this.#url)} (account ${this.#accountId})`;
    const read = async (only?: string) => {
      const rows = await this.#query<StateRow>(
        only === undefined ? `${SELECT_STATES} AND s.project <> $2` : `${SELECT_STATES} AND s.project = $2`,
        [this.#accountId, only ?? this.#project],
      );
      return new Map(
        rows.map((row) => [row.project, this.#stateOf(row, `${where}, project ${row.project}`)]),
      );
    };
    return {
      where: `the state database ${where}`,
      state: async (name) => (name === this.#project ? undefined : (await read(name)).get(name)),
      all: () => read(),
    };
  }

  /** A state's row as the state, checked as `read` checks it; `location` names it in errors. */
  #stateOf(head: StateRow, location: string): State {
    checkFormatVersion(head.format_version, `the state in ${location}`);
    const parsed = stateSchema.safeParse({
      formatVersion: head.format_version,
      accountId: this.#accountId,
      ...(head.service === null ? {} : { service: head.service }),
      ...(head.last_deploy === null ? {} : { lastDeploy: head.last_deploy }),
      serial: Number(head.serial),
      salt: head.salt,
      resources: Object.fromEntries(
        head.entries.map((e) => [
          e.key,
          {
            kind: e.kind,
            logicalId: e.logical_id,
            physicalId: e.physical_id,
            appliedHash: e.applied_hash,
            secretHashes: e.secret_hashes,
            protect: e.protect,
            ...(e.identity === null ? {} : { identity: e.identity }),
            ...(e.field_hashes === null ? {} : { fieldHashes: e.field_hashes }),
            ...(e.uses === null ? {} : { uses: e.uses }),
          },
        ]),
      ),
      pendingCreates: [...head.pending].sort(),
    });
    if (!parsed.success) {
      throw new InvalidStateError(
        `the state in ${location} is not a monitor state: ${parsed.error.issues[0]?.message ?? ''}`,
        'upgrade monitor if a newer version wrote it; otherwise restore it (monitor state push)',
      );
    }
    return parsed.data as State;
  }

  /**
   * Who owns what in this account besides this project: `Kind#physicalId` → project. Read with
   * state, so a plan never adopts, changes or deletes another project's resource.
   */
  async owners(): Promise<ByPhysicalId<string>> {
    const rows = await this.#query<{ project: string; kind: string; physical_id: string | number }>(
      'SELECT project, kind, physical_id FROM monitor.entries WHERE account_id = $1 AND project <> $2',
      [this.#accountId, this.#project],
    );
    const owners = new ByPhysicalId<string>();
    for (const r of rows) owners.set(r.kind as ResourceKind, r.physical_id, r.project);
    return owners;
  }

  async lock(request: LockRequest): Promise<() => Promise<void>> {
    const name = `${this.#project}\n${this.#accountId}`;
    // The wait is counted from when the lock is first found held, so a slow connect does not use it up.
    let deadline: number | undefined;
    for (;;) {
      const [row] = await this.#query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [name],
      );
      if (row?.locked === true) break;
      const holder = await this.#holder();
      if (deadline === undefined) {
        deadline = Date.now() + (request.timeoutMs ?? 0);
        if (request.timeoutMs) request.onWait?.(holder);
      }
      if (Date.now() >= deadline) {
        throw new LockHeldError(
          holder,
          'wait for it to finish; a run that died released the lock with its connection, so this one is alive',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.#pollMs));
    }
    await this.#query(
      `INSERT INTO monitor.lock_holders (project, account_id, command, host, pid, since)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (project, account_id) DO UPDATE
         SET command = EXCLUDED.command, host = EXCLUDED.host, pid = EXCLUDED.pid, since = EXCLUDED.since`,
      [this.#project, this.#accountId, request.command, hostname(), process.pid],
    );
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      // A connection that is gone took the lock with it, and a holder row left behind is replaced by
      // the next run: a failed release must not turn a finished deploy into a failed one.
      try {
        await this.#query(
          'DELETE FROM monitor.lock_holders WHERE project = $1 AND account_id = $2 AND pid = $3',
          [this.#project, this.#accountId, process.pid],
        );
        await this.#query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      } catch {}
    };
  }

  async #holder(): Promise<LockHolder | undefined> {
    const [row] = await this.#query<{ command: string; host: string; pid: number; since: Date }>(
      'SELECT command, host, pid, since FROM monitor.lock_holders WHERE project = $1 AND account_id = $2',
      [this.#project, this.#accountId],
    );
    return row === undefined
      ? undefined
      : { command: row.command, host: row.host, pid: row.pid, startedAt: row.since.toISOString() };
  }

  /**
   * Clear the holder row of a run that died (its lock went with its connection). A live run still
   * holds the advisory lock: then a `LockHeldError`, and nothing changes.
   */
  async forceUnlock(): Promise<ClearedLock> {
    const holder = await this.#holder();
    const release = await this.lock({ command: 'monitor state unlock', timeoutMs: 0 });
    await release();
    return { holder, removed: holder === undefined ? undefined : 'the holder row of the advisory lock' };
  }

  async record(state: State, changes: StateChanges, pending: PendingChanges = {}): Promise<void> {
    await this.#transaction(async (q) => {
      await this.#ensureHead(q, state);
      for (const [key, entry] of Object.entries(changes)) {
        if (entry === null) {
          await q('DELETE FROM monitor.entries WHERE project = $1 AND account_id = $2 AND key = $3', [
            this.#project,
            this.#accountId,
            key,
          ]);
        } else {
          await q(
            `INSERT INTO monitor.entries
               (project, account_id, key, kind, logical_id, physical_id, applied_hash, secret_hashes, protect, identity,
                field_hashes, uses)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (project, account_id, key) DO UPDATE SET
               kind = EXCLUDED.kind, logical_id = EXCLUDED.logical_id, physical_id = EXCLUDED.physical_id,
               applied_hash = EXCLUDED.applied_hash, secret_hashes = EXCLUDED.secret_hashes,
               protect = EXCLUDED.protect, identity = EXCLUDED.identity, field_hashes = EXCLUDED.field_hashes,
               uses = EXCLUDED.uses`,
            [
              this.#project,
              this.#accountId,
              key,
              entry.kind,
              entry.logicalId,
              JSON.stringify(entry.physicalId),
              entry.appliedHash,
              JSON.stringify(entry.secretHashes),
              entry.protect,
              entry.identity ?? null,
              entry.fieldHashes ?? null,
              usesOf(entry),
            ],
          );
        }
      }
      for (const [key, sent] of Object.entries(pending)) {
        await q(
          sent
            ? 'INSERT INTO monitor.pending_creates (project, account_id, key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING'
            : 'DELETE FROM monitor.pending_creates WHERE project = $1 AND account_id = $2 AND key = $3',
          [this.#project, this.#accountId, key],
        );
      }
      await q(
        `UPDATE monitor.states SET serial = serial + 1, updated_at = now(), service = COALESCE($3, service)
         WHERE project = $1 AND account_id = $2`,
        [this.#project, this.#accountId, state.service ?? null],
      );
    });
    applyChanges(state, changes, pending);
  }

  /** The state's own row, made with its salt before the first entry refers to it. */
  async #ensureHead(q: (text: string, values?: unknown[]) => Promise<unknown>, state: State): Promise<void> {
    await q(
      `INSERT INTO monitor.states (project, account_id, format_version, serial, salt, service)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project, account_id) DO NOTHING`,
      [this.#project, this.#accountId, STATE_FORMAT_VERSION, state.serial, state.salt, state.service ?? null],
    );
  }

  async commit(state: State): Promise<State> {
    const next: State = { ...state, serial: state.serial + 1 };
    const rows = Object.entries(next.resources).map(([key, e]) => ({
      key,
      kind: e.kind,
      logical_id: e.logicalId,
      physical_id: e.physicalId,
      applied_hash: e.appliedHash,
      secret_hashes: e.secretHashes,
      protect: e.protect,
      identity: e.identity ?? null,
      field_hashes: e.fieldHashes ?? null,
      uses: e.uses === undefined || e.uses.length === 0 ? null : [...e.uses].sort(),
    }));
    await this.#transaction(async (q) => {
      const key = [this.#project, this.#accountId];
      await q(
        `INSERT INTO monitor.states (project, account_id, format_version, serial, salt, service, last_deploy)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (project, account_id) DO UPDATE
           SET format_version = EXCLUDED.format_version, serial = EXCLUDED.serial, salt = EXCLUDED.salt,
               service = EXCLUDED.service, last_deploy = EXCLUDED.last_deploy, updated_at = now()`,
        [
          ...key,
          next.formatVersion,
          next.serial,
          next.salt,
          next.service ?? null,
          next.lastDeploy === undefined ? null : JSON.stringify(next.lastDeploy),
        ],
      );
      await q('DELETE FROM monitor.entries WHERE project = $1 AND account_id = $2', key);
      // Every entry in one statement: a 5,000-resource state is one round trip.
      await q(
        `INSERT INTO monitor.entries
           (project, account_id, key, kind, logical_id, physical_id, applied_hash, secret_hashes, protect, identity,
            field_hashes, uses)
         SELECT $1, $2, r.key, r.kind, r.logical_id, r.physical_id, r.applied_hash, r.secret_hashes, r.protect, r.identity,
                r.field_hashes, r.uses
           FROM jsonb_to_recordset($3::jsonb) AS r(key text, kind text, logical_id text, physical_id jsonb,
                applied_hash text, secret_hashes jsonb, protect boolean, identity text, field_hashes text, uses jsonb)`,
        [...key, JSON.stringify(rows)],
      );
      await q('DELETE FROM monitor.pending_creates WHERE project = $1 AND account_id = $2', key);
      await q(
        `INSERT INTO monitor.pending_creates (project, account_id, key)
         SELECT $1, $2, k FROM jsonb_array_elements_text($3::jsonb) AS k`,
        [...key, JSON.stringify(next.pendingCreates)],
      );
    });
    return next;
  }

  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    if (pending === undefined) return;
    const client = await pending.catch(() => undefined);
    await client?.end().catch(() => {});
  }
}

/** An entry's uses as the column holds them: sorted JSON, or null when there are none. */
function usesOf(entry: StateEntry): string | null {
  return entry.uses === undefined || entry.uses.length === 0 ? null : JSON.stringify([...entry.uses].sort());
}

/** Bring monitor's schema up to date on `client`, once per database however many runs try at once. */
export async function migrate(client: PgClient): Promise<void> {
  // The common case in one cheap query: the schema is there and current.
  const current = await client
    .query<{ version: number | null }>('SELECT max(version) AS version FROM monitor.schema_migrations')
    .then((r) => r.rows[0]?.version ?? 0)
    .catch(() => 0);
  if (current === MIGRATIONS.length) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS monitor');
    await client.query(
      `CREATE TABLE IF NOT EXISTS monitor.schema_migrations (
         version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM monitor.schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new InvalidStateError(
        `the state database has schema version ${current}, newer than this monitor knows (${MIGRATIONS.length})`,
        'upgrade monitor: a newer version migrated this database',
      );
    }
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1] as string);
      await client.query('INSERT INTO monitor.schema_migrations (version) VALUES ($1)', [version]);
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}
