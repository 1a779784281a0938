// `monitor pull` and `diff --target` on a project of 1,500 resources (1,000 constructs' worth,
// generate-project.mjs) deployed to the emulator, after 20 of its check groups were edited in the
// account: the wall time of `pull --dry-run`, of `pull --yes`, of `diff --target` of one group, and
// of a whole diff beside them (median of 3).
import { execFileSync } from 'node:child_process';
import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from '@monitor/emulator';
import { generateProject } from './generate-project.mjs';
import { monitor } from './run-cli.mjs';

const N = 1000;
const EDITED = 20;
const project = generateProject(N);
const emulator = await startEmulator({ port: 0, fixture: {}, agentHealthPort: false, rateLimits: false });
const env = {
  MONITOR_BASE_URL: emulator.url,
  MONITOR_API_KEY: DEV_API_KEY,
  MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
  MONITOR_STATE_SECRET: 'bench-state-secret',
};
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd: project.dir,
  });
const run = async (args) => {
  const started = performance.now();
  const r = await monitor(args, project.dir, env);
  if (r.code !== 0) {
    console.error(r.stdout.slice(-2000), r.stderr.slice(-2000));
    throw new Error(`monitor ${args.join(' ')} exited ${r.code}`);
  }
  return {
    ms: performance.now() - started,
    json: args.includes('--json') ? JSON.parse(r.stdout) : undefined,
  };
};
const median = async (args) => {
  const times = [];
  let last;
  for (let i = 0; i < 3; i++) {
    last = await run(args);
    times.push(last.ms);
  }
  return { ms: times.sort((a, b) => a - b)[1], json: last.json };
};
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  const deployed = await run(['deploy', '--yes', '--json', '--rate-limit', '100000/1']);
  const resources = deployed.json.result.results.length;
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'deployed');
  // People edit 20 groups in the UI: a location added, the name changed.
  const groups = (
    await fetch(`${emulator.url}/v1/check-groups?limit=100`, {
      headers: { authorization: `Bearer ${DEV_API_KEY}`, 'x-monitor-account': DEV_ACCOUNT_ID },
    }).then((r) => r.json())
  ).slice(0, EDITED);
  for (const g of groups) {
    const r = await fetch(`${emulator.url}/v2/check-groups/${g.id}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${DEV_API_KEY}`,
        'x-monitor-account': DEV_ACCOUNT_ID,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: `${g.name} (edited)`, locations: [...g.locations, 'ap-south-1'] }),
    });
    if (r.status >= 300) throw new Error(`edit: ${r.status} ${await r.text()}`);
  }
  const dry = await median(['pull', '--dry-run', '--json']);
  const diffTarget = await median(['diff', '--target', 'group-0', '--json']);
  const diffAll = await median(['diff', '--json']);
  const written = await run(['pull', '--yes', '--json']);
  const after = await run(['diff', '--json']);
  console.log(
    `pull on ${resources} resources, ${EDITED} groups edited in the account (median of 3): pull --dry-run ${s(dry.ms)} (${dry.json.result.pulled.length} values in ${dry.json.result.files.length} files), pull --yes ${s(written.ms)}; diff --target group-0 ${s(diffTarget.ms)}, whole diff ${s(diffAll.ms)}; after pull, diff: ${after.json.plan.operations.length} to change`,
  );
} finally {
  await emulator.close();
  project.cleanup();
}
