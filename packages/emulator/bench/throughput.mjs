// Requests per second of the emulator for list and create calls, rate limits off.
// The emulator runs as its own process (the built bin); the load comes from this one over loopback.
// Bounded: a fixed number of requests per phase, then both processes stop.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ACCOUNT = '00000000-0000-4000-8000-00000000de00';
const KEY = 'mk_dev_emulator_key';
const CONCURRENCY = 32;

function start() {
  const child = spawn(
    process.execPath,
    [BIN, '--port', '0', '--agent-health-port', '0', '--no-rate-limit', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
  });
}

async function run(pool, total, makeRequest) {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await pool.request(makeRequest(i));
      await res.body.dump();
      if (res.statusCode >= 400) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { rps: Math.round(total / seconds), seconds: seconds.toFixed(2), failed };
}

const headers = {
  authorization: `Bearer ${KEY}`,
  'x-monitor-account': ACCOUNT,
  'content-type': 'application/json',
};
const { url, child } = await start();
const pool = new Pool(url, { connections: CONCURRENCY });

const create = await run(pool, 3000, (i) => ({
  method: 'POST',
  path: '/v2/check-groups?autoAssignAlerts=false',
  headers,
  body: JSON.stringify({
    name: `bench-${i}`,
    tags: ['bench', `t${i % 7}`],
    locations: ['eu-west-1', 'us-east-1'],
  }),
}));
console.log(
  `create  POST /v2/check-groups            ${create.rps} req/s  (3000 in ${create.seconds}s, ${create.failed} failed)`,
);

const list = await run(pool, 10000, (i) => ({
  method: 'GET',
  path: `/v1/check-groups?limit=100&page=${(i % 30) + 1}`,
  headers,
}));
console.log(
  `list    GET /v1/check-groups?limit=100    ${list.rps} req/s  (10000 in ${list.seconds}s, ${list.failed} failed)`,
);

const small = await run(pool, 10000, () => ({ method: 'GET', path: '/v1/alert-channels', headers }));
console.log(
  `list    GET /v1/alert-channels            ${small.rps} req/s  (10000 in ${small.seconds}s, ${small.failed} failed)`,
);

await pool.close();
child.kill('SIGTERM');
