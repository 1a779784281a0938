import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetSpanMs } from '@monitor/api';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetCacheDir } from './cache-dir.js';
import { FileAccountBudget, FORGOTTEN_AFTER_MS, readLedger } from './file-budget.js';
import { openAccountBudget } from './open-budget.js';
import { PostgresAccountBudget } from './postgres-budget.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-budget-'));
  dirs.push(dir);
  return dir;
}

const ACCOUNT = '0f000000-0000-4000-8000-000000000001';
const limit = { limit: 30, windowMs: 60_000 };
const budget = (dir: string, options: Partial<ConstructorParameters<typeof FileAccountBudget>[0]> = {}) =>
  new FileAccountBudget({ dir, service: 'https://api.example.com', accountId: ACCOUNT, limit, ...options });

describe('the file budget', () => {
  it('grants runs of one account no more than the limit between them, whatever they ask, taking turns on the lock', async () => {
    const dir = tempDir();
    const runs = Array.from({ length: 4 }, () => budget(dir));
    const granted = await Promise.all(
      runs.map(async (run) => {
        let sum = 0;
        for (let i = 0; i < 10; i++) sum += (await run.take(4)).granted;
        return sum;
      }),
    );
    expect(granted.reduce((a, b) => a + b, 0)).toBe(30);
    const ledger = readLedger(runs[0]?.location as string);
    expect(ledger.leases.reduce((sum, [, n]) => sum + n, 0)).toBe(30);
    expect(Object.keys(ledger.runs)).toHaveLength(4);
    expect(existsSync(`${runs[0]?.location}.lock`)).toBe(false);
    const last = await runs[0]?.take(1);
    expect(last).toMatchObject({ granted: 0, otherRuns: 3 });
    expect(last?.retryInMs).toBeGreaterThan(budgetSpanMs(limit) - 10_000);
    for (const run of runs) await run.close();
  });

  it('keeps one budget per service and account: another account, or another service, has its own', async () => {
    const dir = tempDir();
    await budget(dir).take(30);
    expect((await budget(dir).take(1)).granted).toBe(0);
    expect((await budget(dir, { accountId: '0f000000-0000-4000-8000-000000000002' }).take(30)).granted).toBe(
      30,
    );
    expect((await budget(dir, { service: 'https://eu.api.example.com' }).take(30)).granted).toBe(30);
  });

  it('gives a lease back one span after it was taken (a run that died holding tokens gives them back by then)', async () => {
    const dir = tempDir();
    let now = 1_000_000;
    const dead = budget(dir, { now: () => now });
    expect((await dead.take(30)).granted).toBe(30);
    const next = budget(dir, { now: () => now });
    now += budgetSpanMs(limit) - 1;
    expect((await next.take(5)).granted).toBe(0);
    now += 1;
    expect((await next.take(5)).granted).toBe(5);
  });

  it('no longer counts a run that closed among the other runs', async () => {
    const dir = tempDir();
    const [a, b] = [budget(dir), budget(dir)];
    await a.take(1);
    expect((await b.take(1)).otherRuns).toBe(1);
    await a.close();
    expect((await b.take(1)).otherRuns).toBe(0);
  });

  it('reads a file that is not a ledger as an empty one and writes a good one over it', async () => {
    const dir = tempDir();
    const run = budget(dir);
    for (const text of ['', '{"leases": 3}', 'not json', 'null', '{"leases":[[1,"x","y"]],"runs":[]}']) {
      writeFileSync(run.location, text);
      expect(readLedger(run.location)).toEqual({ leases: [], runs: {} });
      expect((await run.take(2)).granted).toBe(2);
      expect(readLedger(run.location).leases).toHaveLength(1);
    }
  });

  it('takes over the lock of a run that died holding it', async () => {
    const dir = tempDir();
    const run = budget(dir);
    await run.take(1);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const holder = {
      pid: Number(dead.stdout),
      host: hostname(),
      startedAt: '2026-01-01T00:00:00Z',
      command: 'x',
    };
    writeFileSync(`${run.location}.lock`, JSON.stringify(holder));
    expect((await run.take(3)).granted).toBe(3);
    expect(existsSync(`${run.location}.lock`)).toBe(false);
  });

  it('fails a take with the cause when the cache cannot be written (the client then counts alone)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const run = budget(join(dir, 'file', 'budgets'));
    await expect(run.take(1)).rejects.toThrow(/ENOTDIR/);
  });

  it('writes only the budget: the file holds the leases and runs of the last span, readable only by its user', async () => {
    const dir = tempDir();
    const run = budget(dir);
    await run.take(2);
    const written = JSON.parse(readFileSync(run.location, 'utf8'));
    expect(Object.keys(written)).toEqual(['leases', 'runs']);
    expect(statSync(run.location).mode & 0o777).toBe(0o600);
    expect(run.location).toMatch(new RegExp(`/${ACCOUNT}-[0-9a-f]{16}\\.json$`));
  });
});

describe('budget files no run has used for a week', () => {
  it('are removed when a run first takes from the directory; the others stay', async () => {
    const dir = tempDir();
    const run = budget(dir);
    await run.take(1);
    const old = join(dir, 'f0000000-0000-4000-8000-000000000009-0123456789abcdef.json');
    const recent = join(dir, 'f0000000-0000-4000-8000-00000000000a-0123456789abcdef.json');
    const leftTemp = `${old}.4242.tmp`;
    for (const path of [old, recent, leftTemp]) writeFileSync(path, '{"leases":[],"runs":{}}');
    const weekAgo = (Date.now() - FORGOTTEN_AFTER_MS - 60_000) / 1000;
    utimesSync(old, weekAgo, weekAgo);
    utimesSync(leftTemp, weekAgo, weekAgo);
    await budget(dir).take(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(leftTemp)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(run.location)).toBe(true);
  });
});

describe('where the budget is kept', () => {
  it('is in $XDG_CACHE_HOME/monitor/budgets, else ~/.cache/monitor/budgets (a relative XDG_CACHE_HOME is ignored)', () => {
    expect(budgetCacheDir({ XDG_CACHE_HOME: '/var/cache/ci' })).toBe('/var/cache/ci/monitor/budgets');
    expect(budgetCacheDir({})).toBe(join(homedir(), '.cache', 'monitor', 'budgets'));
    expect(budgetCacheDir({ XDG_CACHE_HOME: 'relative' })).toBe(
      join(homedir(), '.cache', 'monitor', 'budgets'),
    );
  });

  it('is the state database when the state is in PostgreSQL, else a file of the cache; with the limit given, else 600 per 60 s', () => {
    const common = { baseUrl: 'https://API.example.com/', accountId: ACCOUNT, env: { XDG_CACHE_HOME: '/c' } };
    const file = openAccountBudget({ ...common, stateUrl: './state' });
    expect(file).toBeInstanceOf(FileAccountBudget);
    expect(file.location).toMatch(/^\/c\/monitor\/budgets\//);
    expect(file.limit).toEqual({ limit: 600, windowMs: 60_000 });
    // The service's identity: the same budget whatever case or trailing slash the URL is written with.
    expect(openAccountBudget({ ...common, baseUrl: 'https://api.example.com' }).location).toBe(file.location);
    const pg = openAccountBudget({
      ...common,
      stateUrl: 'postgres://monitor:secret@db:5432/monitor',
      limit: { limit: 1200, windowMs: 60_000 },
    });
    expect(pg).toBeInstanceOf(PostgresAccountBudget);
    expect(pg.location).toBe(`postgres://monitor:***@db:5432/monitor (account ${ACCOUNT})`);
    expect(pg.limit).toEqual({ limit: 1200, windowMs: 60_000 });
  });
});

describe('the budget of the embedded emulator (--local)', () => {
  it('is shared by the runs of this process into one account, and kept apart per account', async () => {
    const common = { baseUrl: 'http://127.0.0.1:40001', accountId: ACCOUNT, limit, local: true, env: {} };
    const [a, b] = [openAccountBudget(common), openAccountBudget(common)];
    expect(a.location).toBe('this process');
    expect((await a.take(25)).granted).toBe(25);
    expect(await b.take(10)).toMatchObject({ granted: 5, otherRuns: 1 });
    await a.close();
    // A run that closed is no longer counted; what it took still is, until it ages out.
    expect(await b.take(1)).toMatchObject({ granted: 0, otherRuns: 0 });
    const other = openAccountBudget({ ...common, baseUrl: 'http://127.0.0.1:40002' });
    expect((await other.take(30)).granted).toBe(30);
  });
});
