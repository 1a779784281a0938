// `monitor state` on the file backend: list, show, mv, rm, pull and push, with their errors.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', protect: true });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const list = await run('state', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/CheckGroup:g\s+1\s+protected\s+\d/);
    const json = JSON.parse((await run('state', 'list', '--json')).stdout);
    expect(json.result.entries).toMatchObject([{ key: 'CheckGroup:g', physicalId: 1, protect: true }]);
    const show = await run('state', 'show', 'CheckGroup:g');
    expect(show.stdout).toContain('physical id   1');
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
  });
});
