import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, KINDS, type ResourceKind } from '@monitor/api';
import { afterEach, describe, expect, it } from 'vitest';
import { load } from '../load/load.js';
import { openStateBackend } from '../load/open-state.js';
import { LockHeldError } from '../state/errors.js';
import { FakeAccount } from '../test-support/doubles.js';
import { diff } from './diff.js';
import { ImportFailedError, ImportFilterError } from './errors.js';
import { type ImportFlowOptions, importResources } from './import.js';
import type { Target } from './target.js';

const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));
const ACCOUNT = 'acct';
const NOW = new Date('2026-11-23T00:00:00Z');
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project on disk that loads `monitors/**\/*.monitor.ts`, holding `files`. */
function projectWith(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-import-'));
  dirs.push(dir);
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
  const all = {
    'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'imported', include: ['monitors/**/*.monitor.ts'] });\n`,
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The project in `dir` as loaded now, against `account`, with its file state. */
async function targetIn(dir: string, account: FakeAccount): Promise<Target> {
  const project = await load({ cwd: dir, allowUnmatchedIncludes: true });
  expect(project.diagnostics).toEqual([]);
  const backend = openStateBackend(project, ACCOUNT);
  // The fake has the kinds' operations and the request count: all the flows use of a client.
  return { project, client: account as unknown as Client, accountId: ACCOUNT, backend, secretKey: 'key' };
}

/** An account that already holds what someone made in the UI (the service fills in the defaults). */
async function accountWithResources(): Promise<FakeAccount> {
  const account = new FakeAccount();
  const make = (kind: ResourceKind, body: Record<string, unknown>) =>
    account.managed(kind).create({ ...KINDS[kind].defaults, ...body });
  const channel = await make('AlertChannel', {
    type: 'EMAIL',
    config: { address: 'oncall@example.com' },
    sendDegraded: true,
  });
  await make('CheckGroup', {
    name: 'Payments API',
    muted: true,
    alertChannelSubscriptions: [{ alertChannelId: channel.id, activated: true }],
  });
  await make('Dashboard', {
    header: 'Ops ‮ wall',
    customUrl: 'ops-wall',
    // CSS written on Windows: CRLF line ends, which must come back as they are.
    customCSS: '.a {\r\n  color: red;\r\n}\r\n',
  });
  return account;
}

const options = (extra: Partial<ImportFlowOptions> = {}): ImportFlowOptions => ({
  command: 'test import',
  confirm: async () => ({ approved: false, reason: 'not asked' }),
  env: {},
  now: NOW,
  ...extra,
});

/** Every file under `dir` but the project's own machinery, with its text. */
function filesIn(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (name === '.monitor' || name === 'node_modules') continue;
      const path = join(at, name);
      try {
        out[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
      } catch {
        walk(path);
      }
    }
  };
  walk(dir);
  return out;
}

const stateOf = async (target: Target) => Object.keys((await target.backend.read()).resources).sort();

describe('importResources', () => {
  it('writes the code where the project looks, records the resources, and the next diff changes nothing (CRLF text included)', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    const target = await targetIn(dir, account);
    const outcome = await importResources(target, options());
    expect(outcome.status).toBe('imported');
    expect(outcome.files.map((f) => f.path.slice(dir.length + 1)).sort()).toEqual([
      'monitors/alert-channels.monitor.ts',
      'monitors/check-groups.monitor.ts',
      'monitors/dashboards.monitor.ts',
    ]);
    expect(await stateOf(target)).toEqual([
      'AlertChannel:oncall-example-com',
      'CheckGroup:payments-api',
      'Dashboard:ops-wall',
    ]);
    const dashboards = readFileSync(join(dir, 'monitors/dashboards.monitor.ts'), 'utf8');
    expect(dashboards).toContain("header: 'Ops \\u202E wall'");
    expect(dashboards).toContain('customCSS: `.a {\\r\\n  color: red;\\r\\n}\\r\\n`');
    expect(dashboards).not.toMatch(/[\u202e\r]/);

    const next = await diff(await targetIn(dir, account), { now: NOW });
    expect(next.plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 3 });
  });

  it('writes the code in the form of the constructs: a rename the banner shows, options as the third argument, is a move', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    await importResources(await targetIn(dir, account), options());
    const file = join(dir, 'monitors/check-groups.monitor.ts');
    const written = readFileSync(file, 'utf8');
    const example = "new CheckGroup('new-id', { … }, { aliases: ['old-id'] })";
    expect(written).toContain(example);
    // Renamed as the banner says: the old logical id an alias, in the options.
    const renamed = written
      .replace("new CheckGroup('payments-api', {", "new CheckGroup('payments', {")
      .replace(/\}\);\n$/, "}, { aliases: ['payments-api'] });\n");
    expect(renamed).not.toBe(written);
    writeFileSync(file, renamed);
    const next = await diff(await targetIn(dir, account), { now: NOW });
    expect(next.plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, move: 1, unchanged: 2 });
  });

  it('a dry run takes no lock and writes and records nothing', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    const target = await targetIn(dir, account);
    const release = await target.backend.lock({ command: 'a deploy' });
    try {
      const outcome = await importResources(target, options({ dryRun: true }));
      expect(outcome.status).toBe('dry-run');
      expect(outcome.files).toHaveLength(3);
    } finally {
      await release();
    }
    expect(existsSync(join(dir, 'monitors'))).toBe(false);
    expect(await stateOf(target)).toEqual([]);
  });

  it('refuses to replace files that exist, writing and recording nothing; with overwrite it replaces them', async () => {
    const account = await accountWithResources();
    const dir = projectWith({ 'monitors/check-groups.monitor.ts': '// mine\n' });
    const target = await targetIn(dir, account);
    const before = filesIn(dir);
    const outcome = await importResources(target, options());
    expect(outcome.status).toBe('files-exist');
    expect(outcome.status === 'files-exist' && outcome.existing).toEqual([
      join(dir, 'monitors/check-groups.monitor.ts'),
    ]);
    expect(filesIn(dir)).toEqual(before);
    expect(await stateOf(target)).toEqual([]);

    const forced = await importResources(target, options({ overwrite: true }));
    expect(forced.status).toBe('imported');
    expect(readFileSync(join(dir, 'monitors/check-groups.monitor.ts'), 'utf8')).toContain(
      "export const paymentsApi = new CheckGroup('payments-api', {",
    );
  });

  it('refuses a kind that does not exist before reading anything', async () => {
    const account = await accountWithResources();
    const target = await targetIn(projectWith(), account);
    const calls = account.requestCount;
    const refused = importResources(target, options({ filters: { kinds: ['check-group', 'Checkgroups'] } }));
    await expect(refused).rejects.toThrow(ImportFilterError);
    await expect(refused).rejects.toMatchObject({
      code: 'bad_filter',
      message: 'unknown kind "Checkgroups"',
      hint: expect.stringContaining('kinds are AlertChannel, CheckGroup'),
    });
    expect(account.requestCount).toBe(calls);
  });

  it('selects by kind, written as people write it', async () => {
    const account = await accountWithResources();
    const target = await targetIn(projectWith(), account);
    const outcome = await importResources(target, options({ filters: { kinds: ['check-group'] } }));
    expect(outcome.plan.resources.map((r) => r.kind)).toEqual(['CheckGroup']);
    // The channel it refers to is not imported: the code refers to it by id.
    expect(outcome.files[0]?.text).toContain('alertChannels: [AlertChannel.fromId(1)]');
  });

  it('refuses while another run holds the lock, writing nothing', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    const target = await targetIn(dir, account);
    const release = await target.backend.lock({ command: 'monitor deploy' });
    try {
      const refused = importResources(target, options());
      await expect(refused).rejects.toThrow(LockHeldError);
      await expect(refused).rejects.toMatchObject({ code: 'locked' });
    } finally {
      await release();
    }
    expect(existsSync(join(dir, 'monitors'))).toBe(false);
    expect(await stateOf(target)).toEqual([]);
  });

  it('has nothing to import when the project owns everything, and writes nothing', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    expect((await importResources(await targetIn(dir, account), options())).status).toBe('imported');
    const before = filesIn(dir);
    const again = await importResources(await targetIn(dir, account), options());
    expect(again.status).toBe('nothing');
    expect(filesIn(dir)).toEqual(before);

    const empty = await importResources(await targetIn(projectWith(), new FakeAccount()), options());
    expect(empty).toMatchObject({ status: 'nothing', files: [] });
  });

  it('records nothing when the files go where the project does not look', async () => {
    const account = await accountWithResources();
    const dir = projectWith();
    const target = await targetIn(dir, account);
    const failed = importResources(target, options({ outDir: join(dir, 'elsewhere') }));
    await expect(failed).rejects.toThrow(ImportFailedError);
    await expect(failed).rejects.toThrow(/include patterns do not load the generated files/);
    expect(await stateOf(target)).toEqual([]);
  });

  it('records constructs of the code found by content alone only when confirmed', async () => {
    const account = await accountWithResources();
    const dir = projectWith({
      'monitors/mail.monitor.ts': `import { EmailAlertChannel } from '@monitor/constructs';\nnew EmailAlertChannel('mail', { address: 'oncall@example.com', sendDegraded: true });\n`,
    });
    const target = await targetIn(dir, account);
    const asked: string[] = [];
    const refused = await importResources(
      target,
      options({
        recoverOnly: true,
        confirm: async (matched) => {
          asked.push(...matched.map((m) => m.logicalId));
          return { approved: false, reason: 'nobody said yes', hint: 'say yes' };
        },
      }),
    );
    expect(refused).toMatchObject({ status: 'refused', reason: 'nobody said yes', hint: 'say yes' });
    expect(asked).toEqual(['mail']);
    expect(await stateOf(target)).toEqual([]);

    const confirmed = await importResources(
      target,
      options({ recoverOnly: true, confirm: async () => ({ approved: true }) }),
    );
    expect(confirmed.status).toBe('imported');
    expect(await stateOf(target)).toEqual(['AlertChannel:mail']);
    expect(confirmed.files).toEqual([]);
  });
});
