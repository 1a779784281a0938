// The first hour the screenshots show, run for real: the built CLI against `monitor emulator`, in
// a project in a temp directory. The project is deployed, checks are seeded into its group, the
// code then moves the group to a new location and a new alert channel, and the emulator is told
// that one check fails there (docs/emulator.md, "Try a verification").
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHARGE_CARD = '0c000000-0000-4000-8000-000000000001';

const CONFIG = `import { defineConfig } from '@monitor/constructs';

export default defineConfig({ projectName: 'acme-payments', include: ['monitors/**/*.monitor.ts'] });
`;

/** The code before the change: both groups page the on-call mailbox. */
const BEFORE = `import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';

const oncall = new EmailAlertChannel('payments-oncall', { address: 'payments-oncall@acme.example' });

new CheckGroup('payments-api', { name: 'Payments API', locations: ['eu-west-1'], alertChannels: [oncall] });
new CheckGroup('search', { name: 'Search', locations: ['eu-west-1'], alertChannels: [oncall] });
`;

/** The change under review: Payments API runs in ap-south-1 too, and pages Slack instead of the mailbox. */
const AFTER = `import { CheckGroup, EmailAlertChannel, SlackAlertChannel } from '@monitor/constructs';

const oncall = new EmailAlertChannel('payments-oncall', { address: 'payments-oncall@acme.example' });
const slack = new SlackAlertChannel('payments-slack', {
  url: 'https://hooks.slack.example/services/T0/B0/x',
  channel: '#payments-alerts',
});

new CheckGroup('payments-api', {
  name: 'Payments API',
  locations: ['eu-west-1', 'ap-south-1'],
  alertChannels: [slack],
});
new CheckGroup('search', { name: 'Search', locations: ['eu-west-1'], alertChannels: [oncall] });
`;

/** The environment of every CLI run: only what it needs, so that the shell's CI or colour settings do not leak in. */
function baseEnv(home) {
  return { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C.UTF-8', TZ: 'UTC' };
}

/** A child process's exit code and output. */
function run(command, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `monitor emulator` on free ports with no data, until `stop()`. */
async function startEmulator(bin, dir, env) {
  const fixture = join(dir, 'empty-fixture.json');
  writeFileSync(fixture, '{}\n');
  const child = spawn(
    process.execPath,
    [bin, 'emulator', '--port', '0', '--fixture', fixture, '--no-rate-limit'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found !== null) resolve(found[1]);
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`monitor emulator exited (${code}): ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function emulatorCall(url, method, path, body) {
  const r = await fetch(`${url}/_emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status >= 300) throw new Error(`${method} /_emulator/${path}: ${r.status} ${await r.text()}`);
}

/** `result` when it exited with `code`, else an error with its output. */
function expectExit(result, code, what) {
  if (result.code !== code) {
    throw new Error(`${what} exited ${result.code}, not ${code}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** Three checks in the group: Charge card, Refund and Checkout flow; Charge card fails in ap-south-1. */
async function seedChecks(url, groupId) {
  const check = (n, name, checkType, request) => ({
    id: `0c000000-0000-4000-8000-00000000000${n}`,
    checkType,
    name,
    groupId,
    ...(request === undefined
      ? {}
      : { request: { method: 'GET', url: `https://api.acme.example/${request}` } }),
  });
  await emulatorCall(url, 'POST', 'seed', {
    fixture: {
      checks: [
        check(1, 'Charge card', 'API', 'charge'),
        check(2, 'Refund', 'API', 'refund'),
        check(3, 'Checkout flow', 'BROWSER'),
      ],
    },
  });
  await emulatorCall(url, 'PUT', 'outcome-rules', {
    rules: [
      {
        checkId: CHARGE_CARD,
        location: 'ap-south-1',
        outcome: 'FAILED',
        error: 'connect ETIMEDOUT 10.20.0.7:443',
      },
    ],
  });
}

/**
 * A project deployed to a fresh emulator with checks in its group, its code changed, and the check
 * that will break with the change set to fail. `cli(args, env?)` runs the CLI in it (no terminal),
 * `pty(args)` in a terminal (see `runInPty`); `close()` stops the emulator and removes the project.
 */
export async function changedProject({ root, bin }) {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-screenshots-'));
  const project = join(dir, 'acme-payments');
  mkdirSync(join(project, 'monitors'), { recursive: true });
  // The workspace's packages, as a project that installed @monitor/constructs has them.
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'monitor.config.ts'), CONFIG);
  writeFileSync(join(project, 'monitors/payments.monitor.ts'), BEFORE);
  const emulator = await startEmulator(bin, dir, baseEnv(dir));
  const env = {
    ...baseEnv(dir),
    MONITOR_BASE_URL: emulator.url,
    MONITOR_API_KEY: 'mk_dev_emulator_key',
    MONITOR_ACCOUNT_ID: '00000000-0000-4000-8000-00000000de00',
  };
  const close = async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const cli = (args, extra = {}) =>
      run(process.execPath, [bin, ...args], { cwd: project, env: { ...env, NO_COLOR: '1', ...extra } });
    expectExit(await cli(['deploy', '--yes']), 0, 'the first deploy');
    const outputs = JSON.parse(expectExit(await cli(['output', '--json']), 0, 'monitor output').stdout).result
      .outputs;
    await seedChecks(emulator.url, outputs.find((o) => o.key === 'CheckGroup:payments-api').physicalId);
    writeFileSync(join(project, 'monitors/payments.monitor.ts'), AFTER);
    return { dir, cli, pty: (args, columns) => runInPty(bin, args, { cwd: project, env, columns }), close };
  } catch (e) {
    await close();
    throw e;
  }
}

const quote = (arg) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The CLI in a terminal `columns` wide, as a person runs it: through a pty (`script` from
 * util-linux), so that it colours its output and draws its progress line. Its exit code, and the
 * bytes the terminal received.
 */
export function runInPty(bin, args, { cwd, env, columns }) {
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return run('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    cwd,
    env: { ...env, TERM: 'xterm-256color', COLUMNS: String(columns) },
  });
}

export { expectExit };
