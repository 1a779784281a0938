// A workspace of many projects against one project of the same size (issue 48 §5): 40 projects of
// 250 generated constructs (10,000 constructs, 15,000 resources) deployed with `deploy --all`, then
// a no-change `diff --all` of them in one process, against a no-change `diff` of one project of
// 10,000 constructs (goal: at most 2×; the process start, esbuild and the client are shared across
// the projects). Prints wall time, CPU time and peak memory, medians of the runs (the two kinds
// interleaved), and what the deploy of the workspace took.
//
//   node bench/workspace.mjs [--projects 40] [--size 250] [--runs 3]
//
// The emulator runs in this process without a rate limit (the shared budget has its own bench,
// budget.mjs); the CLI's client limit is lifted to match.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { generateProject } from './generate-project.mjs';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const CONSTRUCTS = fileURLToPath(new URL('../../constructs', import.meta.url));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const PROJECTS = option('projects', 40);
const SIZE = option('size', 250);
const RUNS = option('runs', 3);
const WORKSPACE_ACCOUNT = '00000000-0000-4000-8000-0000000000a1';
const SINGLE_ACCOUNT = '00000000-0000-4000-8000-0000000000a2';

/** The CLI in `cwd` with the preload that reports its usage: exit code, wall, CPU and peak RSS. */
function monitor(argv, cwd, env) {
  const usageFile = join(tmpdir(), `monitor-bench-workspace-${process.pid}`);
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...argv], {
      cwd,
      env: { ...process.env, ...env, NO_COLOR: '1', CI: 'true', MONITOR_BENCH_USAGE_FILE: usageFile },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const wall = performance.now() - started;
      if (!existsSync(usageFile))
        return fail(new Error(`monitor ${argv.join(' ')}: no usage\n${out.slice(-2000)}`));
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      done({ code, out, wall, cpu: usage.cpuMs, rss: usage.maxRssKb });
    });
  });
}

/** 40 projects of 250 constructs, each naming its own resources, under one monitor.workspace.ts. */
function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'monitor-bench-workspace-'));
  mkdirSync(join(root, 'node_modules', '@monitor'), { recursive: true });
  symlinkSync(CONSTRUCTS, join(root, 'node_modules', '@monitor', 'constructs'), 'dir');
  writeFileSync(
    join(root, 'monitor.workspace.ts'),
    "import { defineWorkspace } from '@monitor/constructs';\nexport default defineWorkspace({ projects: ['projects/*'] });\n",
  );
  mkdirSync(join(root, 'projects'));
  for (let p = 0; p < PROJECTS; p++) {
    generateProject(SIZE, CONSTRUCTS, {
      parent: join(root, 'projects'),
      projectName: `bench-${String(p).padStart(2, '0')}`,
      start: p * SIZE,
    });
  }
  return root;
}

/** The first line that says what went wrong, from a run's output. */
const firstError = (out) => out.split('\n').find((l) => /^(error|✗|Error)/.test(l.trim())) ?? '';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (label, runs) =>
  `${label.padEnd(46)} wall ${(median(runs.map((r) => r.wall)) / 1000).toFixed(2)} s  cpu ${(median(runs.map((r) => r.cpu)) / 1000).toFixed(2)} s  peak ${Math.round(median(runs.map((r) => r.rss)) / 1024)} MB  (n=${runs.length}; wall ${runs.map((r) => (r.wall / 1000).toFixed(2)).join(' ')})`;

async function main() {
  const emulator = await startEmulator({
    port: 0,
    fixture: {},
    rateLimits: false,
    agentHealthPort: false,
    accounts: [
      { id: WORKSPACE_ACCOUNT, keys: [DEV_API_KEY] },
      { id: SINGLE_ACCOUNT, keys: [DEV_API_KEY] },
    ],
  });
  const envOf = (account) => ({
    MONITOR_BASE_URL: emulator.url,
    MONITOR_API_KEY: DEV_API_KEY,
    MONITOR_ACCOUNT_ID: account,
    MONITOR_STATE_SECRET: 'bench',
  });
  const lift = ['--rate-limit', '100000/1'];
  const root = workspace();
  // Dashboards' and status pages' URLs are the service's, not an account's: the single project
  // names its own after the workspace's.
  const single = generateProject(PROJECTS * SIZE, CONSTRUCTS, {
    projectName: 'bench-single',
    start: PROJECTS * SIZE,
  });
  try {
    console.log(
      `workspace: ${PROJECTS} projects × ${SIZE} constructs (${PROJECTS * SIZE} constructs) against one project of ${PROJECTS * SIZE}`,
    );
    const deployed = await monitor(['deploy', '--all', '--yes', ...lift], root, envOf(WORKSPACE_ACCOUNT));
    if (deployed.code !== 0)
      throw new Error(`deploy --all exited ${deployed.code}\n${deployed.out.slice(-3000)}`);
    console.log(line('deploy --all (one process, 4 side by side)', [deployed]));
    const one = await monitor(['deploy', '--yes', ...lift], single.dir, envOf(SINGLE_ACCOUNT));
    if (one.code !== 0) throw new Error(`deploy exited ${one.code}\n${one.out.slice(-3000)}`);
    console.log(line(`deploy of one project of ${PROJECTS * SIZE}`, [one]));
    const all = [];
    const lone = [];
    for (let run = 0; run < RUNS; run++) {
      const pair = [
        async () =>
          all.push(
            await monitor(['diff', '--all', '--detailed-exitcode', ...lift], root, envOf(WORKSPACE_ACCOUNT)),
          ),
        async () =>
          lone.push(
            await monitor(['diff', '--detailed-exitcode', ...lift], single.dir, envOf(SINGLE_ACCOUNT)),
          ),
      ];
      for (const step of run % 2 === 0 ? pair : [...pair].reverse()) await step();
    }
    for (const r of [...all, ...lone]) {
      if (r.code !== 0) {
        throw new Error(`a no-change diff exited ${r.code}: ${firstError(r.out)}\n${r.out.slice(-3000)}`);
      }
    }
    console.log(line(`diff --all, no change, ${PROJECTS} projects`, all));
    console.log(line(`diff, no change, one project of ${PROJECTS * SIZE}`, lone));
    const ratio = median(all.map((r) => r.wall)) / median(lone.map((r) => r.wall));
    console.log(`diff --all / one project: ${ratio.toFixed(2)}× (goal ≤ 2×)`);
  } finally {
    await emulator.close();
    rmSync(root, { recursive: true, force: true });
    single.cleanup();
  }
}

await main();
