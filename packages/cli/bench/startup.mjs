// How long `monitor` takes to start: --version, --help and a command's --help, end to end
// (node start included). Prints the median of 9 runs of each, and for scale `node -e 0` and the
// time of a fixed piece of work: on a shared machine the same figures move by half from one hour
// to the next, and the fixed work says which kind of hour it was.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const RUNS = 9;

function median(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] / 1000;
}

/** Milliseconds of a fixed CPU-bound workload (JSON and objects, as monitor's own work is). */
function fixedWork() {
  const doc = Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    name: `group ${i}`,
    tags: ['a', 'b'],
    n: i * 3,
  }));
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    for (let j = 0; j < 20; j++)
      JSON.parse(JSON.stringify(doc)).map((d) => ({ ...d, tags: [...d.tags].sort() }));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

console.log(`machine: a fixed piece of work takes ${fixedWork().toFixed(0)} ms (compare between runs)`);
console.log(`start time, median of ${RUNS} runs`);
console.log(`node -e 0                ${median(['-e', '0']).toFixed(3)} s`);
for (const args of [['--version'], ['--help'], ['deploy', '--help']]) {
  console.log(`monitor ${args.join(' ').padEnd(16)} ${median([BIN, ...args]).toFixed(3)} s`);
}
