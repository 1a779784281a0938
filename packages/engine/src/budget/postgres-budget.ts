import { hostname } from 'node:os';
import {
  type AccountBudget,
  type BudgetGrant,
  budgetRunId,
  budgetSpanMs,
  type RateLimit,
} from '@monitor/api';
import type { Client as PgClient } from 'pg';
import { migrate, redactUrl, storageError } from '../state/postgres-store.js';

/**
 * One take, in one statement: the row of the account is locked by the UPDATE, and everything is
 * computed from the row as it is once locked (a run that waited for the lock sees the lease of the
 * run before it), on the database's clock, which every runner shares. As `takeFromLedger` of
 * @monitor/api: leases older than the span ($6) dropped, up to $4 of what the rest leaves of the
 * limit ($5) granted as a new lease of run $3, the run marked as seen, the other runs counted.
 * The answer is kept in the row (`last_take`), for RETURNING to give back.
 */
const TAKE = `
UPDATE monitor.account_budgets AS b
   SET (leases, runs, last_take) = (
     SELECT kept.leases || CASE WHEN g.granted > 0
                                THEN jsonb_build_array(jsonb_build_array(c.now, g.granted, $3::text))
                                ELSE '[]'::jsonb END,
            seen.runs,
            jsonb_build_object(
              'granted', g.granted,
              'retryInMs', CASE WHEN g.granted > 0 OR kept.oldest IS NULL THEN 0
                                ELSE kept.oldest + $6::bigint - c.now END,
              'otherRuns', seen.others)
       FROM (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now) AS c,
            LATERAL (SELECT coalesce(jsonb_agg(e.lease ORDER BY e.i), '[]'::jsonb) AS leases,
                            coalesce(sum((e.lease->>1)::int), 0) AS used,
                            min((e.lease->>0)::bigint) AS oldest
                       FROM jsonb_array_elements(b.leases) WITH ORDINALITY AS e(lease, i)
                      WHERE (e.lease->>0)::bigint > c.now - $6::bigint) AS kept,
            LATERAL (SELECT greatest(0, least($4::int, $5::int - kept.used))::int AS granted) AS g,
            LATERAL (SELECT coalesce(jsonb_object_agg(r.key, r.value), '{}'::jsonb)
                              || jsonb_build_object($3::text, c.now) AS runs,
                            (count(*) FILTER (WHERE r.key <> $3::text))::int AS others
                       FROM jsonb_each(b.runs) AS r
                      WHERE r.value::bigint > c.now - $6::bigint) AS seen)
 WHERE b.service = $1 AND b.account_id = $2
RETURNING b.last_take`;

const MAKE_ROW = `INSERT INTO monitor.account_budgets (service, account_id) VALUES ($1, $2)
  ON CONFLICT (service, account_id) DO NOTHING`;

export interface PostgresBudgetOptions {
  /** `postgres://…`: the state database. */
  url: string;
  /** The service (`serviceIdentity` of the base URL) and the account: what the budget is of. */
  service: string;
  accountId: string;
  limit: RateLimit;
}

/**
 * An account's budget in the state database, shared by every run on every machine that uses it:
 * one row per service and account (`monitor.account_budgets`), each take one UPDATE … RETURNING,
 * no lock held between statements. A run that dies holding tokens gives them back as its leases
 * age out, within one window and the margin. It has a connection of its own: the state's is busy
 * with a transaction per write of the deploy, and a take must not wait behind them.
 */
export class PostgresAccountBudget implements AccountBudget {
  readonly location: string;
  readonly limit: RateLimit;
  readonly #url: string;
  readonly #service: string;
  readonly #accountId: string;
  readonly #run = budgetRunId(hostname(), process.pid);
  #client: Promise<PgClient> | undefined;
  /** One statement at a time on the connection. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: PostgresBudgetOptions) {
    this.#url = options.url;
    this.#service = options.service;
    this.#accountId = options.accountId;
    this.limit = options.limit;
    this.location = `${redactUrl(options.url)} (account ${options.accountId})`;
  }

  /**
   * The connection, opened and migrated on the first take, with the account's row made; opened
   * again after it ends (the database restarted, an admin ended it) or a take on it failed.
   */
  #connection(): Promise<PgClient> {
    if (this.#client !== undefined) return this.#client;
    const opening: Promise<PgClient> = (async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({
        connectionString: this.#url,
        connectionTimeoutMillis: 10_000,
        // A database that stops answering must not hold the deploy: the take fails, the run counts alone.
        query_timeout: 10_000,
      });
      // A connection that ended is not used again: the next take opens another.
      const forget = () => {
        if (this.#client === opening) this.#client = undefined;
      };
      client.on('error', forget);
      client.on('end', forget);
      try {
        await client.connect();
        await migrate(client);
        await client.query(MAKE_ROW, [this.#service, this.#accountId]);
      } catch (e) {
        await client.end().catch(() => {});
        throw e;
      }
      return client;
    })().catch((e: unknown) => {
      if (this.#client === opening) this.#client = undefined;
      throw storageError(e, redactUrl(this.#url));
    });
    this.#client = opening;
    return opening;
  }

  /** After a take failed on it, the connection is ended: its state is unknown (a timed-out query may still run). */
  async #drop(client: PgClient): Promise<void> {
    const current = this.#client;
    if (current !== undefined && (await current.catch(() => undefined)) === client) this.#client = undefined;
    await client.end().catch(() => {});
  }

  #exclusive<T>(body: (client: PgClient) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => body(await this.#connection()));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async take(count: number): Promise<BudgetGrant> {
    return this.#exclusive(async (client) => {
      try {
        const values = [
          this.#service,
          this.#accountId,
          this.#run,
          count,
          this.limit.limit,
          budgetSpanMs(this.limit),
        ];
        let { rows } = await client.query<{ last_take: BudgetGrant }>(TAKE, values);
        if (rows[0] === undefined) {
          // The row was removed since the connection made it (the table emptied by hand): make it again.
          await client.query(MAKE_ROW, [this.#service, this.#accountId]);
          ({ rows } = await client.query<{ last_take: BudgetGrant }>(TAKE, values));
        }
        return rows[0]?.last_take ?? { granted: 0, retryInMs: 100, otherRuns: 0 };
      } catch (e) {
        await this.#drop(client);
        throw storageError(e, redactUrl(this.#url));
      }
    });
  }

  async close(): Promise<void> {
    const pending = this.#client;
    if (pending === undefined) return;
    try {
      await this.#exclusive((client) =>
        client.query(
          'UPDATE monitor.account_budgets SET runs = runs - $3::text WHERE service = $1 AND account_id = $2',
          [this.#service, this.#accountId, this.#run],
        ),
      );
    } catch {
      // A run that cannot leave is counted until its last take ages out: one window.
    }
    this.#client = undefined;
    const client = await pending.catch(() => undefined);
    await client?.end().catch(() => {});
  }
}
