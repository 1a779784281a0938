// Deploys started together into one account share its rate budget (issue 48 §3): the built CLI,
// several runs at once against an emulator whose rate limit is on, with the budget in this user's
// cache (file state) or in the state database (a real PostgreSQL server that this file starts).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEFAULT_RATE_LIMITS,
  DEV_ACCOUNT_ID,
  DEV_API_KEY,
  type FaultConfig,
  type RequestLogEntry,
} from '@monitor/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cleanup, emulatorForTests, monitor, writeProject } from './support/harness.js';
import { type PostgresServer, startPostgres } from './support/postgres-server.mjs';

/** The service's limit made ten times smaller, as a config says it: 100 requests per 10 s. */
const LIMIT = { limit: 100, windowMs: 10_000 };
const OTHER_ACCOUNT = '0b000000-0000-4000-8000-0000000000b2';
const OTHER_KEY = 'other-account-key';

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.close();
});

const opened: { dirs: string[]; closes: (() => Promise<void>)[] } = { dirs: [], closes: [] };
afterEach(async () => {
  for (const close of opened.closes.splice(0)) await close();
  for (const dir of opened.dirs.splice(0)) cleanup(dir);
});

/** An emulator with two accounts and the rate limit on, and a cache directory of this test's own. */
async function account(faults?: FaultConfig) {
  const h = await emulatorForTests({
    ...(faults === undefined ? {} : { faults }),
    rateLimits: { default: LIMIT, routes: DEFAULT_RATE_LIMITS.routes },
    accounts: [
      { id: DEV_ACCOUNT_ID, name: 'dev', keys: [DEV_API_KEY] },
      { id: OTHER_ACCOUNT, name: 'other', keys: [OTHER_KEY] },
    ],
  });
  opened.closes.push(h.close);
  const cache = mkdtempSync(join(tmpdir(), 'monitor-cache-'));
  opened.dirs.push(cache);
  const env = { ...h.env, XDG_CACHE_HOME: cache };
  return { h, env, other: { ...env, MONITOR_API_KEY: OTHER_KEY, MONITOR_ACCOUNT_ID: OTHER_ACCOUNT } };
}

/** A project of `groups` check groups named after it, whose config gives the account's limit. */
function project(
  name: string,
  groups: number,
  config = 'rateLimit: { requests: 100, perSeconds: 10 }',
): string {
  const body = Array.from(
    { length: groups },
    (_, i) => `new CheckGroup('g${i}', { name: '${name} group ${i}', tags: ['${name}'] });`,
  ).join('\n');
  const dir = writeProject(
    {
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${name}', ${config} });\n`,
      'groups.monitor.ts': `import { CheckGroup } from '@monitor/constructs';\n${body}\n`,
    },
    name,
  );
  opened.dirs.push(dir);
  return dir;
}

const deploy = (dir: string, env: Record<string, string>) => monitor(['deploy', '--yes'], { cwd: dir, env });

/** The most requests of `account` that arrived within any window of the limit. */
function busiestWindow(requests: RequestLogEntry[], account: string): number {
  const times = requests
    .filter((r) => r.accountId === account)
    .map((r) => r.at)
    .sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[i] as number) - (times[j] as number) >= LIMIT.windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

function expectDeployed(results: CliResult[]) {
  for (const r of results) expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
}

/** Names of the account's check groups, each once: a duplicate would show twice. */
async function groupNames(h: Awaited<ReturnType<typeof account>>['h'], accountId = DEV_ACCOUNT_ID) {
  const store = h.emulator.app.state.store.data.accounts[accountId]?.tables;
  return Object.values(store?.checkGroups ?? {}).map((g) => (g as { name: string }).name);
}

describe('deploys started together into one account', () => {
  it('share its budget through the cache: no 429, never more than the limit in a window, and they say they wait', async () => {
    const { h, env } = await account();
    const dirs = ['team-a', 'team-b', 'team-c'].map((name) => project(name, 50));
    const results = await Promise.all(dirs.map((dir) => deploy(dir, env)));
    expectDeployed(results);
    const requests = h.emulator.requests;
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    // More than the limit in all, so they had to share it: ~60 requests each.
    expect(requests.filter((r) => r.accountId === DEV_ACCOUNT_ID).length).toBeGreaterThan(LIMIT.limit);
    expect(busiestWindow(requests, DEV_ACCOUNT_ID)).toBeLessThanOrEqual(LIMIT.limit);
    const names = await groupNames(h);
    expect(names).toHaveLength(150);
    expect(new Set(names).size).toBe(150);
    const said = results.map((r) => r.stderr).join('\n');
    expect(said).toMatch(/^Waiting for the account's budget: [12] other runs? (is|are) deploying into it$/m);
  });

  it('share its budget through the state database when the state is in PostgreSQL', async () => {
    const { h, env } = await account();
    pg.sql('CREATE DATABASE budget_deploys OWNER monitor');
    const state = { ...env, MONITOR_STATE_URL: pg.urlFor({ database: 'budget_deploys' }) };
    const dirs = ['pg-a', 'pg-b', 'pg-c'].map((name) => project(name, 50));
    const results = await Promise.all(dirs.map((dir) => deploy(dir, state)));
    expectDeployed(results);
    expect(h.emulator.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(busiestWindow(h.emulator.requests, DEV_ACCOUNT_ID)).toBeLessThanOrEqual(LIMIT.limit);
    expect(new Set(await groupNames(h)).size).toBe(150);
    // The budget is the account's row, not the projects': one row for three projects.
    expect(pg.sql('SELECT count(*) FROM monitor.account_budgets', 'budget_deploys').trim()).toBe('1');
  });

  it('of two accounts use both budgets in full: the budget is the account’s, not the project’s nor the machine’s', async () => {
    const { h, env, other } = await account();
    const runs = [
      deploy(project('first-a', 50), env),
      deploy(project('first-b', 50), env),
      deploy(project('second-a', 50), other),
      deploy(project('second-b', 50), other),
    ];
    expectDeployed(await Promise.all(runs));
    const requests = h.emulator.requests;
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    for (const id of [DEV_ACCOUNT_ID, OTHER_ACCOUNT]) {
      // Each account's 120-odd requests fill its own limit's first window (a budget shared by both
      // accounts would hold each to about half), and never more.
      const busiest = busiestWindow(requests, id);
      expect(busiest).toBeLessThanOrEqual(LIMIT.limit);
      expect(busiest).toBeGreaterThanOrEqual(LIMIT.limit * 0.9);
    }
    expect(new Set(await groupNames(h, OTHER_ACCOUNT)).size).toBe(100);
  });
});

describe('a deploy SIGKILLed while others deploy into the account', () => {
  it('leaves no tokens behind that stop the others: with faults on, they finish with no 429, and its re-run converges', async () => {
    // The service fails now and then: 5xx answers, and creates whose answer is lost after they were stored.
    const { h, env } = await account({
      seed: 48,
      serverErrorRate: 0.05,
      dropAfterProcessing: [{ method: 'POST', every: 7 }],
    });
    const dirs = ['chaos-a', 'chaos-b', 'chaos-c', 'chaos-d'].map((name) => project(name, 40));
    let victim: ChildProcess | undefined;
    const runs = dirs.map((dir, i) =>
      monitor(['deploy', '--yes'], {
        cwd: dir,
        env,
        onSpawn: (child) => {
          if (i === 0) victim = child;
        },
      }),
    );
    // Mid-deploy: the account has answered creates, and the runs still have more to make than it allows.
    while (h.emulator.requests.filter((r) => r.method === 'POST').length < 20) await sleep(5);
    victim?.kill('SIGKILL');
    const [killed, ...others] = await Promise.all(runs);
    expect(killed?.code).toBeNull();
    expectDeployed(others);
    expect(h.emulator.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(busiestWindow(h.emulator.requests, DEV_ACCOUNT_ID)).toBeLessThanOrEqual(LIMIT.limit);
    const again = await deploy(dirs[0] as string, env);
    expectDeployed([again]);
    const names = await groupNames(h);
    expect(names).toHaveLength(160);
    expect(new Set(names).size).toBe(160);
  });
});

describe('the shared budget, when it cannot be kept', () => {
  it('is warned of, and the deploy counts its own requests and goes on', async () => {
    const { h, env } = await account();
    const notADirectory = join(env.XDG_CACHE_HOME, 'file');
    writeFileSync(notADirectory, '');
    const result = await deploy(project('lonely', 5), { ...env, XDG_CACHE_HOME: notADirectory });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /warning: the account's shared rate budget \(.*\/file\/monitor\/budgets\/.*\.json\) failed: .*ENOTDIR.*; this run counts its own requests until it works again/,
    );
    expect(new Set(await groupNames(h)).size).toBe(5);
  });

  it('refuses a config whose rateLimit is not a number of requests per a number of seconds, naming the field', async () => {
    const { env } = await account();
    const dir = project('bad-limit', 1, 'rateLimit: { requests: 0, perSeconds: 60 }');
    const result = await monitor(['validate'], { cwd: dir, env });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).toMatch(/error {2}config rateLimit\.requests: must be at least 1/);
    const other = project('bad-window', 1, "rateLimit: { requests: 600, per: '60s' }");
    const second = await monitor(['validate'], { cwd: other, env });
    expect(second.code).toBe(3);
    expect(second.stdout + second.stderr).toMatch(/error {2}config rateLimit/);
  });
});
