// `monitor state` on the file backend: list, show, mv, rm, pull and push, with their errors.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { describe, expect, it } from 'vitest';
import { writeFiles } from './support/harness.js';
import { IMPORTS, projectsUnderTest } from './support/projects.js';

const setup = projectsUnderTest();
const stateFile = (dir: string) => join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.json`);

describe('monitor state', () => {
  it('lists and shows entries, in text and --json', async () => {
    const { run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G' }, { protect: true });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const list = await run('state', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/CheckGroup:g\s+1\s+G\s+protected\s+\d/);
    const json = JSON.parse((await run('state', 'list', '--json')).stdout);
    expect(json.result.entries).toMatchObject([{ key: 'CheckGroup:g', physicalId: 1, protect: true }]);
    const show = await run('state', 'show', 'CheckGroup:g');
    expect(show.stdout).toMatch(/physical id:\s+1\n/);
    const missing = await run('state', 'show', 'CheckGroup:nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no entry "CheckGroup:nope" in the state');
  });

  it('mv renames an entry: with the construct renamed too, diff says No changes and nothing is recreated', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('old', { name: 'G' });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const wrong = await run('state', 'mv', 'CheckGroup:old', 'StatusPage:new');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('must be a CheckGroup:logical-id');
    expect((await run('state', 'mv', 'CheckGroup:old', 'CheckGroup:new')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': `${IMPORTS}new CheckGroup('new', { name: 'G' });\n` });
    const writes = h.writes().length;
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    expect(h.writes().length).toBe(writes);
  });

  it('rm forgets an entry and leaves the resource; the construct is then a conflict', async () => {
    const { h, run } = await setup({ 'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G' });\n` });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const rm = await run('state', 'rm', 'CheckGroup:g');
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain('the resource stays in the account');
    expect((await h.client.checkGroups.list()).items).toHaveLength(1);
    const diff = await run('diff');
    expect(diff.code).toBe(3);
    expect(diff.stdout).toContain('already exists in the account');
  });

  it('pull then push round-trips; a push over a moved state is refused (exit 4) unless --force', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G' });\n` });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const pulled = await run('state', 'pull');
    writeFileSync(join(dir, 'state.json'), pulled.stdout);
    expect((await run('state', 'push', 'state.json')).code).toBe(0);
    const before = readFileSync(stateFile(dir), 'utf8');
    // Someone deploys meanwhile: the pulled copy is behind.
    writeFiles(dir, {
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G' });\nnew CheckGroup('h', { name: 'H' });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const moved = readFileSync(stateFile(dir), 'utf8');
    expect(moved).not.toBe(before);
    const stale = await run('state', 'push', 'state.json');
    expect(stale.code).toBe(4);
    expect(stale.stderr).toMatch(
      /the state moved since state.json was pulled \(serial \d+ → \d+\); nothing was pushed/,
    );
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(moved);
    expect((await run('state', 'push', 'state.json', '--force')).code).toBe(0);
    const bad = await run('state', 'push', 'a.monitor.ts');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not valid JSON');
  });

  it('needs an account, and unlock needs --force', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': IMPORTS });
    const { monitor } = await import('./support/harness.js');
    const noAccount = await monitor(['state', 'list'], { cwd: dir, env: { MONITOR_ACCOUNT_ID: '' } });
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toContain('MONITOR_ACCOUNT_ID is not set');
    const unlock = await run('state', 'unlock');
    expect(unlock.code).toBe(1);
    expect(unlock.stderr).toContain('it needs --force');
    // A lock file left by a run on another machine: cleared with --force.
    mkdirSync(join(dir, '.monitor', 'state'), { recursive: true });
    const lock = join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.lock`);
    writeFileSync(
      lock,
      JSON.stringify({
        pid: 4242,
        host: 'ci-7',
        startedAt: '2026-11-22T10:00:00Z',
        command: 'monitor deploy',
      }),
    );
    const cleared = await run('state', 'unlock', '--force');
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('cleared the lock of monitor deploy (pid 4242 on ci-7');
    expect(existsSync(lock)).toBe(false);
    // An empty lock file (a run whose disk filled while it took the lock): unlock says what it removed.
    writeFileSync(lock, '');
    const emptied = await run('state', 'unlock', '--force');
    expect(emptied.code).toBe(0);
    expect(emptied.stdout).toContain(
      `removed the lock file ${lock}, which named no run (empty or unreadable)`,
    );
    expect((await run('state', 'unlock', '--force')).stdout).toContain('The state was not locked.');
  });

  it('an empty lock file left by a full disk is taken over once it is a few seconds old, and the run says so', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G' });\n` });
    mkdirSync(join(dir, '.monitor', 'state'), { recursive: true });
    const lock = join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.lock`);
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const deployed = await run('deploy', '--yes');
    expect(deployed.code).toBe(0);
    expect(deployed.stderr).toContain(`Removed the lock file ${lock}, which has named no run for`);
    expect(existsSync(lock)).toBe(false);
  });

  it('a damaged state never wedges the project: push refuses to write one, and list, pull, rm and push --force repair one written by hand', async () => {
    const files = {
      'a.monitor.ts': `${IMPORTS}new CheckGroup('a', { name: 'A' });\nnew CheckGroup('b', { name: 'B' });\n`,
    };
    const { h, dir, run } = await setup(files);
    expect((await run('deploy', '--yes')).code).toBe(0);
    const good = (await run('state', 'pull')).stdout;
    writeFileSync(join(dir, 'good.json'), good);
    const damaged = JSON.parse(good);
    damaged.resources['CheckGroup:b'].physicalId = damaged.resources['CheckGroup:a'].physicalId;
    writeFileSync(join(dir, 'damaged.json'), JSON.stringify(damaged));

    // push runs the integrity checks of a load before it writes: refused, with --force too.
    const before = readFileSync(stateFile(dir), 'utf8');
    for (const force of [[], ['--force']]) {
      const push = await run('state', 'push', 'damaged.json', ...force);
      expect(push.code).toBe(1);
      expect(push.stderr).toMatch(
        /has two entries for CheckGroup id \d+: "CheckGroup:a" and "CheckGroup:b"; nothing was pushed/,
      );
    }
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(before);

    // Damaged by hand: diff and deploy refuse, naming the command that repairs it.
    writeFileSync(stateFile(dir), JSON.stringify(damaged));
    const diff = await run('diff');
    expect(diff.code).toBe(1);
    expect(diff.stderr).toContain(
      'hint: remove the entry that does not belong with monitor state rm "CheckGroup:b"',
    );
    // list and pull still work, and say what is wrong.
    const list = await run('state', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('damaged: has two entries for CheckGroup id');
    expect(JSON.parse((await run('state', 'list', '--json')).stdout).result.problems).toHaveLength(1);
    expect((await run('state', 'pull')).code).toBe(0);
    // push --force of a good file repairs it; so does rm of the wrong entry.
    expect((await run('state', 'push', 'good.json', '--force')).code).toBe(0);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    writeFileSync(stateFile(dir), JSON.stringify(damaged));
    expect((await run('state', 'rm', 'CheckGroup:b')).code).toBe(0);
    const after = await run('diff');
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('already exists in the account');
    expect((await h.client.checkGroups.list()).items.map((g) => g.name).sort()).toEqual(['A', 'B']);
  });

  it('a state file entry filed under another key than its kind and logical id is refused by push', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': `${IMPORTS}new CheckGroup('a', { name: 'A' });\n` });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const state = JSON.parse((await run('state', 'pull')).stdout);
    state.resources['CheckGroup:steal'] = state.resources['CheckGroup:a'];
    delete state.resources['CheckGroup:a'];
    writeFileSync(join(dir, 'edited.json'), JSON.stringify(state));
    const push = await run('state', 'push', 'edited.json', '--force');
    expect(push.code).toBe(1);
    expect(push.stderr).toContain('entry "CheckGroup:steal" records CheckGroup:a');
  });

  it('state belongs to one service: another server with the same account id is refused before anything is read or deleted there', async () => {
    const files = { 'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'Ours' });\n` };
    const { dir, run } = await setup(files);
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect(JSON.parse(readFileSync(stateFile(dir), 'utf8')).service).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Another server, whose group 1 is someone else's.
    const { emulatorForTests, monitor } = await import('./support/harness.js');
    const other = await emulatorForTests();
    try {
      await other.client.checkGroups.create({ name: 'Theirs' });
      for (const command of [
        ['destroy', '--yes', '--allow-deletes'],
        ['deploy', '--yes', '--allow-empty'],
        ['diff'],
      ]) {
        const r = await monitor(command, { cwd: dir, env: other.env });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /was written against http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:\d+/,
        );
        expect(r.stderr).toContain('monitor state rebind');
      }
      expect((await other.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['Theirs']);
      // The same service at a new address: rebind lists what each id holds there, and needs --yes
      // off a terminal. Group 1 there is "Theirs", not "Ours": forgotten, never touched.
      const refused = await monitor(['state', 'rebind'], { cwd: dir, env: other.env });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain('state rebind needs --yes');
      const rebind = await monitor(['state', 'rebind', '--yes'], { cwd: dir, env: other.env });
      expect(rebind.code).toBe(0);
      expect(rebind.stdout).toMatch(
        /− CheckGroup:g \(id 1, name:Ours; there: name:Theirs\): forgotten: another resource is at its id there/,
      );
      const rebound = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
      expect(rebound.service).toBe(other.env.MONITOR_BASE_URL);
      expect(rebound.resources).toEqual({});
      const destroy = await monitor(['destroy', '--yes', '--allow-deletes'], { cwd: dir, env: other.env });
      expect(destroy.code).toBe(0);
      expect((await other.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['Theirs']);
      expect(other.writes().filter((w) => w.method === 'DELETE')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('rebind re-points only what is the same there: a nameless Slack channel is never taken for the email channel at its id', async () => {
    const files = {
      'a.monitor.ts': `import { CheckGroup, EmailAlertChannel, SlackAlertChannel } from '@monitor/constructs';
const slack = new SlackAlertChannel('slack', { url: 'https://hooks.slack.com/services/T0/B0/x' });
const mail = new EmailAlertChannel('mail', { address: 'ours@example.com' });
new CheckGroup('g', { name: 'Ours', alertChannels: [slack, mail] });
`,
    };
    const { dir, run } = await setup(files);
    expect((await run('deploy', '--yes')).code).toBe(0);
    const recorded = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(recorded.resources['AlertChannel:slack'].identity).toMatch(/^v2 \{"type":"SLACK","created":"/);
    const { emulatorForTests, monitor } = await import('./support/harness.js');
    const other = await emulatorForTests();
    try {
      // There, the Slack channel's id holds someone else's email channel, the email channel's id
      // another email channel, and group 1 a group named "Ours".
      const ids = [recorded.resources['AlertChannel:slack'], recorded.resources['AlertChannel:mail']];
      for (const e of [...ids].sort((a, b) => a.physicalId - b.physicalId)) {
        const address = e === ids[0] ? 'a@them.example' : 'b@them.example';
        const made = await other.client.alertChannels.create({ type: 'EMAIL', config: { address } });
        expect(made.id).toBe(e.physicalId);
      }
      await other.client.checkGroups.create({ name: 'Ours' });
      const rebind = await monitor(['state', 'rebind', '--yes', '--json'], { cwd: dir, env: other.env });
      expect(rebind.code).toBe(0);
      const entries = JSON.parse(rebind.stdout).result.rebound.entries as { key: string; status: string }[];
      // Another type, or another address (made within the same second, a rename cannot be told
      // from a stranger), is forgotten. Groups carry a creation date alone: a group of the same name
      // made that day passes.
      expect(Object.fromEntries(entries.map((e) => [e.key, e.status]))).toEqual({
        'AlertChannel:slack': 'other',
        'AlertChannel:mail': 'other',
        'CheckGroup:g': 'same',
      });
      const destroy = await monitor(['destroy', '--yes', '--allow-deletes'], { cwd: dir, env: other.env });
      expect(destroy.code).toBe(0);
      // Both channel entries were forgotten: the email channels at their ids are still there.
      expect((await other.client.alertChannels.list()).items).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
