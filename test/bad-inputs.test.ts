// The bad-input catalogue: one case per way a plan could be wrong or a run could go wrong without
// saying so (the "A plan you can trust" issue, by its sections). Each case asserts the message,
// the exit code, and that nothing was written to the account or to state.
import { createHash, createHmac } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { type Io, main } from '@monitor/cli';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { FileStateBackend, type StateFs } from '@monitor/engine';
import { describe, expect, it, onTestFinished } from 'vitest';
import { monitor, writeFiles } from './support/harness.js';
import { type Harness, IMPORTS, projectsUnderTest } from './support/projects.js';

const setup = projectsUnderTest();

const stateFile = (dir: string) => join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.json`);
const stateText = (dir: string) => (existsSync(stateFile(dir)) ? readFileSync(stateFile(dir), 'utf8') : null);

/** Runs `body`, then asserts that it wrote nothing to the account and left state as it was. */
async function changesNothing(h: Harness, dir: string, body: () => Promise<void>): Promise<void> {
  const writes = h.writes().length;
  const state = stateText(dir);
  await body();
  expect(h.writes().length).toBe(writes);
  expect(stateText(dir)).toBe(state);
  expect(strayTempFiles(dir)).toEqual([]);
}

/** A port this test holds (taken on port 0), released when the test ends. */
async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

function strayTempFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory()) walk(join(d, entry.name));
      else if (entry.name.endsWith('.tmp')) out.push(join(d, entry.name));
    }
  };
  walk(dir);
  return out;
}

const group = (id: string, name: string, extra = '', options = '') =>
  `new CheckGroup('${id}', { name: '${name}'${extra} }${options === '' ? '' : `, ${options}`});\n`;

describe('1. no silent adoption', () => {
  it('a construct whose name another project already uses is a conflict at its line; deploy refuses (exit 3)', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': IMPORTS + group('team-b-api', 'Shared name', ', concurrency: 9'),
    });
    await h.client.checkGroups.create({ name: 'Shared name' });
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes', '--allow-deletes');
      expect(r.code).toBe(3);
      expect(r.stdout).toContain('! CheckGroup team-b-api  a.monitor.ts:2:1');
      expect(r.stdout).toMatch(
        /a check group with name "Shared name" already exists in the account \(id \d+, "Shared name"\)/,
      );
      expect(r.stdout).toContain(
        "add `adopt: true` to its options, new's third argument: new CheckGroup('team-b-api', { … }, { adopt: true })",
      );
      expect(r.stderr).toContain('1 construct in conflict with the account; nothing was changed');
    });
  });
});

describe('2. collisions before the deploy', () => {
  it('two constructs with one unique key: a validation error naming both places', async () => {
    const page = (id: string, line: string) =>
      `new StatusPage('${id}', { name: '${id}', url: 'acme-${id}', customDomain: '${line}' });\n`;
    const { h, dir, run } = await setup({
      'a.monitor.ts': IMPORTS + page('one', 'status.acme.com') + page('two', 'STATUS.acme.com'),
    });
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes');
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        'a.monitor.ts:3:55  error  StatusPage "two"  customDomain: customDomain "STATUS.acme.com" is also the customDomain of StatusPage "one" at',
      );
      expect(r.stderr).toMatch(/a\.monitor\.ts:2:1: the service keeps it unique/);
    });
  });

  it('a renamed logical id without aliases: diff prints the exact line to add; deploy refuses', async () => {
    const page = (id: string) => `${IMPORTS}new StatusPage('${id}', { name: 'Acme', url: 'acme-status' });\n`;
    const { h, dir, run } = await setup({ 'a.monitor.ts': page('old-id') });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': page('new-id') });
    await changesNothing(h, dir, async () => {
      const diff = await run('diff');
      expect(diff.code).toBe(3);
      expect(diff.stdout).toContain(
        "add `aliases: ['old-id']` to the construct's options, new's third argument: new StatusPage('new-id', { … }, { aliases: ['old-id'] })",
      );
      const deploy = await run('deploy', '--yes', '--allow-deletes');
      expect(deploy.code).toBe(3);
    });
  });
});

describe('3. guards against wiping the account', () => {
  it('an include pattern that matches no file is an error, and the deploy deletes nothing', async () => {
    const { h, dir, run } = await setup({ 'monitors/a.monitor.ts': IMPORTS + group('g', 'G') });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, {
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'e2e', include: ['monitorz/**/*.monitor.ts'] });\n`,
    });
    await changesNothing(h, dir, async () => {
      const validate = await run('validate');
      expect(validate.code).toBe(3);
      expect(validate.stdout).toContain(
        'include pattern "monitorz/**/*.monitor.ts" in monitor.config.ts matches no file',
      );
      const deploy = await run('deploy', '--yes', '--allow-deletes');
      expect(deploy.code).toBe(3);
    });
  });

  it('a project that declares nothing never deletes: exit 5 unless --allow-empty', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': '// nothing here yet\n' });
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes', '--allow-deletes');
      expect(r.code).toBe(5);
      expect(r.stderr).toContain(
        'the project declares no resources, and the plan would delete all 1 it owns',
      );
      expect(r.stderr).toContain('--allow-empty');
    });
    expect((await run('deploy', '--yes', '--allow-deletes', '--allow-empty')).code).toBe(0);
    expect((await h.client.checkGroups.list()).items).toEqual([]);
  });
});

describe('4. loading always ends, and never silently', () => {
  it.each([
    ['a top-level await that never settles', 'await new Promise(() => {});', 'never finished loading'],
    ['process.exit(0)', 'process.exit(0);', 'called process.exit(0) while loading'],
  ])('%s: exit 3 naming the file, for validate, diff and deploy', async (_what, line, message) => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': IMPORTS + group('g', 'G'),
      'b.monitor.ts': `${IMPORTS}${group('h', 'H')}${line}\n`,
    });
    await changesNothing(h, dir, async () => {
      for (const args of [['validate'], ['diff'], ['deploy', '--yes', '--allow-deletes']]) {
        const r = await run(...args);
        expect(r.code).toBe(3);
        expect(`${r.stdout}${r.stderr}`).toContain(`b.monitor.ts ${message}`);
      }
    });
  });

  // Line 3 of b.monitor.ts (after the import and the group) holds the process.exit call.
  const exitLine = 3;
  const noStack = (text: string) => {
    expect(text).not.toContain('ExitWhileLoading');
    expect(text).not.toMatch(/^\s+at /m);
  };

  it('process.exit from a timer that fires while loading: exit 3 naming the file and line, nothing done', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': IMPORTS + group('g', 'G'),
      // Timers of one delay fire in order: the exit first, while the file still awaits.
      'b.monitor.ts': `${IMPORTS}${group('h', 'H')}setTimeout(() => process.exit(1), 0);\nawait new Promise((resolve) => setTimeout(resolve, 0));\n`,
    });
    await changesNothing(h, dir, async () => {
      for (const args of [['validate'], ['diff'], ['deploy', '--yes', '--allow-deletes']]) {
        const r = await run(...args);
        expect(r.code, r.stderr).toBe(3);
        const output = `${r.stdout}${r.stderr}`;
        expect(output).toContain(`b.monitor.ts:${exitLine}:`);
        expect(output).toContain('b.monitor.ts called process.exit(1) while loading: nothing was done');
        noStack(output);
      }
    });
  });

  it('process.exit from a timer mid-deploy is refused: the deploy finishes, then exit 3 naming the file and line', async () => {
    // The timer is set when the deploy sends its first create (undici announces each request).
    const exitOnFirstCreate = `import { channel } from 'node:diagnostics_channel';
let armed = false;
channel('undici:request:create').subscribe((message) => {
  if (armed || (message as { request: { method: string } }).request.method !== 'POST') return;
  armed = true;
  setTimeout(() => process.exit(0), 0);
});\n`;
    const { h, dir } = await setup({
      'a.monitor.ts': IMPORTS + group('g', 'G') + group('g2', 'G2'),
      'b.monitor.ts': `${IMPORTS}${group('h', 'H')}${exitOnFirstCreate}`,
    });
    const r = await monitor(['deploy', '--yes', '--json'], { cwd: dir, env: h.env });
    expect(r.code, r.stderr).toBe(3);
    const envelope = JSON.parse(r.stdout);
    expect(envelope.error.code).toBe('process_exit');
    expect(envelope.error.message).toMatch(
      /^b\.monitor\.ts:8:\d+ called process\.exit\(0\) after it had loaded \(from a timer or a callback\)/,
    );
    noStack(r.stderr);
    // Nothing was cut short: every group was created and recorded.
    expect((await h.client.checkGroups.list()).items.map((g) => g.name).sort()).toEqual(['G', 'G2', 'H']);
    expect(Object.keys(JSON.parse(stateText(dir) ?? '{}').resources).sort()).toEqual([
      'CheckGroup:g',
      'CheckGroup:g2',
      'CheckGroup:h',
    ]);
  });

  it('process.exit from a timer that fires once the command is done: exit 3 naming the file and line', async () => {
    const { dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}${group('g', 'G')}setTimeout(() => process.exit(0), 0);\n`,
    });
    const r = await run('validate');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`a.monitor.ts:${exitLine}:`);
    // Whether it fires while loading or after, the answer names the call.
    expect(r.stderr).toContain('a.monitor.ts');
    expect(r.stderr).toContain('called process.exit(0)');
    noStack(r.stderr);
    expect(existsSync(join(dir, '.monitor', 'state'))).toBe(false);
  });
});

describe('5. secret hashes that cannot be recovered from the repository', () => {
  it('a six-digit PIN cannot be guessed from the state file: no hash of it that the file alone reproduces', async () => {
    const pin = '042917';
    const { h, dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'PIN', value: '${pin}', secret: true }] });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    const text = JSON.stringify(state);
    expect(text).not.toContain(pin);
    expect(text).not.toContain(h.env.MONITOR_STATE_SECRET);
    expect(state.resources['CheckGroup:g'].secretHashes['environmentVariables[PIN].value']).toMatch(
      /^hmac-sha256:[0-9a-f]{64}$/,
    );
    // Every hex string in state, with and without its prefix.
    const stored = new Set([...text.matchAll(/[0-9a-f]{32,64}/g)].map((m) => m[0]));
    expect(stored.size).toBeGreaterThan(0);
    // A brute force of all 10^6 PINs finds the PIN only if one of these, computed from the file
    // alone, is in the file for the true PIN; checking the true PIN is that search without the
    // 999,999 misses.
    const salt: string = state.salt;
    const unkeyed = [
      createHash('sha256').update(salt).update('\u0000').update(pin).digest('hex'),
      createHash('sha256').update(`${salt}${pin}`).digest('hex'),
      createHash('sha256').update(`${pin}${salt}`).digest('hex'),
      createHash('sha256').update(pin).digest('hex'),
      createHmac('sha256', salt).update(pin).digest('hex'),
      createHmac('sha256', salt).update('\u0000').update(pin).digest('hex'),
      createHmac('sha256', '').update(salt).update('\u0000').update(pin).digest('hex'),
    ];
    for (const c of unkeyed) {
      expect(stored.has(c)).toBe(false);
      expect(stored.has(c.slice(0, 32))).toBe(false);
    }
  });

  it('without MONITOR_STATE_SECRET, masked secrets are sent again and the plan says why; nothing is hashed; no change for a drift check', async () => {
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'TOKEN', value: 't', secret: true }] });\n`,
    });
    const env = { ...h.env, MONITOR_STATE_SECRET: '' };
    const run = (...args: string[]) => monitor(args, { cwd: dir, env });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.resources['CheckGroup:g'].secretHashes).toEqual({});
    const diff = await run('diff', '--detailed-exitcode');
    // Sent again by a deploy, but no change a drift check reports (exit 0).
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('sent again: CheckGroup g: environmentVariables[TOKEN].value');
    expect(diff.stdout).toContain('Set MONITOR_STATE_SECRET');
  });
});

describe('6. state integrity', () => {
  it('two state entries claiming one resource: a load error naming both, nothing written', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('a', 'A') + group('b', 'B') });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    state.resources['CheckGroup:b'].physicalId = state.resources['CheckGroup:a'].physicalId;
    writeFileSync(stateFile(dir), JSON.stringify(state, null, 2));
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/has two entries for CheckGroup id \d+: "CheckGroup:a" and "CheckGroup:b"/);
      // The way out, from the CLI: the hint names the command that repairs the state.
      expect(r.stderr).toContain(
        'hint: remove the entry that does not belong with monitor state rm "CheckGroup:b"',
      );
    });
  });

  it('protect: true added to an unchanged construct is recorded, and destroy then keeps the resource', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': IMPORTS + group('g', 'G', '', '{ protect: true }') });
    const writes = h.writes().length;
    const deploy = await run('deploy', '--yes');
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toContain('Recorded in state, no call: CheckGroup:g protect: true');
    expect(h.writes().length).toBe(writes);
    expect(JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources['CheckGroup:g'].protect).toBe(true);
    expect((await run('destroy', '--yes', '--allow-deletes')).code).toBe(0);
    expect((await h.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['G']);
  });

  it('duplicate env-var keys in one group are a validation error at the line', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'A', value: '1' }, { key: 'A', value: '2' }] });\n`,
    });
    await changesNothing(h, dir, async () => {
      const r = await run('validate');
      expect(r.code).toBe(3);
      expect(r.stdout).toContain(
        'a.monitor.ts:2:34  error  CheckGroup "g"  environmentVariables: key "A" appears more than once',
      );
    });
  });
});

describe('7. plans that read well', () => {
  it('references by logical id, names beside logical ids, line-by-line strings, hints with the flags of the run', async () => {
    const project = (extra: boolean, description: string) =>
      `${IMPORTS}const mail = new EmailAlertChannel('mail', { address: 'a@acme.example' });\n${extra ? "const extra = new EmailAlertChannel('extra-mail', { address: 'b@acme.example' });\n" : ''}new CheckGroup('g', { name: 'G', alertChannels: [mail${extra ? ', extra' : ''}] });\nnew StatusPage('p', { name: 'P', url: 'acme-p', description: ${JSON.stringify(description)} });\n`;
    const long = 'All systems operational across every region we serve, mostly, on most days of the week';
    const { dir, run } = await setup({ 'a.monitor.ts': project(false, long) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, {
      'a.monitor.ts': project(true, long.replace('mostly, on most days', 'always, on every day')),
    });
    const diff = await run('diff', '--out', 'plan.json');
    expect(diff.stdout).toContain('+ AlertChannel extra-mail "b@acme.example"');
    expect(diff.stdout).toContain(
      'alertChannelSubscriptions[extra-mail]: null → {"alertChannelId":"AlertChannel:extra-mail","activated":true}',
    );
    expect(diff.stdout).not.toContain('[object Object]');
    expect(diff.stdout).not.toContain('$ref');
    // One line out, one line in: not word by word.
    expect(diff.stdout).toContain(`      -${long}\n`);
    expect(diff.stdout).toContain(`      +${long.replace('mostly, on most days', 'always, on every day')}\n`);
    expect(diff.stdout).toContain('~ CheckGroup g "G" (id ');
    const json = JSON.parse((await run('diff', '--json')).stdout);
    const paths = json.plan.operations.flatMap((op: { changes?: { path: string }[] }) => op.changes ?? []);
    expect(paths.map((c: { path: string }) => c.path)).toContain('alertChannelSubscriptions[extra-mail]');
    expect(diff.stdout).toContain('apply exactly it with: monitor deploy --plan plan.json\n');
    const local = await monitor(['diff', '--local', '--out', 'plan.json'], { cwd: dir });
    expect(local.stdout).toContain('monitor deploy --plan plan.json --local');
  });

  it('the credentials hint speaks to a CLI user: environment variables and --local', async () => {
    const { dir } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    const r = await monitor(['diff'], {
      cwd: dir,
      env: { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '', MONITOR_BASE_URL: '' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: MONITOR_API_KEY is not set');
    expect(r.stderr).toContain('export MONITOR_API_KEY in your shell or set it as a CI secret');
    expect(r.stderr).toContain('--local');
    expect(r.stderr).not.toContain('createClient');
  });
});

describe('9. validation gaps', () => {
  it('each bad value is an error at its line and column, naming the expected form', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': `import { MaintenanceWindow, SlackAlertChannel, WebhookAlertChannel } from '@monitor/constructs';
new MaintenanceWindow('tz', { name: 'TZ', startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T12:00:00Z', timezone: 'Mars/Olympus' });
new MaintenanceWindow('ends', { name: 'Ends', startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T12:00:00Z', repeatUnit: 'DAY', repeatEndsAt: '2026-11-01T00:00:00Z' });
new MaintenanceWindow('unit', { name: 'Unit', startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T12:00:00Z', repeatInterval: 2 });
new MaintenanceWindow('date', { name: 'Date', startsAt: new Date('next tuesday'), endsAt: '2026-12-01T12:00:00Z' });
new SlackAlertChannel('js', { url: 'javascript:alert(1)' });
new WebhookAlertChannel('ftp', { name: 'F', url: 'ftp://files.acme.example/hook' });
`,
    });
    await changesNothing(h, dir, async () => {
      const r = await run('validate');
      expect(r.code).toBe(3);
      expect(r.stdout).toContain(
        'a.monitor.ts:2:109  error  MaintenanceWindow "tz"  timezone: must be an IANA time zone',
      );
      expect(r.stdout).toContain(
        'a.monitor.ts:3:132  error  MaintenanceWindow "ends"  repeatEndsAt: must be after startsAt',
      );
      expect(r.stdout).toContain(
        'a.monitor.ts:4:113  error  MaintenanceWindow "unit"  repeatInterval: needs repeatUnit',
      );
      expect(r.stdout).toContain(
        'a.monitor.ts:5:47  error  MaintenanceWindow "date"  startsAt: must be an ISO 8601 date or date-time',
      );
      expect(r.stdout).toContain(
        'a.monitor.ts:6:31  error  SlackAlertChannel "js"  url: must be an http(s) URL',
      );
      expect(r.stdout).toContain(
        'a.monitor.ts:7:45  error  WebhookAlertChannel "ftp"  url: must be an http(s) URL',
      );
    });
  });

  it.each(['abc', '0', '-1', '2.5'])(
    '--parallelism %s: a usage error naming the option, nothing done',
    async (value) => {
      const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
      await changesNothing(h, dir, async () => {
        const r = await run('deploy', '--yes', '--parallelism', value);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`--parallelism must be a whole number of at least 1, got "${value}"`);
      });
    },
  );

  it("a helper called twice names each caller; a library's construct names the user's call site", async () => {
    const { h, dir, run } = await setup({
      'helpers.ts': `import { CheckGroup } from '@monitor/constructs';\nexport function team(id: string, location: string) {\n  return new CheckGroup(id, { name: id, locations: [location as 'eu-west-1'] });\n}\n`,
      'a.monitor.ts': `import { team } from './helpers';\nimport { standardGroup } from 'acme-monitors';\nteam('alpha', 'mars-1');\nteam('beta', 'venus-1');\nstandardGroup('lib', 'jupiter-1');\n`,
      'node_modules/acme-monitors/package.json': JSON.stringify({
        name: 'acme-monitors',
        type: 'module',
        main: 'index.js',
      }),
      'node_modules/acme-monitors/index.js': `import { CheckGroup } from '@monitor/constructs';\nexport function standardGroup(id, location) {\n  return new CheckGroup(id, { name: id, locations: [location] });\n}\n`,
    });
    await changesNothing(h, dir, async () => {
      const r = await run('validate');
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /helpers\.ts:3:\d+ {2}error {2}CheckGroup "alpha".*\n {4}called from a\.monitor\.ts:3:1/,
      );
      expect(r.stdout).toMatch(
        /helpers\.ts:3:\d+ {2}error {2}CheckGroup "beta".*\n {4}called from a\.monitor\.ts:4:1/,
      );
      expect(r.stdout).toMatch(
        /node_modules\/acme-monitors\/index\.js:3:\d+ {2}error {2}CheckGroup "lib".*\n {4}called from a\.monitor\.ts:5:1/,
      );
    });
  });
});

describe('10. clean failures', () => {
  it('Ctrl-C or Ctrl-D at the confirmation prompt: exit 5, nothing was changed, no stack', async () => {
    const { h, dir } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    await changesNothing(h, dir, async () => {
      let err = '';
      const io: Io = {
        stdout: () => {},
        stderr: (t) => {
          err += t;
        },
        color: false,
        interactive: true,
        cwd: dir,
        env: h.env,
        prompt: async () => undefined,
      };
      expect(await main(['deploy'], io)).toBe(5);
      expect(err).toContain('Cancelled (no answer): nothing was changed.');
      expect(err).not.toMatch(/\n\s+at /);
    });
  });

  it('state.path under a regular file: a coded error with a hint, no stray temp file', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': IMPORTS + group('g', 'G'),
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'e2e', state: { path: 'blocker/state' } });\n`,
      blocker: 'a file, not a directory\n',
    });
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes', '--json');
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out.error.code).toBe('state_storage');
      expect(out.error.message).toContain('a part of the path is a file, not a directory (ENOTDIR)');
      expect(out.error.hint).toContain('point state.path in monitor.config.ts at a directory');
    });
  });

  it('a full disk while recording: a coded error, the earlier record kept, no stray temp file', async () => {
    const { dir } = await setup({});
    const stateDir = join(dir, 'state');
    let full = false;
    const fs: StateFs = {
      ...nodeFs,
      writeSync: ((...args: Parameters<typeof nodeFs.writeSync>) => {
        if (full)
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return (nodeFs.writeSync as (...a: unknown[]) => number)(...args);
      }) as typeof nodeFs.writeSync,
    };
    const backend = new FileStateBackend(stateDir, DEV_ACCOUNT_ID, fs);
    const state = await backend.read();
    const entry = (id: number) => ({
      kind: 'CheckGroup' as const,
      logicalId: `g${id}`,
      physicalId: id,
      appliedHash: 'h',
      secretHashes: {},
      protect: false,
    });
    await backend.record(state, { 'CheckGroup:g1': entry(1) });
    full = true;
    const error = (await backend.record(state, { 'CheckGroup:g2': entry(2) }).catch((e: unknown) => e)) as {
      code: string;
      message: string;
      hint: string;
    };
    expect(error.code).toBe('state_storage');
    expect(error.message).toContain('the disk is full (ENOSPC)');
    expect(error.hint).toContain('everything done before this is recorded');
    const commit = (await backend.commit(state).catch((e: unknown) => e)) as { code: string };
    expect(commit.code).toBe('state_storage');
    await backend.close();
    expect(strayTempFiles(dir)).toEqual([]);
    const read = await new FileStateBackend(stateDir, DEV_ACCOUNT_ID).read();
    expect(Object.keys(read.resources)).toEqual(['CheckGroup:g1']);
  });

  it('a corrupt .monitor/local data file: a coded error with a hint, the file left as it was', async () => {
    const { dir } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    mkdirSync(join(dir, '.monitor', 'local'), { recursive: true });
    writeFileSync(join(dir, '.monitor', 'local', 'emulator.json'), '{"broken');
    const r = await monitor(['deploy', '--local', '--yes', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.error.code).toBe('emulator_data');
    expect(out.error.hint).toContain('move it away');
    expect(readFileSync(join(dir, '.monitor', 'local', 'emulator.json'), 'utf8')).toBe('{"broken');
    expect(strayTempFiles(dir)).toEqual([]);
  });

  it('a server that hangs: the timeout error names --timeout, which exists', async () => {
    const { h, dir } = await setup(
      { 'a.monitor.ts': IMPORTS + group('g', 'G') },
      { faults: { latencyMs: 3000 } },
    );
    await changesNothing(h, dir, async () => {
      const r = await monitor(['diff', '--timeout', '0.5'], { cwd: dir, env: h.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('no response headers within 500 ms');
      expect(r.stderr).toContain('pass --timeout SECONDS');
    });
  });

  it('a MONITOR_BASE_URL that answers 404: diff and whoami say the base URL is probably wrong, not that something was deleted', async () => {
    const { h, dir } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    const env = { ...h.env, MONITOR_BASE_URL: `${h.env.MONITOR_BASE_URL}/api` };
    await changesNothing(h, dir, async () => {
      const diff = await monitor(['diff'], { cwd: dir, env });
      expect(diff.code).toBe(1);
      expect(diff.stderr).toMatch(
        /hint: http:\/\/127\.0\.0\.1:\d+\/api has no \/v1\/[a-z-]+: the base URL is probably wrong/,
      );
      expect(diff.stderr).not.toContain('deleted outside monitor');
      const whoami = await monitor(['whoami'], { cwd: dir, env });
      expect(whoami.code).toBe(1);
      expect(whoami.stderr).toContain('has no /v1/check-groups: the base URL is probably wrong');
    });
  });

  it('--config naming a directory says so', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    await changesNothing(h, dir, async () => {
      const r = await run('deploy', '--yes', '--config', '.');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is a directory, not a config file');
      expect(r.stderr).toContain(`name the file itself: ${join(dir, 'monitor.config.ts')}`);
    });
  });

  it('--config on a symlink loop or a dangling link says so, not "does not exist"', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    nodeFs.symlinkSync('loop-b.ts', join(dir, 'loop-a.ts'));
    nodeFs.symlinkSync('loop-a.ts', join(dir, 'loop-b.ts'));
    nodeFs.symlinkSync('gone.ts', join(dir, 'dangling.ts'));
    await changesNothing(h, dir, async () => {
      const loop = await run('deploy', '--yes', '--config', 'loop-a.ts');
      expect(loop.code).toBe(1);
      expect(loop.stderr).toContain(`config file ${join(dir, 'loop-a.ts')} is a symlink loop`);
      const dangling = await run('diff', '--config', 'dangling.ts');
      expect(dangling.code).toBe(1);
      expect(dangling.stderr).toContain(
        `config file ${join(dir, 'dangling.ts')} is a symlink to a file that does not exist`,
      );
    });
  });

  it('a state URL of another database is refused before anything is read, naming its scheme; a path is a state directory', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
    await changesNothing(h, dir, async () => {
      const r = await monitor(['diff'], {
        cwd: dir,
        env: { ...h.env, MONITOR_STATE_URL: 'mysql://ops:hunter2@db.internal/monitor' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'the state URL mysql://ops:***@db.internal/monitor has the scheme mysql:, where monitor cannot keep state',
      );
      expect(r.stderr).not.toContain('hunter2');
      const migrate = await run('state', 'migrate', '--to', 'mysql://db.internal/monitor');
      expect(migrate.code).toBe(1);
      expect(migrate.stderr).toContain('has the scheme mysql:');
      expect(existsSync(join(dir, 'mysql:'))).toBe(false);
    });
    const elsewhere = await monitor(['deploy', '--yes'], {
      cwd: dir,
      env: { ...h.env, MONITOR_STATE_URL: 'shared-state' },
    });
    expect(elsewhere.code).toBe(0);
    expect(existsSync(join(dir, 'shared-state', `${DEV_ACCOUNT_ID}.json`))).toBe(true);
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a plan saved to a full disk: the file and the cause, no stack',
    async () => {
      const { h, dir, run } = await setup({ 'a.monitor.ts': IMPORTS + group('g', 'G') });
      await changesNothing(h, dir, async () => {
        const r = await run('diff', '--out', '/dev/full');
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
          'error: cannot write the plan to /dev/full: the disk is full (ENOSPC)\nhint: free some space on the disk that holds /dev, then run the command again\n',
        );
      });
    },
  );

  it('monitor emulator --port or --agent-health-port busy or out of range: exit 1 at once with a hint', async () => {
    const port = await busyPort();
    for (const [args, message] of [
      [['--port', String(port)], `port ${port} on 127.0.0.1 is already in use`],
      [
        ['--port', '0', '--agent-health-port', String(port)],
        `agent health port ${port} on 127.0.0.1 is already in use`,
      ],
      [['--port', '70000'], 'port 70000 is not a port number'],
      [['--port', '0', '--agent-health-port', '70000'], 'agent health port 70000 is not a port number'],
    ] as const) {
      const r = await monitor(['emulator', ...args], { cwd: process.cwd() });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('hint:');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
