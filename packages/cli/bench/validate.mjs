// `monitor validate` end to end as a user runs it (process start included), for synthetic projects
// of 100, 1,000 and 5,000 constructs. Prints the median wall time of 5 runs and the peak memory.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject } from './generate-project.mjs';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
const RUNS = 5;
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);

console.log(
  'monitor validate, end to end (node start included), median of 5 runs; N constructs = 1.5 N resources',
);
for (const n of sizes.length > 0 ? sizes : [100, 1000, 5000]) {
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
