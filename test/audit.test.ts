import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { ciProjects, gitHubEnv } from './support/ci.js';
import { type FakeCodeHost, fakeGitHub } from './support/code-hosts.js';
import { envelopeOf } from './support/harness.js';
import { IMPORTS } from './support/projects.js';

const ciProject = ciProjects();
const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

/** A key of a channel made by hand: the service returns it, so the audit reads it; no output may show it. */
const LIVE_KEY = 'pd-key-made-by-hand-7f3a9c';
/** The code's own secret, a secret variable the service never returns. */
const CODE_TOKEN = 'code-token-5d1e8b';

const CONFIG = `import { defineConfig, definePolicy } from '@monitor/constructs';
// A project policy that would say everything a channel holds: it sees only masked values.
const says = definePolicy({
  name: 'acme/channel-config',
  description: 'Says what each channel sends to.',
  severity: 'info',
  kinds: ['AlertChannel'],
  check: (channel) => 'sends to ' + JSON.stringify(channel.payload.config) + ' ' + (process.env.CODE_TOKEN ?? ''),
});
export default defineConfig({
  projectName: 'e2e',
  policies: [says],
  policySeverity: { 'group-without-alert-channel': 'error' },
});
`;

const CODE = `${IMPORTS}import { requiredEnv } from '@monitor/constructs';
const ops = new EmailAlertChannel('ops', { address: 'ops@example.com' });
new CheckGroup('pay', {
  name: 'Payments',
  alertChannels: [ops],
  environmentVariables: [{ key: 'TOKEN', value: requiredEnv('CODE_TOKEN'), secret: true }],
});
`;

async function deployedProject() {
  const project = await ciProject({ 'monitor.config.ts': CONFIG, 'a.monitor.ts': CODE });
  project.useCi({ CODE_TOKEN });
  expect((await project.run('deploy', '--yes')).code).toBe(0);
  return project;
}

/** Someone makes a PagerDuty channel and a group by hand (the API, with no channel: autoAssignAlerts off). */
async function madeByHand(h: Awaited<ReturnType<typeof deployedProject>>['h'], name = 'Made by hand') {
  await h.client.alertChannels.create({ type: 'PAGERDUTY', config: { serviceKey: LIVE_KEY } });
  const group = await h.client.checkGroups.create({ name }, { autoAssignAlerts: false });
  return group.id;
}

function expectNoSecrets(...outputs: string[]): void {
  for (const output of outputs) {
    expect(output).not.toContain(LIVE_KEY);
    expect(output).not.toContain(CODE_TOKEN);
  }
}

describe('monitor audit', () => {
  it('finds an error on a group made by hand, names it, says no one owns it and how to take it over (exit 3)', async () => {
    const { h, run } = await deployedProject();
    const clean = await run('audit');
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain(
      '✓ No error or warning in 2 resources of the account: 2 owned by this project, 0 by other projects, 0 by no one (1 info)',
    );

    const id = await madeByHand(h);
    const r = await run('audit');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain(`monitor audit: e2e → account ${DEV_ACCOUNT_ID}`);
    expect(r.stdout).toContain(
      `error   CheckGroup “Made by hand” (id ${id})  owned by no one  [group-without-alert-channel]\n` +
        '    alertChannels: has no alert-channel subscription: no one is told when its checks fail\n' +
        '    hint: subscribe it to a channel: alertChannels: [oncall]\n' +
        `    take it over: monitor import --kind CheckGroup --id ${id}\n`,
    );
    // The project's policy sees the hand-made channel's key masked, as it sees the code's.
    expect(r.stdout).toContain('sends to {"serviceKey":"(sensitive value)"}');
    expect(r.stdout).toContain('info    AlertChannel “ops@example.com”');
    expect(r.stdout).toContain('owned here as ops');
    expect(r.stdout).toContain(
      '✗ 1 error, 2 info in 4 resources of the account: 2 owned by this project, 0 by other projects, 2 by no one',
    );

    const json = await run('audit', '--json');
    expect(json.code).toBe(3);
    const envelope = envelopeOf(json);
    expect(envelope.error).toMatchObject({ code: 'audit_errors', message: '1 policy error in the account' });
    expect(envelope.result.summary).toEqual({ errors: 1, warnings: 0, info: 2, waived: 0 });
    expect(envelope.result.findings[0]).toEqual({
      severity: 'error',
      policy: 'group-without-alert-channel',
      path: 'alertChannels',
      message: 'has no alert-channel subscription: no one is told when its checks fail',
      hint: 'subscribe it to a channel: alertChannels: [oncall]',
      resource: {
        kind: 'CheckGroup',
        construct: 'CheckGroup',
        physicalId: id,
        name: 'Made by hand',
        owner: { owned: 'unowned' },
      },
      importCommand: `monitor import --kind CheckGroup --id ${id}`,
      file: null,
      line: null,
      column: null,
    });
    const markdown = await run('audit', '--format', 'markdown');
    expect(markdown.code).toBe(3);
    expect(markdown.stdout).toContain(
      `| **error** | CheckGroup “Made by hand” (id \`${id}\`) | owned by no one: take it over with \`monitor import --kind CheckGroup --id ${id}\` | \`group-without-alert-channel\` |`,
    );
    expectNoSecrets(r.stdout, r.stderr, json.stdout, json.stderr, markdown.stdout, markdown.stderr);

    // The command it gives takes the group over: then it is this project's, at its line in the code.
    expect((await run('import', '--kind', 'CheckGroup', '--id', String(id))).code).toBe(0);
    const owned = await run('audit');
    expect(owned.stdout).toContain(
      `error   CheckGroup “Made by hand” (id ${id})  owned here as made-by-hand`,
    );
  });

  it('--issue opens one audit issue, updates it in place, and closes it once the account is fixed', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, dir, run, useCi } = await deployedProject();
    useCi({ CODE_TOKEN, ...gitHubEnv(dir, github, { schedule: '0 5 * * *' }) });
    const clean = await run('audit', '--issue');
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain(
      'Not posted: the audit found no error or warning and no audit issue is open.',
    );

    const id = await madeByHand(h, '[Approve](https://evil.example/x) @acme/admins');
    const opened = await run('audit', '--issue');
    expect(opened.code).toBe(3);
    expect(opened.stderr).toContain(
      '✓ The audit issue (#1) opened in the issues of acme/web: https://github.test/issues/1',
    );
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]).toMatchObject({
      title: `monitor audit: policy findings in account ${DEV_ACCOUNT_ID} (e2e)`,
      labels: ['monitor-audit'],
      state: 'open',
    });
    const body = github.issues[0]?.body ?? '';
    expect(
      body.startsWith(`<!-- monitor:audit project=e2e account=${DEV_ACCOUNT_ID} -->\n### monitor audit: e2e`),
    ).toBe(true);
    // Account text is escaped: the name links nowhere and mentions no one.
    expect(body).toContain('“&#91;Approve&#93;(https:\u200d//evil.example/x) @\u200dacme/admins”');
    expect(body).toContain(`\`monitor import --kind CheckGroup --id ${id}\``);
    expect((await run('audit', '--issue')).stderr).toContain('The audit issue (#1) is already on');

    // Another group by hand: the same issue says so.
    const second = await h.client.checkGroups.create({ name: 'Second by hand' }, { autoAssignAlerts: false });
    const updated = await run('audit', '--issue');
    expect(updated.stderr).toContain('The audit issue (#1) updated on the issues of acme/web');
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]?.body).toContain('Second by hand');

    await h.client.checkGroups.delete(id);
    await h.client.checkGroups.delete(second.id);
    const fixed = await run('audit', '--issue');
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toContain('The audit issue (#1) closed in the issues of acme/web');
    expect(github.issues[0]).toMatchObject({ state: 'closed' });
    expect(github.issues[0]?.body).toContain('**No error or warning**');
    expectNoSecrets(...github.issues.map((i) => `${i.title}\n${i.body}`), opened.stdout, opened.stderr);
    expect(github.issues.filter((i) => i.labels.includes('monitor-audit'))).toHaveLength(1);
  });

  it('--require-comment without --issue is a usage error', async () => {
    const { run } = await ciProject({ 'a.monitor.ts': IMPORTS });
    const usage = await run('audit', '--require-comment');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--require-comment needs --issue');
  });
});
