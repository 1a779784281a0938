// What `deploy --verify` adds to a deploy that touches 10 check groups (3 API checks each), against
// the emulator with the service's rate limits: the wall time of `deploy --yes --verify` beside the
// same deploy without it, and the API calls verification makes, by route. Emulator runs take real
// time (a passing run about a second), as a fast check does in the service.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { monitor } from './run-cli.mjs';

const GROUPS = 10;
const CHECKS_PER_GROUP = 3;
const ROUNDS = 3;
const CONSTRUCTS = fileURLToPath(new URL('../../constructs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'monitor-bench-verify-'));
mkdirSync(join(dir, 'node_modules', '@monitor'), { recursive: true });
symlinkSync(CONSTRUCTS, join(dir, 'node_modules', '@monitor', 'constructs'), 'dir');
mkdirSync(join(dir, 'monitors'));
writeFileSync(
  join(dir, 'monitor.config.ts'),
  `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'bench-verify' });\n`,
);
/** Every group with `concurrency` set to `c`: a change that affects runs, in all ten. */
const write = (c) =>
  writeFileSync(
    join(dir, 'monitors', 'groups.monitor.ts'),
    `import { CheckGroup } from '@monitor/constructs';\n${Array.from(
      { length: GROUPS },
      (_, i) =>
        `new CheckGroup('g${i}', { name: 'Group ${i}', locations: ['eu-west-1'], concurrency: ${c} });\n`,
    ).join('')}`,
  );

const emulator = await startEmulator({ port: 0, fixture: {}, agentHealthPort: false });
const env = {
  MONITOR_BASE_URL: emulator.url,
  MONITOR_API_KEY: DEV_API_KEY,
  MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
  MONITOR_STATE_SECRET: 'bench-state-secret',
};
const run = async (args) => {
  const started = performance.now();
  const r = await monitor(args, dir, env);
  if (r.code !== 0) {
    console.error(r.stdout.slice(-2000), r.stderr.slice(-2000));
    throw new Error(`monitor ${args.join(' ')} exited ${r.code}`);
  }
  return { ms: performance.now() - started, json: JSON.parse(r.stdout) };
};

try {
  write(1);
  await run(['deploy', '--yes', '--json']);
  const { json } = await run(['output', '--json']);
  const checks = json.result.outputs.flatMap((o, g) =>
    Array.from({ length: CHECKS_PER_GROUP }, (_, c) => ({
      id: `00000000-0000-4000-8000-${String(g * 100 + c).padStart(12, '0')}`,
      checkType: 'API',
      name: `${o.key} check ${c}`,
      activated: true,
      locations: ['eu-west-1'],
      groupId: o.physicalId,
      request: { method: 'GET', url: 'https://api.example.com' },
    })),
  );
  const seeded = await fetch(`${emulator.url}/_emulator/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fixture: { checks } }),
  });
  if (seeded.status >= 300) throw new Error(`seed: ${seeded.status} ${await seeded.text()}`);

  const plain = [];
  const verified = [];
  let calls = new Map();
  let concurrency = 1;
  for (let round = 0; round < ROUNDS; round++) {
    write(++concurrency);
    plain.push((await run(['deploy', '--yes', '--json'])).ms);
    write(++concurrency);
    const before = emulator.requests.length;
    const { ms, json: deployed } = await run(['deploy', '--yes', '--verify', '--json']);
    verified.push(ms);
    const report = deployed.result.verification;
    if (report.outcome !== 'passed' || report.runs.length !== GROUPS * CHECKS_PER_GROUP)
      throw new Error(`verification: ${report.outcome}, ${report.runs.length} runs`);
    calls = new Map();
    for (const r of emulator.requests.slice(before)) {
      const key = `${r.method} ${r.route ?? r.path}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const total = [...calls.values()].reduce((a, b) => a + b, 0);
  console.log(
    `deploy --verify, ${GROUPS} groups changed, ${GROUPS * CHECKS_PER_GROUP} checks (median of ${ROUNDS}): deploy ${(median(plain) / 1000).toFixed(2)} s, with --verify ${(median(verified) / 1000).toFixed(2)} s: verification adds ${((median(verified) - median(plain)) / 1000).toFixed(2)} s`,
  );
  console.log(`  API calls of the deploy with --verify: ${total}`);
  for (const [route, n] of [...calls].sort((a, b) => b[1] - a[1]))
    console.log(`    ${String(n).padStart(4)}  ${route}`);
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
