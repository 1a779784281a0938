// One rate budget per account (issue 48 §3): deploy runners started together into one or two
// emulator accounts whose rate limit is on (the service's 600 requests per 60 s), the CLI as a
// subprocess as CI runs it. Prints the total wall time against the budget's floor (each account's
// requests ÷ 600 per minute, the accounts side by side), the 429s the emulator answered, and the
// duplicates (two resources of one kind and name in an account).
//
//   node bench/budget.mjs                         3 runners × 250 groups into one account, the budget in
//                                                 a cache directory of the bench's own (file state)
//   MONITOR_BENCH_BUDGET=issue node bench/budget.mjs
//                                                 the issue's size: 40 projects × 250 constructs
//                                                 (10,000 constructs, 15,000 resources) into 2 accounts,
//                                                 4 runner processes one project after another, state
//                                                 and budget in one PostgreSQL (started here); ~15 min
//   MONITOR_BENCH_BUDGET=runners:accounts:projects:constructs[:pg]   any other size
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RATE_LIMITS, DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { startPostgres } from '../../../test/support/postgres-server.mjs';
import { budgetProject } from './budget-projects.mjs';
import { monitor } from './run-cli.mjs';

const SIZES = {
  default: { runners: 3, accounts: 1, projects: 3, constructs: 250, kind: 'groups', postgres: false },
  issue: { runners: 4, accounts: 2, projects: 40, constructs: 250, kind: 'mixed', postgres: true },
};

function sizeOf(spec = 'default') {
  if (SIZES[spec] !== undefined) return SIZES[spec];
  const [runners, accounts, projects, constructs, pg] = spec.split(':');
  const size = {
    runners: Number(runners),
    accounts: Number(accounts),
    projects: Number(projects),
    constructs: Number(constructs),
    kind: 'mixed',
    postgres: pg === 'pg',
  };
  if (
    !Object.values(size).every((v) => typeof v !== 'number' || (Number.isInteger(v) && v > 0)) ||
    size.accounts > 2
  ) {
    throw new Error(
      `MONITOR_BENCH_BUDGET=${spec}: write default, issue, or runners:accounts:projects:constructs[:pg] (1 or 2 accounts)`,
    );
  }
  return size;
}

const LIMIT = DEFAULT_RATE_LIMITS.default;
const ACCOUNTS = [
  { id: DEV_ACCOUNT_ID, name: 'dev', keys: [DEV_API_KEY] },
  { id: '0b000000-0000-4000-8000-0000000000b2', name: 'second', keys: ['bench-second-key'] },
];

/** Deploy `queue`'s projects one after another, as one CI runner would; the results in order. */
async function runner(queue, results) {
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const started = performance.now();
    const run = await monitor(['deploy', '--yes'], next.dir, next.env);
    results.push({ project: next.name, ms: performance.now() - started, ...run });
  }
}

/** Resources of one kind and name more than once in an account: what a doubled create leaves. */
function duplicates(emulator, accountId) {
  const tables = emulator.app.state.store.data.accounts[accountId]?.tables ?? {};
  let extra = 0;
  for (const rows of Object.values(tables)) {
    const seen = new Map();
    for (const row of Object.values(rows)) {
      const name = row.name ?? row.header ?? row.address ?? row.config?.address ?? JSON.stringify(row);
      seen.set(name, (seen.get(name) ?? 0) + 1);
    }
    for (const n of seen.values()) extra += n - 1;
  }
  return extra;
}

function resources(emulator, accountId) {
  const tables = emulator.app.state.store.data.accounts[accountId]?.tables ?? {};
  return Object.values(tables).reduce((sum, rows) => sum + Object.keys(rows).length, 0);
}

const size = sizeOf(process.env.MONITOR_BENCH_BUDGET);
const pg = size.postgres ? await startPostgres() : undefined;
const cache = mkdtempSync(join(tmpdir(), 'monitor-bench-cache-'));
const emulator = await startEmulator({
  port: 0,
  fixture: {},
  agentHealthPort: false,
  accounts: ACCOUNTS.slice(0, size.accounts),
  rateLimits: DEFAULT_RATE_LIMITS,
  requestLogSize: 10_000_000,
});
const projects = [];
try {
  for (let p = 0; p < size.projects; p++) {
    const account = ACCOUNTS[p % size.accounts];
    const name = `team-${String(p).padStart(2, '0')}`;
    const project = budgetProject(name, size.constructs, size.kind);
    projects.push({
      name,
      dir: project.dir,
      cleanup: project.cleanup,
      env: {
        MONITOR_BASE_URL: emulator.url,
        MONITOR_API_KEY: account.keys[0],
        MONITOR_ACCOUNT_ID: account.id,
        MONITOR_STATE_SECRET: 'bench-state-secret',
        XDG_CACHE_HOME: cache,
        ...(pg === undefined ? {} : { MONITOR_STATE_URL: pg.url }),
      },
    });
  }
  console.log(
    `shared budget: ${size.runners} runners, ${size.projects} projects × ${size.constructs} ${size.kind === 'groups' ? 'groups' : 'constructs'} into ${size.accounts} account${size.accounts === 1 ? '' : 's'}, emulator rate limit ${LIMIT.limit} / ${LIMIT.windowMs / 1000} s, budget in ${pg === undefined ? 'the cache (file state)' : 'PostgreSQL (state there too)'}`,
  );
  const queue = [...projects];
  const results = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: size.runners }, () => runner(queue, results)));
  const wallS = (performance.now() - started) / 1000;
  report({ results, wallS });
} finally {
  await emulator.close();
  await pg?.close();
  rmSync(cache, { recursive: true, force: true });
  for (const p of projects) p.cleanup();
}

function report({ results, wallS }) {
  const failed = results.filter((r) => r.code !== 0);
  for (const f of failed) console.error(`${f.project} failed (${f.code}): ${f.stderr.slice(-1500)}`);
  const requests = emulator.requests;
  const perAccount = ACCOUNTS.slice(0, size.accounts).map((a) => ({
    id: a.id,
    requests: requests.filter((r) => r.accountId === a.id).length,
    resources: resources(emulator, a.id),
    duplicates: duplicates(emulator, a.id),
  }));
  // The accounts' budgets run side by side: the floor is the longest one's.
  const floorS = Math.max(...perAccount.map((a) => floorOf(a.requests)));
  const rejected = requests.filter((r) => r.status === 429).length;
  const toldWaiting = results.filter((r) => /Waiting for the account's budget/.test(r.stderr)).length;
  const slowest = Math.max(...results.map((r) => r.ms)) / 1000;
  for (const a of perAccount) {
    console.log(
      `  account ${a.id.slice(0, 8)}: ${a.requests} requests, ${a.resources} resources, floor ${floorOf(a.requests).toFixed(1)} s`,
    );
  }
  console.log(
    `  wall ${wallS.toFixed(1)} s vs floor ${floorS.toFixed(1)} s = ${(wallS / floorS).toFixed(2)}× (the longest deploy ${slowest.toFixed(1)} s); 429s: ${rejected}; duplicates: ${perAccount.reduce((s, a) => s + a.duplicates, 0)}; failed deploys: ${failed.length}; deploys that said they waited for the account's budget: ${toldWaiting}/${results.length}`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

/** Seconds `requests` take at the account's limit: the budget's floor. */
function floorOf(requests) {
  return requests / (LIMIT.limit / (LIMIT.windowMs / 1000));
}
