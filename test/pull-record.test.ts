import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeProject } from './support/harness.js';

/**
 * `monitor pull` end to end, after the write: what state records of what it pulled, the layout
 * of what it writes, where it says each change it leaves is, and what it cannot see (issue 44 §1).
 */

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** `files` deployed to a new emulator and committed in a git repository of their own. */
async function deployed(files: Record<string, string>, env: Record<string, string | undefined> = {}) {
  const h = await emulatorForTests();
  const dir = writeProject({ ...files, '.gitignore': '.monitor\n' });
  open.push({
    close: async () => {
      await h.close();
      cleanup(dir);
    },
  });
  const runEnv = Object.fromEntries(
    Object.entries({ ...h.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const run = (...args: string[]) => monitor(args, { cwd: dir, env: runEnv });
  const deploy = await run('deploy', '--yes');
  expect(deploy.code, deploy.stdout + deploy.stderr).toBe(0);
  git(dir, 'init', '-q', '.');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'deployed');
  return { h, dir, run, env: runEnv };
}

type Operation = { logicalId: string; drift: boolean; changes: { path: string; cause: string }[] };

const GROUP = `import { CheckGroup } from '@monitor/constructs';

new CheckGroup('payments', {
  name: 'Payments',
  locations: ['eu-west-1'],
});
`;

describe('monitor pull records what it wrote', () => {
  it('a location added in the account, pulled, then removed in the code again is a change of the code’s, which pull leaves alone', async () => {
    const { h, dir, run } = await deployed({ 'monitors/groups.monitor.ts': GROUP });
    const file = join(dir, 'monitors', 'groups.monitor.ts');
    const [group] = (await h.client.checkGroups.list()).items;
    await h.client
      .managed('CheckGroup')
      .update(group?.id as number, { name: 'Payments', locations: ['eu-west-1', 'us-east-1'] });

    const pulled = await run('pull', '--yes');
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain("locations: ['eu-west-1', 'us-east-1'],");
    git(dir, 'commit', '-qam', 'pulled');
    expect(envelopeOf(await run('diff', '--json')).plan?.operations).toEqual([]);

    // The code's own edit since: back to one location.
    writeFileSync(file, GROUP);
    git(dir, 'commit', '-qam', 'one location again');
    const diff = envelopeOf(await run('diff', '--json'));
    const ops = diff.plan?.operations as Operation[];
    expect(ops.map((o) => [o.logicalId, o.drift, o.changes.map((c) => `${c.path} ${c.cause}`)])).toEqual([
      ['payments', false, ['locations code']],
    ]);
    const text = await run('diff');
    expect(text.stdout).not.toContain('Drift');
    const dry = envelopeOf(await run('pull', '--dry-run', '--json'));
    expect(dry.result).toMatchObject({ drifted: 0, files: [], pulled: [], notPulled: [] });
    // What the run said it recorded.
    expect(pulled.stdout).toContain(
      'State records that code and account agree on what was pulled of CheckGroup:payments',
    );
  });
});

describe('monitor pull keeps the user’s layout', () => {
  it('a card renamed in the account is one line in the code, and diff shows no field only the server keeps', async () => {
    const page = `import { StatusPage, StatusPageService } from '@monitor/constructs';

const api = new StatusPageService('api', { name: 'API' });
const web = new StatusPageService('web', { name: 'Web' });

new StatusPage('status', {
  name: 'Status',
  url: 'acme-layout-status',
  cards: [
    { name: 'Core', services: [api] },
    { name: 'Frontend', services: [web] },
  ],
});
`;
    const { h, dir, run } = await deployed({ 'monitors/status.monitor.ts': page });
    const file = join(dir, 'monitors', 'status.monitor.ts');
    const pages = h.client.managed('StatusPage');
    const [live] = (await h.client.statusPages.list()).items;
    const cards = (live?.cards ?? []).map((c) => ({
      name: c.name === 'Core' ? 'Core services' : c.name,
      services: c.services.map((s) => ({ id: s.id })),
    }));
    await pages.update(live?.id as string, { name: 'Status', url: 'acme-layout-status', cards } as never);

    const diff = await run('diff');
    expect(diff.stdout).toContain('cards[Core services]');
    for (const serverOnly of ['created_at', 'accountId', 'updated_at', 'statusPageId'])
      expect(diff.stdout, diff.stdout).not.toContain(serverOnly);

    const pulled = await run('pull', '--yes');
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      page.replace("{ name: 'Core', services: [api] }", "{ name: 'Core services', services: [api] }"),
    );
    expect(git(dir, 'diff', '--numstat').trim()).toBe('1\t1\tmonitors/status.monitor.ts');
  });

  it('a location added in the account is added to the user’s list, in the user’s order', async () => {
    const group = GROUP.replace("locations: ['eu-west-1'],", "locations: ['us-west-2', 'eu-west-1'],");
    const { h, dir, run } = await deployed({ 'monitors/groups.monitor.ts': group });
    const [live] = (await h.client.checkGroups.list()).items;
    await h.client.managed('CheckGroup').update(live?.id as number, {
      name: 'Payments',
      locations: ['ap-southeast-2', 'eu-west-1', 'us-west-2'],
    });
    expect((await run('pull', '--yes')).code).toBe(0);
    expect(readFileSync(join(dir, 'monitors', 'groups.monitor.ts'), 'utf8')).toBe(
      group.replace("['us-west-2', 'eu-west-1']", "['us-west-2', 'eu-west-1', 'ap-southeast-2']"),
    );
  });
});

const SECRETS = `import { CheckGroup, SlackAlertChannel, requiredEnv } from '@monitor/constructs';

const slack = new SlackAlertChannel('ops-slack', {
  url: requiredEnv('SLACK_URL'),
});

new CheckGroup('payments', {
  name: 'Payments',
  alertChannels: [slack],
  environmentVariables: [
    { key: 'API_URL', value: 'https://pay.acme.example' },
    { key: 'TOKEN', value: requiredEnv('PAY_TOKEN'), secret: true },
    { key: 'OTHER_TOKEN', value: requiredEnv('PAY_TOKEN'), secret: true },
  ],
});
`;
const SECRET_ENV = { SLACK_URL: 'https://hooks.slack.com/services/T0/B0/old', PAY_TOKEN: 'pay-token-1' };

describe('monitor pull says where and what it cannot do', () => {
  it('a secret it does not pull is given with its file and line', async () => {
    const { h, run } = await deployed({ 'monitors/alerts.monitor.ts': SECRETS }, SECRET_ENV);
    const [channel] = (await h.client.alertChannels.list()).items;
    await h.client.managed('AlertChannel').update(
      channel?.id as number,
      {
        type: 'SLACK',
        config: { url: 'https://hooks.slack.com/services/T0/B0/new' },
      } as never,
    );
    const r = await run('pull', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Not pulled:\n  monitors/alerts.monitor.ts:4  AlertChannel:ops-slack  config.url: a secret is never written into code',
    );
    const json = envelopeOf(await run('pull', '--dry-run', '--json'));
    expect(json.result.notPulled).toEqual([
      expect.objectContaining({
        key: 'AlertChannel:ops-slack',
        path: 'config.url',
        file: 'monitors/alerts.monitor.ts',
        line: 4,
      }),
    ]);
  });

  it('says once that secrets the service masks cannot be seen, and without the state secret that it cannot tell', async () => {
    const { dir, run, env } = await deployed({ 'monitors/alerts.monitor.ts': SECRETS }, SECRET_ENV);
    const count = (text: string, part: string) => text.split(part).length - 1;
    const masked = 'the service masks secret environment variables (2 in the resources this project owns)';
    const pull = await run('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(count(pull.stdout, masked)).toBe(1);
    expect(pull.stdout).not.toContain('MONITOR_STATE_SECRET');
    const diff = await run('diff');
    expect(count(diff.stdout, masked)).toBe(1);
    expect(envelopeOf(await run('diff', '--json')).result.unseen).toEqual({
      masked: 2,
      secrets: 3,
      keyed: true,
    });

    // A run without the state secret cannot tell whether a secret drifted: it says so, once.
    const unkeyed = await monitor(['pull'], { cwd: dir, env: { ...env, MONITOR_STATE_SECRET: '' } });
    expect(unkeyed.code, unkeyed.stderr).toBe(0);
    expect(
      count(unkeyed.stdout, 'Without MONITOR_STATE_SECRET, pull cannot tell whether secrets drifted'),
    ).toBe(1);
  });
});
