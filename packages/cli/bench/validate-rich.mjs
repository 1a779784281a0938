// Issue 47 §6: a warm `monitor validate` of 1,000 generated rich constructs (generateRichProject:
// every kind and channel type, references, env vars, ~330 built-in policy warnings) against
// `node -e 0`, with the built-in policies on (the default) and all off (policySeverity): the ratio
// of each to `node -e 0` and what the findings add. Goal: ≤ 3.5× with the findings, which add
// ≤ 5 %. Every run is timed whole (node's own start included), its wall time and the CPU time of
// its process, runs interleaved so that a busy machine's noise falls on all alike; the CPU time
// moves less with the machine's load than the wall time does.
//
//   node bench/validate-rich.mjs [--runs N] [--baseline <checkout>]
//
// --runs: how many runs of each (default 9; medians). --baseline: another built checkout of
// monitor (a worktree of the commit to compare with), whose CLI validates copies of the same
// projects, interleaved with this one's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRichProject, RICH_ENV } from './generate-project.mjs';

const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const HERE = fileURLToPath(new URL('../../..', import.meta.url));
const USAGE_FILE = join(tmpdir(), `monitor-bench-usage-${process.pid}`);

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
const RUNS = Number(option('runs') ?? 9);
const baseline = option('baseline');

const checkouts = [
  { name: 'this', root: HERE },
  ...(baseline === undefined ? [] : [{ name: 'baseline', root: resolve(baseline) }]),
].map((c) => ({
  ...c,
  bin: join(c.root, 'packages/cli/dist/bin.js'),
  constructs: join(c.root, 'packages/constructs'),
}));

/**
 * One process, `node <args>`, with the preload that reports its CPU time (every process measured
 * here has it, `node -e 0` too): its wall and CPU time in ms, and what it printed.
 */
function timed(argv, cwd) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', PRELOAD, ...argv], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...RICH_ENV, NO_COLOR: '1', MONITOR_BENCH_USAGE_FILE: USAGE_FILE },
  });
  const wall = performance.now() - started;
  if (result.status !== 0 || !existsSync(USAGE_FILE)) {
    console.error(result.stdout.slice(-3000), result.stderr.slice(-3000));
    throw new Error(`node ${argv.join(' ')} exited ${result.status} in ${cwd}`);
  }
  const { cpuMs } = JSON.parse(readFileSync(USAGE_FILE, 'utf8'));
  rmSync(USAGE_FILE);
  return { wall, cpu: cpuMs, stdout: result.stdout };
}

/** The project's config with every built-in policy off. */
async function allOffConfig(c) {
  const { BUILT_IN_POLICIES } = await import(join(c.root, 'packages/engine/dist/index.js'));
  const off = Object.fromEntries(BUILT_IN_POLICIES.map((p) => [p.name, 'off']));
  return `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'bench', policySeverity: ${JSON.stringify(off)} });\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The two projects of each checkout (policies on and off), the runs of each, and what a run printed last. */
const cases = [];
for (const c of checkouts) {
  const off = generateRichProject(1000, c.constructs);
  writeFileSync(join(off.dir, 'monitor.config.ts'), await allOffConfig(c));
  for (const [policies, project] of [
    ['on', generateRichProject(1000, c.constructs)],
    ['off', off],
  ]) {
    cases.push({ label: `${c.name}: built-in policies ${policies}`, c, policies, project, runs: [] });
  }
}
const node = { label: 'node -e 0', runs: [] };
try {
  // One run first: the projects' caches are then warm, as on a developer's machine.
  for (const k of cases) timed([k.c.bin, 'validate'], k.project.dir);
  for (let run = 0; run < RUNS; run++) {
    node.runs.push(timed(['-e', '0'], tmpdir()));
    for (const k of run % 2 === 0 ? cases : [...cases].reverse()) {
      k.runs.push(timed([k.c.bin, 'validate'], k.project.dir));
    }
  }
} finally {
  for (const k of cases) k.project.cleanup();
}

const base = { wall: median(node.runs.map((r) => r.wall)), cpu: median(node.runs.map((r) => r.cpu)) };
const first = cases[0].runs.at(-1).stdout;
const [, constructs, files] = /(\d+) constructs valid in (\d+) files/.exec(first) ?? [];
const findings = (first.match(/\[[a-z-]+\]$/gm) ?? []).length;
console.log(
  `monitor validate, warm, of generateRichProject(1000): ${constructs} constructs in ${files} files, ${findings} findings; medians of ${RUNS} interleaved runs (goal: ≤ 3.5× node -e 0 with the findings, which add ≤ 5 %)`,
);
console.log(`${''.padEnd(36)} ${'wall'.padEnd(16)} cpu`);
const row = (label, wall, cpu) =>
  console.log(
    `${label.padEnd(36)} ${`${(wall / 1000).toFixed(3)} s ${(wall / base.wall).toFixed(2)}×`.padEnd(16)} ${(cpu / 1000).toFixed(3)} s ${(cpu / base.cpu).toFixed(2)}×`,
  );
row(node.label, base.wall, base.cpu);
for (const k of cases) row(k.label, median(k.runs.map((r) => r.wall)), median(k.runs.map((r) => r.cpu)));
for (const c of checkouts) {
  const [on, off] = cases.filter((k) => k.c === c);
  const share = (pick) => {
    const o = median(off.runs.map(pick));
    return `+${(((median(on.runs.map(pick)) - o) / o) * 100).toFixed(1)} %`;
  };
  console.log(
    `${`${c.name}: the findings' share`.padEnd(36)} ${share((r) => r.wall).padEnd(16)} ${share((r) => r.cpu)}`,
  );
}
