export interface PostgresServer {
  /** `postgres://monitor:…@127.0.0.1:port/monitor` */
  url: string;
  port: number;
  /** A URL for another database or user on the same server. */
  urlFor(options: { user?: string; password?: string; database?: string }): string;
  /** Run SQL as the superuser (psql, over the socket). */
  sql(statement: string, database?: string): string;
  /** Stop the server (as a crash would: immediate), and start it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** What the server has logged since it started (its stderr): warnings and errors. */
  log(): string;
  close(): Promise<void>;
}

/**
 * A real PostgreSQL server in a temp directory on a free loopback port, with a `monitor` user and
 * database (password `monitor-test-pw`), as the `postgres` OS user when run as root. For tests and
 * benchmarks; start one per test file (about 1.5 s).
 */
export function startPostgres(): Promise<PostgresServer>;
