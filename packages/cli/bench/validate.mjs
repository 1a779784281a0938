// `monitor validate` end to end as a user runs it (process start included), for synthetic projects
// of 100, 1,000 and 5,000 constructs. Prints the median wall time of 5 runs and the peak memory;
// then, at 1,000 and 5,000, what the built-in policies add: the same project with every built-in
// on (the default) and every one off (policySeverity), runs alternating.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject } from './generate-project.mjs';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const LOAD_TIMINGS = fileURLToPath(new URL('./load-timings.mjs', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const RUNS = 5;
// `--policies`: only the policies' overhead.
const onlyPolicies = process.argv.includes('--policies');
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);

/** One `monitor validate` run in `dir`: its wall time in ms. */
function validate(dir, env = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [BIN, 'validate'], {
    cwd: dir,
    encoding: 'utf8',
    // 3,750 findings print more than spawnSync's default 1 MB.
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`validate failed in ${dir}`);
  }
  return { ms: performance.now() - started, stdout: result.stdout };
}

/** The load's own timings in a fresh process (a run's first, cold, as the CLI's). */
function loadTimings(dir) {
  const result = spawnSync(process.execPath, [LOAD_TIMINGS], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`loading failed in ${dir}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Validate with the built-in policies on and off, alternating runs; median wall times. The bench
 * project `as is` has a finding on most constructs (half its groups muted without a comment, every
 * maintenance window silencing all alerts); `clean` turns those off in the code, so the rules run
 * and find nothing: what checking costs; `few` leaves them in the first file only: what reporting
 * any finding at its file:line costs once (the positions of the bundle, as for any warning).
 */
async function policyOverhead(n, variant) {
  const { BUILT_IN_POLICIES } = await import('@monitor/engine');
  const project = generateProject(n);
  if (variant !== 'as is') {
    const dir = join(project.dir, 'monitors');
    const files = readdirSync(dir).sort();
    for (const file of variant === 'few' ? files.slice(1) : files) {
      const text = readFileSync(join(dir, file), 'utf8');
      writeFileSync(
        join(dir, file),
        text
          .replaceAll('muted: true', 'muted: false')
          .replaceAll('silenceAllAlerts: true', 'silenceAllAlerts: false'),
      );
    }
  }
  const config = (severities) =>
    `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'bench', policySeverity: ${JSON.stringify(severities)} });\n`;
  const allOff = Object.fromEntries(BUILT_IN_POLICIES.map((p) => [p.name, 'off']));
  const modes = { off: config(allOff), on: config({}) };
  const times = { off: [], on: [] };
  const stage = { off: [], on: [] };
  let findings = 0;
  try {
    // One run of each first: the bundle and validation caches are warm for both, as on a developer's machine.
    for (const text of Object.values(modes)) {
      writeFileSync(join(project.dir, 'monitor.config.ts'), text);
      validate(project.dir);
    }
    for (let run = 0; run < RUNS; run++) {
      for (const [mode, text] of Object.entries(modes)) {
        writeFileSync(join(project.dir, 'monitor.config.ts'), text);
        const { ms, stdout } = validate(project.dir);
        times[mode].push(ms);
        if (mode === 'on') findings = (stdout.match(/\[[a-z-]+\]$/gm) ?? []).length;
        stage[mode].push(loadTimings(project.dir).policyMs);
      }
    }
  } finally {
    project.cleanup();
  }
  const off = medianOf(times.off);
  const on = medianOf(times.on);
  const added = medianOf(stage.on) - medianOf(stage.off);
  console.log(
    `N=${String(n).padStart(5)}  ${variant.padEnd(5)}  wall: off ${(off / 1000).toFixed(3)} s, on ${(on / 1000).toFixed(3)} s (${(((on - off) / off) * 100).toFixed(1)} %)  policy stage: +${added.toFixed(0)} ms (${((added / off) * 100).toFixed(1)} % of off)  ${findings} findings`,
  );
}

if (!onlyPolicies) {
  console.log(
    'monitor validate, end to end (node start included), median of 5 runs; N constructs = 1.5 N resources',
  );
}
for (const n of onlyPolicies ? [] : sizes.length > 0 ? sizes : [100, 1000, 5000]) {
  const project = generateProject(n);
  const rssFile = join(tmpdir(), `monitor-bench-rss-${process.pid}`);
  const times = [];
  let peak = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, ['--import', PRELOAD, BIN, 'validate'], {
      cwd: project.dir,
      encoding: 'utf8',
      env: { ...process.env, MONITOR_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    });
    times.push(performance.now() - started);
    if (result.status !== 0) {
      console.error(result.stdout, result.stderr);
      throw new Error(`validate failed for N=${n}`);
    }
    peak = Math.max(peak, Number(readFileSync(rssFile, 'utf8')));
  }
  rmSync(rssFile, { force: true });
  project.cleanup();
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `N=${String(n).padStart(5)}  ${String(project.files).padStart(4)} files  wall ${(median / 1000).toFixed(3)} s (min ${(times[0] / 1000).toFixed(3)})  peak RSS ${(peak / 1024).toFixed(0)} MB`,
  );
}

console.log(
  `${onlyPolicies ? '' : '\n'}monitor validate with the built-in policies on (the default) and off, median of 5 alternating runs each`,
);
for (const n of (sizes.length > 0 ? sizes : [1000, 5000]).filter((size) => size >= 1000)) {
  for (const variant of ['clean', 'few', 'as is']) await policyOverhead(n, variant);
}
