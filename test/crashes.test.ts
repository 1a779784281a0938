import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { FileStateBackend } from '@monitor/engine';
import { describe, expect, it } from 'vitest';
import { monitor } from './support/harness.js';
import { type Harness, IMPORTS, projectsUnderTest } from './support/projects.js';

// Apart from deploy.test.ts so that the two run in parallel: these wait out injected faults.
const setup = projectsUnderTest();

describe('faults and crashes', () => {
  const many = (n: number) => {
    let out = `${IMPORTS}\n`;
    for (let i = 0; i < n; i++) {
      out += `new CheckGroup('g${i}', { name: 'Group ${i}', tags: ['bulk'] });\n`;
      if (i % 4 === 0) out += `new EmailAlertChannel('c${i}', { address: 'c${i}@acme.example' });\n`;
    }
    return out;
  };

  /** `monitor deploy --yes` killed with SIGKILL as soon as `when()` holds. */
  async function deployKilledWhen(
    dir: string,
    env: Record<string, string>,
    args: string[],
    when: () => boolean | Promise<boolean>,
  ) {
    let killed = false;
    const result = await monitor(['deploy', '--yes', ...args], {
      cwd: dir,
      env,
      onSpawn: (child) => {
        void (async () => {
          while (child.exitCode === null && !(await when())) await sleep(5);
          killed = child.kill('SIGKILL');
        })();
      },
    });
    expect(killed).toBe(true);
    expect(result.code).toBe(null);
  }

  async function exactlyDeclared(h: Harness, groupsWanted: number, channelsWanted: number) {
    const groups = await h.client.checkGroups.all();
    const names: string[] = [];
    for await (const g of groups) names.push(g.name);
    expect(names.length).toBe(groupsWanted);
    expect(new Set(names).size).toBe(groupsWanted);
    const channels: string[] = [];
    for await (const c of h.client.alertChannels.all())
      channels.push(String((c.config as { address?: string }).address));
    expect(channels.length).toBe(channelsWanted);
    expect(new Set(channels).size).toBe(channelsWanted);
  }

  it('a 200-resource deploy under 10% 429, 10% 503 and a dropped connection after every 5th POST converges with no duplicates', async () => {
    const { h, run } = await setup(
      { 'a.monitor.ts': many(160) },
      {
        faults: {
          seed: 7,
          rateLimitRate: 0.1,
          serverErrorRate: 0.1,
          dropAfterProcessing: [{ method: 'POST', every: 5 }],
        },
      },
    );
    const runs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await run('deploy', '--yes', '--allow-deletes');
      runs.push(r.code ?? -1);
      // Either done or a clean failure with the result table.
      if (r.code !== 0) expect(r.stdout).toContain('run the same command again to continue');
      if (r.code === 0) break;
    }
    expect(runs.at(-1)).toBe(0);
    expect(h.emulator.requests.some((r) => r.fault === 'injected 429')).toBe(true);
    expect(h.emulator.requests.some((r) => r.status === 0)).toBe(true);
    h.emulator.app.faults.configure({});
    await exactlyDeclared(h, 160, 40);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    // Each injected 429 asks for a 1 s pause and the client honours it: about 25 s of waiting.
  });

  it('a deploy killed after a create was processed but before its answer arrived: the re-run adopts it, no twin', async () => {
    // Alert channels have no natural key: only the pending create in state can find this one again.
    const { h, dir } = await setup(
      { 'a.monitor.ts': many(12) },
      { faults: { holdAfterProcessing: [{ method: 'POST', path: '/v1/alert-channels', nth: 2, ms: 3000 }] } },
    );
    const env = h.env;
    const channels = async () => {
      let n = 0;
      for await (const _ of h.client.alertChannels.all()) n++;
      return n;
    };
    await deployKilledWhen(dir, env, ['--parallelism', '1'], async () => (await channels()) >= 2);
    const state = await new FileStateBackend(join(dir, '.monitor', 'state'), DEV_ACCOUNT_ID).read();
    expect(state.pendingCreates).toHaveLength(1);
    h.emulator.app.faults.configure({});
    const diff = await monitor(['diff'], { cwd: dir, env });
    expect(diff.stdout).toMatch(
      /= AlertChannel c\d+ "c\d+@acme.example" \(id \d+\)\s+adopt: created by an interrupted deploy/,
    );
    const second = await monitor(['deploy', '--yes'], { cwd: dir, env });
    expect(second.code).toBe(0);
    await exactlyDeclared(h, 12, 3);
    expect(
      (await new FileStateBackend(join(dir, '.monitor', 'state'), DEV_ACCOUNT_ID).read()).pendingCreates,
    ).toEqual([]);
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('a deploy killed with SIGKILL leaves state that loads, and a re-run converges with no duplicates', async () => {
    const { h, dir } = await setup({ 'a.monitor.ts': many(120) }, { faults: { latencyMs: 15 } });
    const env = h.env;
    await deployKilledWhen(
      dir,
      env,
      ['--parallelism', '4'],
      () => h.emulator.requests.filter((r) => r.method === 'POST').length >= 40,
    );
    const state = await new FileStateBackend(join(dir, '.monitor', 'state'), DEV_ACCOUNT_ID).read();
    expect(Object.keys(state.resources).length).toBeGreaterThan(0);
    expect(Object.keys(state.resources).length).toBeLessThan(150);
    const second = await monitor(['deploy', '--yes'], { cwd: dir, env });
    expect(second.code).toBe(0);
    await exactlyDeclared(h, 120, 30);
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });
});
