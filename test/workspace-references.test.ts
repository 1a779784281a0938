import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect } from '@monitor/api';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeFiles } from './support/harness.js';
import { type PostgresServer, startPostgres } from './support/postgres-server.mjs';

/**
 * References across projects (docs/workspaces-references.md) from the built CLI: a team project
 * subscribes its group to the platform project's channel (`AlertChannel.fromProject`), resolved
 * from the platform's state (the workspace's files, or the shared state database); the platform
 * cannot delete what the team references without --force-orphan; a team deployed first is told
 * to deploy the platform.
 */

const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../examples/workspace', import.meta.url));
const open: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) cleanup(d);
});

const config = (name: string) =>
  `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${name}' });\n`;
const CHANNELS = `import { EmailAlertChannel, SlackAlertChannel } from '@monitor/constructs';
new SlackAlertChannel('slack-incidents', { url: 'https://hooks.slack.example/incidents' });
new EmailAlertChannel('oncall', { address: 'oncall@example.com' });
`;
const ONLY_SLACK = `import { SlackAlertChannel } from '@monitor/constructs';
new SlackAlertChannel('slack-incidents', { url: 'https://hooks.slack.example/incidents' });
`;
const GROUPS = `import { AlertChannel, CheckGroup } from '@monitor/constructs';
new CheckGroup('payments-api', {
  name: 'Payments API',
  alertChannels: [AlertChannel.fromProject('platform', 'oncall')],
});
`;

/** A workspace of the platform and a team project (or, with `apart`, the two directories with no workspace). */
function projects(options: { apart?: boolean } = {}): { root: string; platform: string; team: string } {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(join(TMP, 'references-'));
  dirs.push(root);
  writeFiles(root, {
    ...(options.apart === true
      ? {}
      : {
          'monitor.workspace.ts': `import { defineWorkspace } from '@monitor/constructs';\nexport default defineWorkspace({ projects: ['platform', 'team'] });\n`,
        }),
    'platform/monitor.config.ts': config('platform'),
    'platform/channels.monitor.ts': CHANNELS,
    'team/monitor.config.ts': config('team-payments'),
    'team/groups.monitor.ts': GROUPS,
  });
  return { root, platform: join(root, 'platform'), team: join(root, 'team') };
}

async function emulator() {
  const h = await emulatorForTests();
  open.push(h);
  return h;
}

type Emulator = Awaited<ReturnType<typeof emulator>>;
const channels = async (h: Emulator) => collect(h.client.alertChannels.all());
const groups = async (h: Emulator) => collect(h.client.checkGroups.all());
const oncallId = async (h: Emulator) =>
  (await channels(h)).find((c) => (c.config as { address?: string }).address === 'oncall@example.com')?.id;

describe('references across the projects of a workspace (file state)', () => {
  it("deploy --all subscribes the team's group to the platform's channel; the platform cannot delete it under the team without --force-orphan", async () => {
    const { root, platform, team } = projects();
    const h = await emulator();
    const run = (cwd: string, ...args: string[]) => monitor(args, { cwd, env: h.env });

    const deployed = await run(root, 'deploy', '--all', '--yes');
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const id = await oncallId(h);
    expect(id).toBeDefined();
    expect((await groups(h)).map((g) => g.alertChannelSubscriptions)).toEqual([
      [{ alertChannelId: id, activated: true }],
    ]);
    // The team's plan showed the reference, with the id it resolved to.
    expect(deployed.stdout).toContain(`CheckGroup payments-api → platform:oncall (id ${String(id)})`);
    // Its state records the use; the platform's channel is the platform's alone.
    const teamState = JSON.parse(
      readFileSync(join(team, '.monitor/state', `${DEV_ACCOUNT_ID}.json`), 'utf8'),
    );
    expect(teamState.resources['CheckGroup:payments-api'].uses).toEqual(['platform/AlertChannel:oncall']);
    expect(Object.keys(teamState.resources)).toEqual(['CheckGroup:payments-api']);

    const clean = await run(root, 'diff', '--all', '--detailed-exitcode');
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // The platform removes the channel: refused (exit 3), naming the team and its group.
    writeFiles(platform, { 'channels.monitor.ts': ONLY_SLACK });
    const refused = await run(platform, 'deploy', '--yes', '--allow-deletes', '--json');
    expect(refused.code, refused.stderr).toBe(3);
    const envelope = envelopeOf(refused);
    expect(envelope.error?.code).toBe('conflicts');
    expect(envelope.plan?.conflicts).toMatchObject([
      {
        reason: 'referenced',
        kind: 'AlertChannel',
        logicalId: 'oncall',
        usedBy: ['team-payments/CheckGroup:payments-api'],
        message: expect.stringContaining('project "team-payments" references it'),
        hint: expect.stringContaining('--force-orphan'),
      },
    ]);
    expect((await channels(h)).map((c) => c.id)).toContain(id);

    // From the workspace's root as well: --project platform.
    const byName = await run(root, 'deploy', '--project', 'platform', '--yes', '--allow-deletes');
    expect(byName.code).toBe(3);
    expect(byName.stdout + byName.stderr).toContain('team-payments: CheckGroup:payments-api');

    const forced = await run(platform, 'deploy', '--yes', '--allow-deletes', '--force-orphan');
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    expect(forced.stdout).toContain(
      'AlertChannel:oncall goes although team-payments: CheckGroup:payments-api',
    );
    expect((await channels(h)).map((c) => c.id)).not.toContain(id);

    // The team's reference no longer resolves: its diff says so, naming the project and construct.
    const orphaned = await run(team, 'diff', '--json');
    expect(orphaned.code).toBe(3);
    expect(envelopeOf(orphaned).plan?.conflicts).toMatchObject([
      {
        reason: 'unresolved',
        logicalId: 'payments-api',
        holder: 'platform',
        value: 'AlertChannel:oncall',
        message:
          "references AlertChannel.fromProject('platform', 'oncall'), which project \"platform\" has not deployed into this account",
      },
    ]);
  });

  it("pull writes an edit made in the account into a group that references the platform's channel, and state records it", async () => {
    const { root, team } = projects();
    const h = await emulator();
    const run = (cwd: string, ...args: string[]) => monitor(args, { cwd, env: h.env });
    expect((await run(root, 'deploy', '--all', '--yes')).code).toBe(0);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root });
    writeFiles(root, { '.gitignore': '.monitor\n' });
    git('init', '-q', '.');
    git('add', '-A');
    git('commit', '-qm', 'deployed');
    const [group] = await groups(h);
    await h.client.managed('CheckGroup').update(group?.id as number, {
      name: 'Payments API',
      alertChannelSubscriptions: group?.alertChannelSubscriptions,
      locations: ['eu-west-1', 'us-east-1'],
    });
    const pulled = await run(team, 'pull', '--yes');
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect(readFileSync(join(team, 'groups.monitor.ts'), 'utf8')).toContain(
      "locations: ['eu-west-1', 'us-east-1']",
    );
    expect(pulled.stdout).toContain(
      'State records that code and account agree on what was pulled of CheckGroup:payments-api',
    );
    expect((await run(team, 'diff', '--detailed-exitcode')).code).toBe(0);
  });

  it('a team project deployed before the platform is refused (exit 3), told to deploy the platform first', async () => {
    const { root } = projects();
    const h = await emulator();
    const result = await monitor(['deploy', '--project', 'team-payments', '--yes'], {
      cwd: root,
      env: h.env,
    });
    expect(result.code).toBe(3);
    const said = result.stdout + result.stderr;
    expect(said).toContain("references AlertChannel.fromProject('platform', 'oncall')");
    expect(said).toContain('monitor deploy --project platform');
    expect(await groups(h)).toEqual([]);
  });

  it("a routing test names the platform's channel: a warning from the code (validate exits 0), passed against the account once deployed", async () => {
    const { root, team } = projects();
    writeFiles(team, {
      'monitor.config.ts': `import { AlertChannel, defineConfig, expectRoutes } from '@monitor/constructs';
export default defineConfig({
  projectName: 'team-payments',
  routingTests: [
    expectRoutes('payments-api', { failure: [AlertChannel.fromProject('platform', 'oncall')] }),
    expectRoutes('payments-api', { recovery: ['platform:oncall'] }),
  ],
});
`,
    });
    const validated = await monitor(['validate'], { cwd: team });
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    expect(validated.stdout).toContain(
      "failure: cannot be judged from the code: it subscribes to platform:oncall, project platform's channel",
    );
    const routes = await monitor(['routes'], { cwd: team });
    expect(routes.stdout).toContain(
      "alerts:       alerts → platform:oncall (another project's channel: what it sends is read with --live)",
    );
    expect(routes.stdout).not.toContain('no one');

    // Once deployed, the platform's state says which channel in the account it is: judged, passed.
    const h = await emulator();
    const deployed = await monitor(['deploy', '--all', '--yes'], { cwd: root, env: h.env });
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const judged = await monitor(['routes', '--test', '--live', '--json'], { cwd: team, env: h.env });
    expect(judged.code, judged.stdout + judged.stderr).toBe(0);
    const { tests } = envelopeOf(judged).result as { tests: { status: string; found: unknown[] }[] };
    expect(tests.map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(tests[0]?.found).toEqual([{ channel: 'platform:oncall', label: 'Email oncall@example.com' }]);
    const diff = await monitor(['diff', '--detailed-exitcode'], { cwd: team, env: h.env });
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  });

  it('a reference to its own project is an error at the prop, before anything is read', async () => {
    const { team } = projects();
    writeFiles(team, {
      'groups.monitor.ts': GROUPS.replace("fromProject('platform'", "fromProject('team-payments'"),
    });
    const result = await monitor(['validate'], { cwd: team });
    expect(result.code).toBe(3);
    // At the reference's own line.
    expect(result.stdout).toContain(
      'groups.monitor.ts:4:19  error  CheckGroup "payments-api"  alertChannels[0]: AlertChannel.fromProject("team-payments", "oncall") names this project ("team-payments")',
    );
    expect(result.stdout).toContain('hint: use the construct itself');
  });
});

describe('examples/workspace', () => {
  it('deploys in dependency order, plans clean, and keeps the channel three teams reference', async () => {
    mkdirSync(TMP, { recursive: true });
    const root = mkdtempSync(join(TMP, 'example-'));
    dirs.push(root);
    cpSync(EXAMPLE, root, {
      recursive: true,
      filter: (src) => !/[\\/](\.monitor|node_modules|\.turbo)([\\/]|$)/.test(src),
    });
    const h = await emulator();
    const run = (...args: string[]) => monitor(args, { cwd: root, env: h.env });
    const deployed = await run('deploy', '--all', '--yes');
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const clean = await run('diff', '--all', '--detailed-exitcode');
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const pagerduty = (await channels(h)).find((c) => c.type === 'PAGERDUTY')?.id;
    expect((await groups(h)).map((g) => g.alertChannelSubscriptions?.[0]?.alertChannelId)).toEqual([
      pagerduty,
      pagerduty,
      pagerduty,
    ]);
    writeFiles(root, {
      'platform/channels.monitor.ts': readFileSync(
        join(EXAMPLE, 'platform/channels.monitor.ts'),
        'utf8',
      ).replace(/export const oncall[^;]*;/s, ''),
    });
    const refused = await run('deploy', '--project', 'platform', '--yes', '--allow-deletes');
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain(
      'projects "team-checkout", "team-payments", "team-search" reference it',
    );
    expect((await channels(h)).map((c) => c.id)).toContain(pagerduty);
  });
});

describe('references across projects on a shared state database', () => {
  let pg: PostgresServer;
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('resolve from the other project’s rows in the same database and account, and protect them there', async () => {
    const { platform, team } = projects({ apart: true });
    const h = await emulator();
    const env = { ...h.env, MONITOR_STATE_URL: pg.url };
    const run = (cwd: string, ...args: string[]) => monitor(args, { cwd, env });

    const early = await run(team, 'deploy', '--yes');
    expect(early.code).toBe(3);
    expect(early.stdout + early.stderr).toContain('no project "platform" has state in this account');

    expect((await run(platform, 'deploy', '--yes')).code).toBe(0);
    const deployed = await run(team, 'deploy', '--yes');
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    expect((await groups(h))[0]?.alertChannelSubscriptions).toEqual([
      { alertChannelId: await oncallId(h), activated: true },
    ]);
    expect((await run(team, 'diff', '--detailed-exitcode')).code).toBe(0);

    writeFiles(platform, { 'channels.monitor.ts': ONLY_SLACK });
    const refused = await run(platform, 'deploy', '--yes', '--allow-deletes');
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain('team-payments: CheckGroup:payments-api');
    // Destroying the platform is refused the same way.
    const destroy = await run(platform, 'destroy', '--yes', '--allow-deletes');
    expect(destroy.code).toBe(3);
    expect(await oncallId(h)).toBeDefined();
  });
});
