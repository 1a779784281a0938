// `monitor deploy` and `monitor diff` end to end against the emulator (in this process; the CLI is
// a subprocess as users run it), for synthetic projects of 1,000 and 5,000 resources.
// - deploy of N creates with the emulator's rate limit on, scaled to 1,000 requests / 10 s
//   (100 requests/s, the service's 600/60 s rate made ten times faster), the client's limiter set
//   to match: achieved requests/s as a share of the limit, and the 429s the emulator answered;
// - diff of the deployed project (no changes): wall time, peak memory, API calls.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RATE_LIMITS, DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { generateProject } from './generate-project.mjs';
import { monitor as runCli } from './run-cli.mjs';

const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const LIMIT = { limit: 1000, windowMs: 10_000 };
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);

/** The CLI with the peak-RSS reporter preloaded. */
const monitor = (args, cwd, env) => runCli(args, cwd, env, ['--import', PRELOAD]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

console.log(
  `monitor deploy / diff against the emulator, rate limit ${LIMIT.limit} requests / ${LIMIT.windowMs / 1000} s (${(LIMIT.limit / LIMIT.windowMs) * 1000} requests/s) on both sides`,
);
// N constructs make 1.5 N resources (generate-project.mjs).
for (const n of sizes.length > 0 ? sizes : [1000, 5000]) {
  const project = generateProject(n);
  const emulator = await startEmulator({
    port: 0,
    fixture: {},
    agentHealthPort: false,
    rateLimits: { default: LIMIT, routes: DEFAULT_RATE_LIMITS.routes },
  });
  const rssFile = join(tmpdir(), `monitor-bench-rss-${process.pid}`);
  const env = {
    MONITOR_BASE_URL: emulator.url,
    MONITOR_API_KEY: DEV_API_KEY,
    MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
    MONITOR_BENCH_RSS_FILE: rssFile,
    MONITOR_STATE_SECRET: 'bench-state-secret',
  };
  try {
    const deploy = await monitor(
      ['deploy', '--yes', '--json', '--rate-limit', `${LIMIT.limit}/${LIMIT.windowMs / 1000}`],
      project.dir,
      env,
    );
    if (deploy.code !== 0) {
      console.error(deploy.stdout.slice(-2000), deploy.stderr.slice(-2000));
      throw new Error(`deploy failed for N=${n}`);
    }
    const { result } = JSON.parse(deploy.stdout);
    const deployRss = Number(readFileSync(rssFile, 'utf8'));
    const rate = result.requests / (result.elapsedMs / 1000);
    const limitRate = (LIMIT.limit / LIMIT.windowMs) * 1000;
    const rejected = emulator.requests.filter((r) => r.status === 429).length;
    console.log(
      `N=${String(n).padStart(5)} deploy: ${result.results.length} creates, ${result.requests} write calls in ${(result.elapsedMs / 1000).toFixed(1)} s = ${rate.toFixed(1)} requests/s, ${((rate / limitRate) * 100).toFixed(1)}% of the limit; 429s: ${rejected}; peak RSS ${(deployRss / 1024).toFixed(0)} MB`,
    );

    // Let the server's window close so the diff measures the diff, not a wait for the limit.
    await sleep(LIMIT.windowMs + 500);
    const before = emulator.requests.length;
    const times = [];
    let peak = 0;
    let calls = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const diff = await monitor(['diff', '--json', '--detailed-exitcode'], project.dir, env);
      times.push(performance.now() - started);
      if (diff.code !== 0) {
        console.error(diff.stdout.slice(-2000), diff.stderr.slice(-2000));
        throw new Error(`diff after deploy is not empty for N=${n}`);
      }
      calls = JSON.parse(diff.stdout).result.requests;
      peak = Math.max(peak, Number(readFileSync(rssFile, 'utf8')));
    }
    times.sort((a, b) => a - b);
    const lists = emulator.requests.slice(before).filter((r) => r.method === 'GET').length / 3;
    console.log(
      `N=${String(n).padStart(5)} diff (no changes): wall ${(times[1] / 1000).toFixed(3)} s (median of 3, node start included), peak RSS ${(peak / 1024).toFixed(0)} MB, ${calls} API calls (${lists} list pages; 6 kinds, limit=100)`,
    );

    // The same account as --local finds it: the emulator's data and the state under .monitor/local/.
    const local = join(project.dir, '.monitor', 'local');
    mkdirSync(join(local, 'state'), { recursive: true });
    writeFileSync(join(local, 'emulator.json'), JSON.stringify(emulator.app.state.store.data));
    copyFileSync(
      join(project.dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.json`),
      join(local, 'state', `${DEV_ACCOUNT_ID}.json`),
    );
    const localTimes = [];
    let localPeak = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const diff = await monitor(['diff', '--local', '--json', '--detailed-exitcode'], project.dir, {
        MONITOR_BENCH_RSS_FILE: rssFile,
        MONITOR_STATE_SECRET: env.MONITOR_STATE_SECRET,
      });
      localTimes.push(performance.now() - started);
      if (diff.code !== 0) {
        console.error(diff.stdout.slice(-2000), diff.stderr.slice(-2000));
        throw new Error(`diff --local after deploy is not empty for N=${n}`);
      }
      localPeak = Math.max(localPeak, Number(readFileSync(rssFile, 'utf8')));
    }
    localTimes.sort((a, b) => a - b);
    console.log(
      `N=${String(n).padStart(5)} diff --local (no changes, embedded emulator loads its data file): wall ${(localTimes[1] / 1000).toFixed(3)} s (median of 3), peak RSS ${(localPeak / 1024).toFixed(0)} MB`,
    );
  } finally {
    rmSync(rssFile, { force: true });
    await emulator.close();
    project.cleanup();
  }
}
