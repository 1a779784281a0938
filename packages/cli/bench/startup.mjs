// How long `monitor` takes to start: --version, --help and a command's --help, end to end
// (node start included). Prints the median of 9 runs of each, and `node -e 0` for scale.
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

console.log(`start time, median of ${RUNS} runs`);
console.log(`node -e 0                ${median(['-e', '0']).toFixed(3)} s`);
for (const args of [['--version'], ['--help'], ['deploy', '--help']]) {
  console.log(`monitor ${args.join(' ').padEnd(16)} ${median([BIN, ...args]).toFixed(3)} s`);
}
