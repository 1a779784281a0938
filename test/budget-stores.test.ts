// The account's shared rate budget in its two stores, with runs in processes of their own: a file
// of the user's cache (runs on one machine), and a row of the state database (a real PostgreSQL
// server that this file starts): no window ever holds more than the limit between the runs, the
// runs use it in full, and a run SIGKILLed holding tokens gives them back within one span.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type AccountBudget, budgetSpanMs } from '@monitor/api';
import { FileAccountBudget, PostgresAccountBudget } from '@monitor/engine/budget';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopWhenTestEnds } from './support/children.js';
import { type PostgresServer, startPostgres } from './support/postgres-server.mjs';

const TAKER = fileURLToPath(new URL('./support/budget-taker.mjs', import.meta.url));
const ACCOUNT = '0f000000-0000-4000-8000-0000000000b1';
const limit = { limit: 40, windowMs: 1_000 };
const span = budgetSpanMs(limit);

let pg: PostgresServer;
const dirs: string[] = [];
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Store = 'file' | 'postgres';
let budgets = 0;
/** Where a test's budget is: a directory of its own, or the database under an account of its own. */
function place(store: Store) {
  const accountId = `${ACCOUNT}-${++budgets}`;
  if (store === 'postgres') return { store, url: pg.url, accountId };
  const dir = mkdtempSync(join(tmpdir(), 'monitor-budget-e2e-'));
  dirs.push(dir);
  return { store, dir, accountId };
}

function budgetAt(where: ReturnType<typeof place>): AccountBudget {
  const common = { service: 'http://127.0.0.1:1', accountId: where.accountId, limit };
  return where.store === 'postgres'
    ? new PostgresAccountBudget({ url: where.url as string, ...common })
    : new FileAccountBudget({ dir: where.dir as string, ...common });
}

interface Grant {
  at: number;
  granted: number;
  otherRuns: number;
}

/** A taker process; `lines` collects its grants, `said(text)` resolves once it printed the line. */
function taker(where: ReturnType<typeof place>, options: { want: number; batch?: number; hold?: boolean }) {
  const child: ChildProcess = stopWhenTestEnds(
    spawn(process.execPath, [TAKER, JSON.stringify({ ...where, limit, batch: 10, ...options })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const grants: Grant[] = [];
  const seen = new Set<string>();
  const waiting = new Map<string, () => void>();
  let stderr = '';
  let buffer = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('{')) grants.push(JSON.parse(line) as Grant);
      else {
        seen.add(line);
        waiting.get(line)?.();
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    grants,
    stderr: () => stderr,
    exited,
    said: (line: string) =>
      seen.has(line) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(line, resolve)),
  };
}

/** The most tokens granted within any window of `windowMs`. */
function mostInAnyWindow(grants: Grant[], windowMs: number): number {
  const sorted = [...grants].sort((a, b) => a.at - b.at);
  let most = 0;
  let sum = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    sum += (sorted[i] as Grant).granted;
    while ((sorted[i] as Grant).at - (sorted[j] as Grant).at >= windowMs)
      sum -= (sorted[j++] as Grant).granted;
    most = Math.max(most, sum);
  }
  return most;
}

describe.each<Store>(['file', 'postgres'])('the %s budget', (store) => {
  it('lets 4 runs in processes of their own take no more than the limit in any window, and use it in full', async () => {
    const where = place(store);
    const runs = Array.from({ length: 4 }, () => taker(where, { want: 40 }));
    const codes = await Promise.all(runs.map((r) => r.exited));
    expect(codes, runs.map((r) => r.stderr()).join('\n')).toEqual([0, 0, 0, 0]);
    const grants = runs.flatMap((r) => r.grants);
    expect(grants.reduce((sum, g) => sum + g.granted, 0)).toBe(160);
    expect(mostInAnyWindow(grants, limit.windowMs)).toBeLessThanOrEqual(limit.limit);
    // In full: four limits' worth take three spans after the first, not (much) more.
    const times = grants.map((g) => g.at);
    const took = Math.max(...times) - Math.min(...times);
    expect(took).toBeGreaterThanOrEqual(3 * limit.windowMs);
    expect(took).toBeLessThan(5 * span);
    // The runs saw each other while they drew on it (one that has all it wants leaves, so not always 3).
    expect(Math.max(...grants.map((g) => g.otherRuns))).toBeGreaterThanOrEqual(2);
  });

  it('gets the tokens of a run SIGKILLed holding them back within one span of their lease, not before', async () => {
    const where = place(store);
    const dead = taker(where, { want: 40, batch: 40, hold: true });
    await dead.said('holding');
    const [lease] = dead.grants;
    expect(lease?.granted).toBe(40);
    dead.child.kill('SIGKILL');
    await dead.exited;
    const next = budgetAt(where);
    let back: number | undefined;
    for (let tries = 0; back === undefined && tries < 1_000; tries++) {
      const grant = await next.take(10);
      if (grant.granted > 0) back = Date.now();
      else await sleep(Math.min(50, Math.max(5, grant.retryInMs)));
    }
    await next.close();
    expect(back).toBeDefined();
    const after = (back as number) - (lease as Grant).at;
    expect(after).toBeGreaterThanOrEqual(limit.windowMs);
    expect(after).toBeLessThan(span + 500);
  });

  it('keeps one budget per account: a second account is whole while the first is spent', async () => {
    const first = place(store);
    const a = budgetAt(first);
    const b = budgetAt({ ...first, accountId: `${first.accountId}-other` });
    expect((await a.take(40)).granted).toBe(40);
    expect((await a.take(1)).granted).toBe(0);
    expect((await b.take(40)).granted).toBe(40);
    await a.close();
    await b.close();
  });
});

describe('the postgres budget', () => {
  it('makes its table in a fresh database, one row per account, and no longer counts a run that closed', async () => {
    pg.sql('CREATE DATABASE budgets_fresh OWNER monitor');
    const url = pg.urlFor({ database: 'budgets_fresh' });
    const runs = Array.from({ length: 3 }, () => budgetAt({ store: 'postgres', url, accountId: ACCOUNT }));
    for (const run of runs) await run.take(1);
    expect((await runs[0]?.take(1))?.otherRuns).toBe(2);
    await runs[2]?.close();
    expect((await runs[0]?.take(1))?.otherRuns).toBe(1);
    expect(pg.sql('SELECT count(*) FROM monitor.account_budgets', 'budgets_fresh').trim()).toBe('1');
    await runs[0]?.close();
    await runs[1]?.close();
  });

  it('opens a new connection when its own dies (the database restarted, an admin ended it)', async () => {
    const where = place('postgres');
    const run = budgetAt(where);
    expect((await run.take(1)).granted).toBe(1);
    // Every connection of the budget's user but psql's own, as a restart or pg_terminate_backend does.
    pg.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'monitor' AND pid <> pg_backend_pid()",
    );
    // The end is seen when it comes: a take before it fails at most once, the next connects again.
    const after: string[] = [];
    for (let i = 0; i < 3; i++) {
      after.push(
        await run.take(1).then(
          (g) => `granted ${g.granted}`,
          (e: Error) => `failed: ${e.message.split('\n')[0]}`,
        ),
      );
    }
    expect(after.slice(1)).toEqual(['granted 1', 'granted 1']);
    await run.close();
  });

  it('fails a take with the cause and the way out when the database cannot be reached', async () => {
    const run = budgetAt({ store: 'postgres', url: pg.urlFor({ password: 'wrong' }), accountId: ACCOUNT });
    await expect(run.take(1)).rejects.toThrow(/the password was refused/);
    await run.close();
  });
});
