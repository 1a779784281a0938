// monitor at scale (issue 28 §7), end to end as users run it (the CLI as a subprocess, node start
// included), every figure the median of its runs:
// - validate of 20,000 and 50,000 generated constructs (generate-project.mjs: 1.5 resources each)
//   and of 1,000 rich ones (every kind and alert-channel type, most props set, references, env
//   vars, cards, a file prop, requiredEnv): run again on an unchanged project (what the project's
//   .monitor/cache serves), after an edit of one file, and on a fresh checkout (no cache);
// - a no-change diff of the 20,000 constructs once deployed, and the peak memory of that deploy
//   (emulator in this process without a rate limit, the client's limit lifted to match); not
//   affected by --sizes.
// Each run reports wall time, the CPU time of the monitor process (esbuild's own process is not
// in it) and its peak RSS.
//
//   node bench/scale.mjs [--baseline <checkout>] [--runs N] [--deploy-runs N] [--only validate|diff]
//                        [--sizes 20000,50000] [--node <path of a node binary>]
//
// --deploy-runs (default 1): how many deploys to measure, each into a new, empty emulator account.
// A deploy's peak moves by tens of MB from run to run (it depends on when V8 collects), so one run
// says little about a change of that size; each run adds about 30 s a checkout at 20,000.
//
// --baseline (or MONITOR_BENCH_BASELINE, for `npm run bench`): another built checkout of monitor
// (a worktree of the commit to compare with). Its CLI runs copies of the same projects,
// interleaved run by run with this checkout's, so that the noise of a shared machine falls on
// both alike.
//
// --node: run the CLI with another Node.js than the bench's own, e.g. Node 22 (whose compile cache
// keeps compiled modules between runs, as users' machines do; Node 20 has none).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { generateProject, generateRichProject, RICH_ENV } from './generate-project.mjs';

const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const HERE = fileURLToPath(new URL('../../..', import.meta.url));

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
const RUNS = Number(option('runs') ?? 5);
const DEPLOY_RUNS = Number(option('deploy-runs') ?? 1);
if (!Number.isInteger(DEPLOY_RUNS) || DEPLOY_RUNS < 1)
  throw new Error(`--deploy-runs takes a whole number of 1 or more, not ${option('deploy-runs')}`);
const only = option('only');
const sizes = (option('sizes') ?? '20000,50000').split(',').map(Number);
const baseline = option('baseline') ?? process.env.MONITOR_BENCH_BASELINE;
const node = option('node') ?? process.execPath;

/** A checkout of monitor: its CLI and its constructs package. */
const checkout = (name, root) => ({
  name,
  bin: join(root, 'packages/cli/dist/bin.js'),
  constructs: join(root, 'packages/constructs'),
});
const checkouts = [checkout('this', HERE), ...(baseline ? [checkout('baseline', resolve(baseline))] : [])];

/** Run the CLI of `c` in `cwd`; resolves to its exit code, output, wall time and usage. */
function monitor(c, argv, cwd, env = {}) {
  const usageFile = join(tmpdir(), `monitor-bench-usage-${process.pid}`);
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(node, ['--import', PRELOAD, c.bin, ...argv], {
      cwd,
      env: { ...process.env, ...env, NO_COLOR: '1', CI: 'true', MONITOR_BENCH_USAGE_FILE: usageFile },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const wall = performance.now() - started;
      if (!existsSync(usageFile)) {
        fail(
          new Error(`monitor ${argv.join(' ')} exited ${code} without its usage:\n${stderr.slice(-2000)}`),
        );
        return;
      }
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      done({ code, stdout, stderr, wall, cpu: usage.cpuMs, rss: usage.maxRssKb });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Prints one line per checkout: medians of wall, CPU and peak RSS (MB), each run's wall and peak, and the goal. */
function report(label, results, goal) {
  for (const c of checkouts) {
    const runs = results.get(c) ?? [];
    if (runs.length === 0) continue;
    console.log(
      `${label.padEnd(54)} ${c.name.padEnd(8)} wall ${(median(runs.map((r) => r.wall)) / 1000).toFixed(3)} s  cpu ${(median(runs.map((r) => r.cpu)) / 1000).toFixed(3)} s  peak ${Math.round(median(runs.map((r) => r.rss)) / 1024)} MB  (n=${runs.length}; wall ${runs.map((r) => (r.wall / 1000).toFixed(2)).join(' ')}; peak ${runs.map((r) => Math.round(r.rss / 1024)).join(' ')})${goal === undefined ? '' : `  goal: ${goal}`}`,
    );
  }
}

/**
 * Run `step(c, run)` for every checkout `runs` times, alternating which goes first; `before(c,
 * run)` prepares each run, untimed. Fails on an unexpected exit code.
 */
async function interleaved(label, runs, step, { before, expect = 0, goal } = {}) {
  const results = new Map(checkouts.map((c) => [c, []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const c of order) {
      await before?.(c, run);
      const r = await step(c, run);
      if (r.code !== expect) {
        console.error(r.stdout.slice(-3000), r.stderr.slice(-3000));
        throw new Error(`${label} (${c.name}) exited ${r.code}`);
      }
      results.get(c).push(r);
    }
  }
  report(label, results, goal);
}

/** One copy of a project per checkout, each linked to its own @monitor/constructs. */
function projects(make) {
  return new Map(checkouts.map((c) => [c, make(c.constructs)]));
}

async function validateFigures(name, make, env = {}, goal = undefined) {
  const copies = projects(make);
  const validate = (c) => monitor(c, ['validate'], copies.get(c).dir, env);
  const clearCache = (c) => rmSync(join(copies.get(c).dir, '.monitor'), { recursive: true, force: true });
  try {
    // Fills the cache; the first of the fresh-checkout runs below.
    for (const c of checkouts) await validate(c);
    await interleaved(`${name}: validate, unchanged`, RUNS, validate, { goal });
    const edit = (c, run) => {
      const file = join(copies.get(c).dir, 'monitors', 'file-0001.monitor.ts');
      const text = readFileSync(file, 'utf8');
      writeFileSync(
        file,
        text.replace(/Dashboard \d+( edit \d+)?'/, (m) => `${m.slice(0, -1)} edit ${run}'`),
      );
    };
    await interleaved(`${name}: validate, one file edited`, Math.min(RUNS, 3), validate, { before: edit });
    await interleaved(`${name}: validate, fresh checkout (no cache)`, Math.min(RUNS, 3), validate, {
      before: clearCache,
    });
  } finally {
    for (const p of copies.values()) p.cleanup();
  }
}

async function deployAndDiff(n) {
  const copies = projects((constructs) => generateProject(n, constructs));
  const emulators = new Map();
  /** A new, empty account for `c`'s next deploy: a new emulator, and no state of the last one. */
  const emptyAccount = async (c) => {
    const last = emulators.get(c);
    emulators.delete(c);
    await last?.close();
    emulators.set(
      c,
      await startEmulator({ port: 0, fixture: {}, agentHealthPort: false, rateLimits: false }),
    );
    rmSync(join(copies.get(c).dir, '.monitor', 'state'), { recursive: true, force: true });
  };
  try {
    const env = (c) => ({
      MONITOR_BASE_URL: emulators.get(c).url,
      MONITOR_API_KEY: DEV_API_KEY,
      MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
      MONITOR_STATE_SECRET: 'bench-state-secret',
      // The project's own file state, which each deploy run starts without (empty is unset).
      MONITOR_STATE_URL: '',
    });
    const label = `${n.toLocaleString('en')} constructs`;
    await interleaved(
      `${label}: deploy (${(n * 1.5).toLocaleString('en')} creates)`,
      DEPLOY_RUNS,
      (c) =>
        monitor(c, ['deploy', '--yes', '--json', '--rate-limit', '1000000/1'], copies.get(c).dir, env(c)),
      { before: emptyAccount, goal: 'peak ≤ 400 MB at 20,000' },
    );
    await interleaved(
      `${label}: diff, no changes`,
      RUNS,
      (c) => monitor(c, ['diff', '--json', '--detailed-exitcode'], copies.get(c).dir, env(c)),
      { goal: '≤ 3 s at 20,000' },
    );
  } finally {
    for (const e of emulators.values()) await e.close();
    for (const p of copies.values()) p.cleanup();
  }
}

console.log(
  `monitor at scale: median of ${RUNS} runs (3 for edits and fresh checkouts), end to end; cpu is the monitor process's own (not esbuild's); Node ${node === process.execPath ? process.version : node}`,
);
if (only === undefined || only === 'validate') {
  await validateFigures(
    '1,000 rich constructs',
    (constructs) => generateRichProject(1000, constructs),
    RICH_ENV,
    '≤ 0.27 s',
  );
  /** The goals of issue 28 §7, for the sizes it names. */
  const goals = { 20000: '≤ 2 s', 50000: '≤ 5 s and ≤ 500 MB' };
  for (const n of sizes) {
    await validateFigures(
      `${n.toLocaleString('en')} constructs`,
      (constructs) => generateProject(n, constructs),
      {},
      goals[n],
    );
  }
}
if (only === undefined || only === 'diff') await deployAndDiff(20_000);
