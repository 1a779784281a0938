import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeProject } from './support/harness.js';

/**
 * `monitor pull` end to end: a project deployed to the emulator, edited in the account as people
 * edit it in the UI, and pulled back into its TypeScript by the built CLI.
 */

const GROUPS = `import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';

// The on-call address.
const oncall = new EmailAlertChannel('oncall', { address: 'oncall@acme.example' });
const REGIONS = ['eu-west-1'];

new CheckGroup('payments', {
  name: 'Payments', // shown in the UI
  locations: ['eu-west-1'],
  alertChannels: [oncall],
  environmentVariables: [{ key: 'API_URL', value: 'https://pay.acme.example' }],
});
new CheckGroup('checkout', { name: 'Checkout', locations: REGIONS, alertChannels: [oncall] });
`;

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** The project deployed, committed in a git repository of its own, then edited in the account. */
async function drifted() {
  const h = await emulatorForTests();
  const dir = writeProject({ 'monitors/groups.monitor.ts': GROUPS, '.gitignore': '.monitor\n' });
  open.push({ close: async () => (await h.close(), cleanup(dir)) });
  const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
  expect((await run('deploy', '--yes')).code).toBe(0);
  git(dir, 'init', '-q', '.');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'deployed');
  const groups = (await h.client.checkGroups.list()).items;
  const id = (name: string) => groups.find((g) => g.name === name)?.id as number;
  const groupsApi = h.client.managed('CheckGroup');
  await groupsApi.update(id('Payments'), {
    name: 'Payments (prod)',
    locations: ['eu-west-1', 'us-east-1'],
    environmentVariables: [{ key: 'API_URL', value: 'https://pay2.acme.example' }],
  });
  await groupsApi.update(id('Checkout'), { name: 'Checkout', locations: ['ap-south-1', 'eu-west-1'] });
  const file = join(dir, 'monitors', 'groups.monitor.ts');
  return { h, dir, run, file };
}

describe('monitor pull', () => {
  it('--dry-run prints the edits as a unified diff and what to change by hand, and writes nothing', async () => {
    const { run, file } = await drifted();
    const r = await run('pull', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(GROUPS);
    expect(r.stdout).toContain(
      'Pulled into the code:\n  monitors/groups.monitor.ts:8  CheckGroup:payments  name\n',
    );
    expect(r.stdout).toContain(
      [
        '--- a/monitors/groups.monitor.ts',
        '+++ b/monitors/groups.monitor.ts',
        '@@ -5,9 +5,9 @@',
        " const REGIONS = ['eu-west-1'];",
        ' ',
        " new CheckGroup('payments', {",
        "-  name: 'Payments', // shown in the UI",
        "-  locations: ['eu-west-1'],",
        "+  name: 'Payments (prod)', // shown in the UI",
        "+  locations: ['eu-west-1', 'us-east-1'],",
        '   alertChannels: [oncall],',
        "-  environmentVariables: [{ key: 'API_URL', value: 'https://pay.acme.example' }],",
        "+  environmentVariables: [{ key: 'API_URL', value: 'https://pay2.acme.example' }],",
        ' });',
      ].join('\n'),
    );
    expect(r.stdout).toContain(
      'monitors/groups.monitor.ts:13  CheckGroup:checkout  locations: its value is computed, not written as a literal\n      the account has: ["ap-south-1","eu-west-1"]',
    );
    expect(r.stdout).toContain('Dry run: nothing was written. Write it with monitor pull.');
  });

  it('writes the edits; the next diff shows only what was left to change by hand', async () => {
    const { run, file } = await drifted();
    const json = envelopeOf(await run('pull', '--yes', '--json'));
    expect(json.exitCode).toBe(0);
    expect(json.result).toMatchObject({ drifted: 2, written: true });
    expect(json.result.pulled.map((p: { path: string }) => p.path)).toEqual([
      'name',
      'locations',
      'environmentVariables[API_URL].value',
    ]);
    expect(json.result.manual).toEqual([
      expect.objectContaining({ key: 'CheckGroup:checkout', path: 'locations', line: 13 }),
    ]);
    const written = readFileSync(file, 'utf8');
    // Every line but those pulled is as it was.
    const before = GROUPS.split('\n');
    const after = written.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual([
      "  name: 'Payments (prod)', // shown in the UI",
      "  locations: ['eu-west-1', 'us-east-1'],",
      "  environmentVariables: [{ key: 'API_URL', value: 'https://pay2.acme.example' }],",
    ]);
    const { plan } = JSON.parse((await run('diff', '--json')).stdout) as { plan: { operations: unknown[] } };
    expect((plan.operations as { logicalId: string }[]).map((o) => o.logicalId)).toEqual(['checkout']);
  });

  it('refuses files git has not committed, unless --force; and writing needs --yes off a terminal', async () => {
    const { dir, run, file } = await drifted();
    writeFileSync(file, `${GROUPS}// a note not yet committed\n`);
    const dirty = await run('pull', '--yes');
    expect(dirty.code).toBe(5);
    expect(dirty.stderr).toContain(
      'error: monitors/groups.monitor.ts has changes git has not committed: nothing was written',
    );
    expect(dirty.stderr).toContain('monitor pull --force');
    expect(readFileSync(file, 'utf8')).toBe(`${GROUPS}// a note not yet committed\n`);
    git(dir, 'commit', '-qam', 'note');

    const unasked = await run('pull');
    expect(unasked.code).toBe(5);
    expect(unasked.stderr).toContain('pull writes files: confirm with --yes when not on a terminal');
    expect(readFileSync(file, 'utf8')).toBe(`${GROUPS}// a note not yet committed\n`);

    writeFileSync(file, `${GROUPS}// another note\n`);
    expect((await run('pull', '--yes', '--force')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain("name: 'Payments (prod)'");
    expect(readFileSync(file, 'utf8')).toContain('// another note');
  });

  it('--target limits the edits; an unknown target is an error that names the nearest', async () => {
    const { run, file } = await drifted();
    const one = envelopeOf(await run('pull', '--target', 'checkout', '--yes', '--json'));
    expect(one.exitCode).toBe(0);
    expect(one.result.pulled).toEqual([]);
    expect(one.result.manual.map((m: { key: string }) => m.key)).toEqual(['CheckGroup:checkout']);
    expect(readFileSync(file, 'utf8')).toBe(GROUPS);

    const unknown = await run('pull', '--target', 'paymnets');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/paymnets.*\n.*payments/s);
  });

  it('a construct file that does not parse is refused before anything is read or written', async () => {
    const { run, file } = await drifted();
    const broken = GROUPS.replace("name: 'Checkout',", "name: 'Checkout',,");
    writeFileSync(file, broken);
    const r = await run('pull', '--yes', '--force');
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('groups.monitor.ts');
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('pulls only what the account changed: a field the code changed too keeps the code’s value and is listed', async () => {
    const { run, file } = await drifted();
    // Since the deploy, the code renamed payments too (the account renamed it to "Payments (prod)"),
    // and set a concurrency the account never changed.
    writeFileSync(
      file,
      GROUPS.replace("name: 'Payments',", "name: 'Payments (new)',").replace(
        "locations: ['eu-west-1'],\n  alertChannels",
        "locations: ['eu-west-1'],\n  concurrency: 3,\n  alertChannels",
      ),
    );
    const json = envelopeOf(await run('pull', '--dry-run', '--json'));
    expect(json.exitCode).toBe(0);
    expect(json.result.pulled.map((p: { key: string; path: string }) => `${p.key} ${p.path}`)).toEqual([
      'CheckGroup:payments locations',
      'CheckGroup:payments environmentVariables[API_URL].value',
    ]);
    expect(json.result.notPulled).toEqual([
      expect.objectContaining({ key: 'CheckGroup:payments', path: 'name', reason: 'code-changed' }),
    ]);
    const text = await run('pull', '--dry-run');
    expect(text.stdout).toContain(
      "CheckGroup:payments  name: changed in the code as well since the last deploy: the code's value stays",
    );
    // The code's own change is the next deploy's: not listed (the diff shows it only as context).
    expect(text.stdout).not.toContain('CheckGroup:payments  concurrency');
  });

  it('a construct with options: pull edits its props, never the options after them, nor a field they ignore', async () => {
    const code = `import { CheckGroup } from '@monitor/constructs';

new CheckGroup(
  'payments',
  { name: 'Payments', muted: false },
  { protect: true, ignoreChanges: ['muted'] },
);
`;
    const h = await emulatorForTests();
    const dir = writeProject({ 'monitors/groups.monitor.ts': code, '.gitignore': '.monitor\n' });
    open.push({
      close: async () => {
        await h.close();
        cleanup(dir);
      },
    });
    const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
    expect((await run('deploy', '--yes')).code).toBe(0);
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'deployed');
    const [group] = (await h.client.checkGroups.list()).items;
    await h.client
      .managed('CheckGroup')
      .update(group?.id as number, { name: 'Payments (prod)', muted: true });

    const json = envelopeOf(await run('pull', '--yes', '--json'));
    expect(json.exitCode).toBe(0);
    expect(json.result.pulled.map((p: { path: string }) => p.path)).toEqual(['name']);
    const file = join(dir, 'monitors', 'groups.monitor.ts');
    expect(readFileSync(file, 'utf8')).toBe(code.replace("name: 'Payments',", "name: 'Payments (prod)',"));
    // What pull wrote loads, and the account is what it says: the muting is the account's to keep.
    expect((await run('validate')).code).toBe(0);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
  });

  it('nothing drifted: nothing to pull', async () => {
    const h = await emulatorForTests();
    const dir = writeProject({ 'monitors/groups.monitor.ts': GROUPS });
    open.push({ close: async () => (await h.close(), cleanup(dir)) });
    expect((await monitor(['deploy', '--yes'], { cwd: dir, env: h.env })).code).toBe(0);
    const r = await monitor(['pull'], { cwd: dir, env: h.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Nothing to pull: the account holds what the code last deployed.');
  });
});
