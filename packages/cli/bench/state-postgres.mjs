// The cost of keeping state in PostgreSQL instead of files, end to end (the CLI as a subprocess):
// for a synthetic project of 1,000 resources, deploy (every create recorded in its own
// transaction) as a share of the rate limit with the 429s the emulator answered, and a no-change
// diff; each with the file backend and with a real PostgreSQL server started here.
import { DEFAULT_RATE_LIMITS, DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { startPostgres } from '../../../test/support/postgres-server.mjs';
import { generateProject } from './generate-project.mjs';
import { monitor } from './run-cli.mjs';

const LIMIT = { limit: 1000, windowMs: 10_000 };
const CONSTRUCTS = 667; // 1.5 resources each: 1,000 resources

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Deploy a fresh project with `stateEnv`; returns how to run a no-change diff of it, and the deploy figures. */
async function deployed(backend, stateEnv) {
  const project = generateProject(CONSTRUCTS);
  const emulator = await startEmulator({
    port: 0,
    fixture: {},
    agentHealthPort: false,
    rateLimits: { default: LIMIT, routes: DEFAULT_RATE_LIMITS.routes },
  });
  const env = {
    MONITOR_BASE_URL: emulator.url,
    MONITOR_API_KEY: DEV_API_KEY,
    MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
    MONITOR_STATE_SECRET: 'bench-state-secret',
    ...stateEnv,
  };
  const deploy = await monitor(
    ['deploy', '--yes', '--json', '--rate-limit', `${LIMIT.limit}/${LIMIT.windowMs / 1000}`],
    project.dir,
    env,
  );
  if (deploy.code !== 0)
    throw new Error(`${backend} deploy failed: ${deploy.stdout.slice(-1000)}${deploy.stderr}`);
  const { result } = JSON.parse(deploy.stdout);
  const rate = result.requests / (result.elapsedMs / 1000);
  return {
    name: backend,
    resources: result.results.length,
    deployS: result.elapsedMs / 1000,
    share: (rate / ((LIMIT.limit / LIMIT.windowMs) * 1000)) * 100,
    rejected: emulator.requests.filter((r) => r.status === 429).length,
    diffs: [],
    async diff() {
      const started = performance.now();
      const diff = await monitor(['diff', '--detailed-exitcode'], project.dir, env);
      if (diff.code !== 0)
        throw new Error(`${backend} diff after deploy is not empty: ${diff.stdout.slice(-1000)}`);
      this.diffs.push(performance.now() - started);
    },
    async close() {
      await emulator.close();
      project.cleanup();
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const pg = await startPostgres();
try {
  console.log(
    `state backends, 1,000 resources, rate limit ${LIMIT.limit} requests / ${LIMIT.windowMs / 1000} s`,
  );
  const file = await deployed('file', {});
  const postgres = await deployed('postgres', { MONITOR_STATE_URL: pg.url });
  try {
    await sleep(LIMIT.windowMs + 500);
    // Interleaved, so that the machine's noise falls on both alike.
    for (let run = 0; run < 7; run++) {
      await file.diff();
      await postgres.diff();
    }
    for (const m of [file, postgres]) {
      console.log(
        `${m.name.padEnd(8)} deploy: ${m.resources} creates in ${m.deployS.toFixed(1)} s, ${m.share.toFixed(1)}% of the limit, 429s: ${m.rejected}; no-change diff: ${(median(m.diffs) / 1000).toFixed(3)} s (median of 7)`,
      );
    }
    const overhead = median(postgres.diffs.map((d, i) => d - (file.diffs[i] ?? d)));
    console.log(
      `postgres overhead: diff ${Math.round(overhead)} ms (median of the paired differences; goal ≤ 100 ms)`,
    );
  } finally {
    await file.close();
    await postgres.close();
  }
} finally {
  await pg.close();
}
