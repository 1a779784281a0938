import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Io, main } from '@monitor/cli';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { describe, expect, it } from 'vitest';
import { monitor, writeFiles } from './support/harness.js';
import { type Harness, IMPORTS, projectsUnderTest } from './support/projects.js';

const setup = projectsUnderTest();

/** `n` check groups `g0…`, subscribed to one email channel; `options` their third argument. */
function groups(n: number, extra = '', options = ''): string {
  let out = `${IMPORTS}export const mail = new EmailAlertChannel('mail', { address: 'ops@acme.example' });\n`;
  const third = options === '' ? '' : `, ${options}`;
  for (let i = 0; i < n; i++) {
    out += `new CheckGroup('g${i}', { name: 'Group ${i}', tags: ['t${i % 3}', 'prod'], locations: ['eu-west-1', 'us-east-1'], alertChannels: [mail]${extra} }${third});\n`;
  }
  return out;
}

const stateFile = (dir: string) => join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.json`);
const writeCount = (h: Harness) => h.writes().length;

describe('deploy then diff', () => {
  it('converges: a second diff says No changes and a second deploy writes nothing', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(3) });
    const first = await run('deploy', '--yes');
    expect(first.stderr).toContain('✓ + CheckGroup g0');
    expect(first.stdout).toMatch(/✓ Applied in .*: 4 created, 0 updated/);
    expect(first.code).toBe(0);
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.stdout).toContain('No changes. 4 resources match the code.');
    expect(diff.code).toBe(0);
    // The pages read kept their contract and were kept as such: the next diff reads them unchecked, alike.
    const responses = join(dir, '.monitor', 'cache', 'responses.json');
    const kept = readFileSync(responses, 'utf8');
    expect((JSON.parse(kept) as { keys: string[] }).keys.length).toBeGreaterThan(0);
    const keptAt = statSync(responses).mtimeMs;
    expect((await run('diff', '--detailed-exitcode')).stdout).toBe(diff.stdout);
    // Every page was known: nothing new to keep, so the file was not written again.
    expect(readFileSync(responses, 'utf8')).toBe(kept);
    expect(statSync(responses).mtimeMs).toBe(keptAt);
    const writes = writeCount(h);
    const again = await run('deploy', '--yes');
    expect(again.code).toBe(0);
    expect(writeCount(h)).toBe(writes);
    // State: ids and hashes only, sorted, no journal left behind.
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(Object.keys(state.resources)).toEqual([
      'AlertChannel:mail',
      'CheckGroup:g0',
      'CheckGroup:g1',
      'CheckGroup:g2',
    ]);
    expect(readdirSync(join(dir, '.monitor', 'state')).sort()).toEqual([`${DEV_ACCOUNT_ID}.json`]);
  });

  it('shows a field change as before → after, long text as a unified diff, and exits 2 with --detailed-exitcode', async () => {
    const page = (description: string) =>
      `${IMPORTS}const api = new StatusPageService('api', { name: 'API' });\nnew StatusPage('status', { name: 'Status', url: 'acme-e2e-status', description: ${JSON.stringify(description)}, cards: [{ name: 'Core', services: [api] }] });\n`;
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    const { dir, run } = await setup({ 'a.monitor.ts': page(lines.join('\n')) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    lines[5] = 'line five, edited';
    writeFiles(dir, { 'a.monitor.ts': page(lines.join('\n')).replace("name: 'Status'", "name: 'Status 2'") });
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain('~ StatusPage status "Status 2" (id ');
    expect(diff.stdout).toContain('name: "Status" → "Status 2"');
    expect(diff.stdout).toContain('description:');
    expect(diff.stdout).toContain('@@ -3,7 +3,7 @@');
    expect(diff.stdout).toContain('-line 5');
    expect(diff.stdout).toContain('+line five, edited');
    expect(diff.stdout).toMatch(/\(\d+ unchanged attributes hidden\)/);
    expect(diff.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to adopt, 1 unchanged.');
    const { plan: json, ...envelope } = JSON.parse((await run('diff', '--json')).stdout);
    expect(envelope).toMatchObject({
      formatVersion: 2,
      command: 'diff',
      ok: true,
      project: 'e2e',
      error: null,
    });
    expect(json.operations).toHaveLength(1);
    expect(json.operations[0]).toMatchObject({ action: 'update', kind: 'StatusPage', drift: false });
    expect(json.operations[0].changes.map((c: { path: string }) => c.path).sort()).toEqual([
      'description',
      'name',
    ]);
  });
});

describe('on a terminal', () => {
  function terminal(cwd: string, env: Record<string, string>, answer: string | undefined, writes = () => 0) {
    const io: Io & { out: string; err: string; asked: string[]; heldAfterWrites: number[] } = {
      out: '',
      err: '',
      asked: [],
      heldAfterWrites: [],
      holdLessGarbage: () => {
        io.heldAfterWrites.push(writes());
      },
      stdout: (t) => {
        io.out += t;
      },
      stderr: (t) => {
        io.err += t;
      },
      color: false,
      interactive: true,
      cwd,
      env,
      prompt: async (question) => {
        io.asked.push(question);
        return answer;
      },
    };
    return io;
  }

  it('asks before applying: anything but "yes" changes nothing (exit 5); "yes" applies', async () => {
    const { h, dir } = await setup({ 'a.monitor.ts': groups(1) });
    const writes = () => h.writes().length;
    const declined = terminal(dir, h.env, 'y', writes);
    expect(await main(['deploy'], declined)).toBe(5);
    expect(declined.asked[0]).toContain(`Apply these changes to account ${DEV_ACCOUNT_ID}?`);
    expect(declined.err).toContain('Cancelled: nothing was changed.');
    expect(h.writes()).toEqual([]);
    const accepted = terminal(dir, h.env, 'yes', writes);
    expect(await main(['deploy'], accepted)).toBe(0);
    expect(accepted.out).toContain('Plan: 2 to create');
    expect(h.writes()).toHaveLength(2);
    // The live progress line is cleared at the end, never left above the result.
    expect(accepted.err).toContain('[2/2]');
    expect(accepted.err).not.toMatch(/ops\/s[^\r]*\n/);
    // Nothing to do: no question.
    const again = terminal(dir, h.env, 'yes', writes);
    expect(await main(['deploy'], again)).toBe(0);
    expect(again.asked).toEqual([]);
    expect(again.out).toContain('No changes.');
    // V8 is asked to collect sooner once the apply is approved, before its first write; not when
    // nothing is applied, and never by the commands that only read.
    expect([declined, accepted, again].map((io) => io.heldAfterWrites)).toEqual([[], [0], []]);
    const diff = terminal(dir, h.env, undefined, writes);
    expect(await main(['diff'], diff)).toBe(0);
    expect(diff.heldAfterWrites).toEqual([]);
  });
});

describe('drift', () => {
  it('reports a change made through the API as drift, apart from code changes; deploy restores it', async () => {
    const { h, run } = await setup({ 'a.monitor.ts': groups(2) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const [g] = (await h.client.checkGroups.list()).items.filter((g) => g.name === 'Group 1');
    await h.client.checkGroups.update(Number(g?.id), { name: 'Group 1', muted: true, tags: ['changed'] });
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain('Drift: changed outside monitor');
    expect(diff.stdout).not.toContain('Changes from the code:');
    expect(diff.stdout).toContain('muted: true → false');
    const json = JSON.parse((await run('diff', '--json')).stdout).plan;
    expect(json.operations).toMatchObject([{ action: 'update', logicalId: 'g1', drift: true }]);
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    expect((await h.client.checkGroups.get(Number(g?.id))).muted).toBe(false);
  });
});

describe('ignoreChanges', () => {
  it('fields people own in the UI are set on create, then never drift and never reverted; a bad path is an error at its construct', async () => {
    const code = (ignore: string) =>
      `${IMPORTS}new CheckGroup('g', { name: 'G', muted: false }, { ignoreChanges: [${ignore}] });\n`;
    const { h, dir, run } = await setup({ 'a.monitor.ts': code("'muted'") });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const [made] = (await h.client.checkGroups.list()).items;
    expect(made?.muted).toBe(false);
    await h.client.checkGroups.update(made?.id as number, { name: 'G', muted: true });
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.code, diff.stdout).toBe(0);
    const writes = h.writes().length;
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect(h.writes().length).toBe(writes);
    expect((await h.client.checkGroups.list()).items[0]?.muted).toBe(true);
    writeFiles(dir, { 'a.monitor.ts': code("'mutd'") });
    const bad = await run('validate');
    expect(bad.code).toBe(3);
    // At the path in the options, the third argument.
    expect(bad.stdout).toContain(
      'a.monitor.ts:2:68  error  CheckGroup "g"  ignoreChanges[0]: "mutd" is not a field of a check group; did you mean "muted"?',
    );
  });
});

describe('--target and --replace', () => {
  it('diff and deploy --target touch only the target and what it needs; the plan says it is partial', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(2) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': groups(2, ', concurrency: 4') });
    const diff = await run('diff', '--target', 'g0', '--json');
    const plan = JSON.parse(diff.stdout).plan;
    expect(plan.targets).toEqual(['CheckGroup:g0']);
    expect(plan.operations.map((o: { logicalId: string }) => o.logicalId)).toEqual(['g0']);
    const text = await run('diff', '--target', 'CheckGroup:g0');
    expect(text.stdout).toContain('Partial plan (--target): only CheckGroup:g0');
    expect(text.stdout).toContain('The rest of the project was not compared');
    // A saved plan records its targets; deploy --plan applies it with them.
    expect((await run('diff', '--target', 'g0', '--out', 'plan.json')).code).toBe(0);
    expect((await run('deploy', '--plan', 'plan.json', '--yes')).code).toBe(0);
    const concurrency = Object.fromEntries(
      (await h.client.checkGroups.list()).items.map((g) => [g.name, g.concurrency]),
    );
    expect(concurrency).toEqual({ 'Group 0': 4, 'Group 1': 3 });
    const unknown = await run('diff', '--target', 'g9');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      '--target g9: the project has no construct and no state entry of that name',
    );
    expect(unknown.stderr).toContain('hint: did you mean g0?');
  });

  it('deploy --replace deletes and creates one resource again: --allow-deletes in CI, never a protected one', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(1) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const [before] = (await h.client.alertChannels.list()).items;
    const refused = await run('deploy', '--yes', '--replace', 'mail');
    expect(refused.code).toBe(5);
    expect(refused.stdout).toContain('-/+ AlertChannel mail');
    expect(refused.stderr).toContain('--allow-deletes');
    const replaced = await run('deploy', '--yes', '--allow-deletes', '--replace', 'mail');
    expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0);
    const [after] = (await h.client.alertChannels.list()).items;
    expect(after?.id).not.toBe(before?.id);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': groups(1, '', '{ protect: true }') });
    const kept = await run('deploy', '--yes', '--allow-deletes', '--replace', 'g0');
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('it is protect: true, and a protected resource is never deleted');
  });
});

describe('monitor output', () => {
  it('prints ids and what the service assigned, from state and the live account; never a secret', async () => {
    const { h, run } = await setup({
      'a.monitor.ts': `import { Dashboard } from '@monitor/constructs';\n${groups(1)}new Dashboard('ops', { header: 'Ops', customUrl: 'acme-ops-output' });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const json = JSON.parse((await run('output', '--json')).stdout);
    const byKey = Object.fromEntries(
      (json.result.outputs as { key: string; values: Record<string, unknown>; status: string }[]).map((o) => [
        o.key,
        o,
      ]),
    );
    expect(Object.keys(byKey).sort()).toEqual(['AlertChannel:mail', 'CheckGroup:g0', 'Dashboard:ops']);
    expect(byKey['Dashboard:ops']?.values).toMatchObject({ customUrl: 'acme-ops-output', isPrivate: false });
    expect(byKey['AlertChannel:mail']?.values).toEqual({ type: 'EMAIL' });
    const one = await run('output', 'ops');
    expect(one.stdout).toMatch(/Dashboard:ops\s+\S+\s+dashboardId=\S+\s+customUrl=acme-ops-output/);
    // Gone from the account: said so, not an error.
    const [board] = (await h.client.dashboards.list()).items;
    await h.client.dashboards.delete(board?.dashboardId as string);
    expect((await run('output', 'Dashboard:ops')).stdout).toContain('(gone from the account)');
  });
});

describe('without a state secret', () => {
  it('a drift check stays green: secrets that cannot be compared are no change for diff, and deploy still sends them', async () => {
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'TOKEN', value: 'from-ci', secret: true }] });\n`,
    });
    const env = { ...h.env, MONITOR_STATE_SECRET: '' };
    const run = (...args: string[]) => monitor(args, { cwd: dir, env });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.code, diff.stdout).toBe(0);
    expect(diff.stdout).toContain('No changes.');
    expect(diff.stdout).toContain(
      '1 sensitive value the service masks could not be compared without a state secret, and will be sent again',
    );
    const json = JSON.parse((await run('diff', '--json')).stdout);
    expect(json.plan.changes).toBe(false);
    expect(json.plan.summary).toMatchObject({ update: 0, resend: 1 });
    // A rotation is never missed: deploy sends the secret again.
    const writes = h.writes().length;
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect(
      h
        .writes()
        .slice(writes)
        .map((w) => w.method),
    ).toEqual(['PUT']);
  });
});

describe('identity', () => {
  it('a rename with aliases moves the state entry: no POST and no DELETE', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(1) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const before = h.emulator.requests.length;
    writeFiles(dir, {
      'a.monitor.ts': groups(1)
        .replace("new CheckGroup('g0', {", "new CheckGroup('payments', {")
        .replace('alertChannels: [mail] });', "alertChannels: [mail] }, { aliases: ['g0'] });"),
    });
    const diff = await run('diff');
    expect(diff.stdout).toContain('> CheckGroup payments "Group 0" (id ');
    expect(diff.stdout).toContain('move: renamed from "g0"');
    expect((await run('deploy', '--yes')).code).toBe(0);
    const writes = h.emulator.requests
      .slice(before)
      .filter((r) => r.method === 'POST' || r.method === 'DELETE');
    expect(writes).toEqual([]);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(Object.keys(state.resources)).toEqual(['AlertChannel:mail', 'CheckGroup:payments']);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
  });

  it('never takes resources created outside monitor: a conflict at the construct until it says adopt: true', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(2) });
    await h.client.checkGroups.create({ name: 'Group 0', tags: ['other'] });
    await h.client.checkGroups.create({ name: 'Group 1' });
    const writes = writeCount(h);
    const refused = await run('deploy', '--yes');
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(
      '! 2 constructs in conflict with the account: deploy refuses until resolved',
    );
    expect(refused.stdout).toMatch(
      /! CheckGroup g0 {2}a\.monitor\.ts:3:1\n.*already exists in the account \(id \d+, "Group 0"\)/,
    );
    expect(refused.stdout).toContain(
      "add `adopt: true` to its options, new's third argument: new CheckGroup('g0', { … }, { adopt: true })",
    );
    expect(refused.stderr).toContain('error: 2 constructs in conflict with the account; nothing was changed');
    expect(writeCount(h)).toBe(writes);
    const json = JSON.parse((await run('diff', '--json')).stdout);
    expect(json.exitCode).toBe(3);
    expect(json.error.code).toBe('conflicts');
    expect(
      json.plan.conflicts.map((c: { logicalId: string; reason: string }) => [c.logicalId, c.reason]),
    ).toEqual([
      ['g0', 'exists'],
      ['g1', 'exists'],
    ]);
    expect(json.diagnostics[0]).toMatchObject({ file: 'a.monitor.ts', line: 3, column: 1, logicalId: 'g0' });

    writeFiles(dir, { 'a.monitor.ts': groups(2, '', '{ adopt: true }') });
    const diff = await run('diff');
    expect(diff.stdout).toContain('= CheckGroup g0 "Group 0" (id ');
    expect(diff.stdout).toContain('adopt: true, found in the account by its natural key');
    expect(diff.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete, 2 to adopt, 0 unchanged.');
    const before = h.emulator.requests.length;
    expect((await run('deploy', '--yes')).code).toBe(0);
    const posts = h.emulator.requests.slice(before).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.route)).toEqual(['/v1/alert-channels']);
    expect((await h.client.checkGroups.list()).items).toHaveLength(2);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
  });
});

describe('identity: what the UI cannot change', () => {
  it('a protected group renamed in the UI is still ours: protected, not foreign; a new logical id with its name is a rename to alias', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('checkout', { name: 'Checkout (prod)' }, { protect: true });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const [group] = (await h.client.checkGroups.list()).items;
    await h.client.checkGroups.update(Number(group?.id), { name: 'Checkout EU' });
    // The code follows the UI's name under a new logical id, without aliases.
    writeFiles(dir, {
      'a.monitor.ts': `${IMPORTS}new CheckGroup('checkout-x', { name: 'Checkout EU' });\n`,
    });
    const writes = writeCount(h);
    const diff = await run('diff');
    expect(diff.code).toBe(3);
    expect(diff.stdout).not.toContain('It is not this project');
    expect(diff.stdout).toContain('Kept (protect: true, removed from code): CheckGroup:checkout');
    expect(diff.stdout).toContain(
      `would be created while CheckGroup "checkout" (id ${group?.id}, "Checkout EU"), which has the same name "Checkout EU", leaves the code: a renamed logical id`,
    );
    expect(diff.stdout).toContain(
      "add `aliases: ['checkout']` to the construct's options, new's third argument: new CheckGroup('checkout-x', { … }, { aliases: ['checkout'] })",
    );
    expect((await run('deploy', '--yes')).code).toBe(3);
    expect(writeCount(h)).toBe(writes);
    expect((await h.client.checkGroups.list()).items).toHaveLength(1);
    // With the alias, the entry moves: no twin, and the renamed group is the construct's.
    writeFiles(dir, {
      'a.monitor.ts': `${IMPORTS}new CheckGroup('checkout-x', { name: 'Checkout EU' }, { aliases: ['checkout'] });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await h.client.checkGroups.list()).items.map((g) => g.id)).toEqual([group?.id]);
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
  });

  it('ids swapped in a hand-edited state: a state problem naming both entries, and nothing written', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(2) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    const [a, b] = [state.resources['CheckGroup:g0'], state.resources['CheckGroup:g1']];
    [a.physicalId, b.physicalId] = [b.physicalId, a.physicalId];
    writeFileSync(stateFile(dir), JSON.stringify(state));
    const writes = writeCount(h);
    const diff = await run('diff');
    expect(diff.code).toBe(3);
    expect(diff.stdout).not.toContain('Drift');
    expect(diff.stdout).toContain(
      `state records it at id ${a.physicalId}, but that id holds the resource state records for "g1"`,
    );
    expect(diff.stdout).toContain("the state's ids were swapped or edited by hand");
    expect((await run('deploy', '--yes')).code).toBe(3);
    expect(writeCount(h)).toBe(writes);
  });
});

describe('diff --format markdown', () => {
  it('prints the plan as a pull-request comment: title, deletion banner, one details per resource, secrets masked', async () => {
    const { dir, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g0', { name: 'Group 0', environmentVariables: [{ key: 'T', value: 'canary-md-secret', secret: true }] });\nnew CheckGroup('g1', { name: 'Group 1' });\n`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, {
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g0', { name: 'Group 0', muted: true, environmentVariables: [{ key: 'T', value: 'canary-md-secret-2', secret: true }] });\n`,
    });
    const md = await run('diff', '--format', 'markdown', '--detailed-exitcode');
    expect(md.code).toBe(2);
    expect(md.stdout).toMatch(/^### monitor diff: e2e → account `[0-9a-f-]+`\n/);
    expect(md.stdout).toContain(
      '> [!CAUTION]\n> **1 resource will be deleted from the account:**\n> - CheckGroup `g1` “Group 1”',
    );
    expect(md.stdout).toContain('<summary><code>~</code> CheckGroup <b>g0</b> “Group 0” (id ');
    expect(md.stdout).toContain('- muted: false\n+ muted: true');
    expect(md.stdout).toContain('! environmentVariables[T].value: (sensitive value changed)');
    expect(md.stdout).not.toContain('canary-md-secret');
    const json = await run('diff', '--format', 'json');
    expect(JSON.parse(json.stdout).command).toBe('diff');
  });
});

describe('deletion guard', () => {
  it('refuses deletes without --allow-deletes in a non-interactive run (exit 5, no write), then deletes with it', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(3) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': groups(2) });
    const writes = writeCount(h);
    const refused = await run('deploy', '--yes');
    expect(refused.code).toBe(5);
    expect(refused.stdout).toContain('! 1 resource will be DELETED from the account:');
    expect(refused.stdout).toContain('- CheckGroup g2 "Group 2" (id ');
    expect(refused.stderr).toContain('--allow-deletes');
    expect(writeCount(h)).toBe(writes);
    const noYes = await run('deploy');
    expect(noYes.code).toBe(5);
    expect(noYes.stderr).toContain('--yes');
    const done = await run('deploy', '--yes', '--allow-deletes');
    expect(done.code).toBe(0);
    expect((await h.client.checkGroups.list()).items.map((g) => g.name).sort()).toEqual([
      'Group 0',
      'Group 1',
    ]);
  });

  it('never deletes protect: true, by deploy or destroy, unless destroy --force-protected', async () => {
    const { h, dir, run } = await setup({
      'a.monitor.ts': groups(2, '').replace(
        /(new CheckGroup\('g1'.*) \}\);\n/,
        '$1 }, { protect: true });\n',
      ),
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': groups(1) });
    const deploy = await run('deploy', '--yes', '--allow-deletes');
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toContain('Kept (protect: true, removed from code): CheckGroup:g1');
    expect(h.emulator.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    const destroy = await run('destroy', '--yes', '--allow-deletes');
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain(
      'Kept (removed from code, but a protected resource refers to it): AlertChannel:mail (by CheckGroup:g1)',
    );
    // The protected group keeps its subscription: the channel it refers to stays.
    expect((await h.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['Group 1']);
    expect((await h.client.alertChannels.list()).items).toHaveLength(1);
    const forced = await run('destroy', '--yes', '--allow-deletes', '--force-protected');
    expect(forced.code).toBe(0);
    expect((await h.client.checkGroups.list()).items).toEqual([]);
    expect(JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources).toEqual({});
  });
});

describe('long waits', () => {
  it('a wait of 2 s or more says why and for how long, in a plain log line', async () => {
    const { run } = await setup({ 'a.monitor.ts': groups(3) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    // Six list calls and four deletes at 4 requests per 4 s: the client waits out its limit. A window
    // of 4 s, not 2: on a loaded machine the first four requests may take their tokens a second or
    // more apart, and the wait until the first comes back must still be 2 s or more.
    const destroy = await run('destroy', '--yes', '--allow-deletes', '--rate-limit', '4/4');
    expect(destroy.code).toBe(0);
    expect(destroy.stderr).toMatch(
      /^Waiting [2-5] s: the account's rate limit of 4 requests per 4 s \(rateLimit in the config, --rate-limit\)$/m,
    );
    // A plain line: no spinner, no escape sequence in a CI log.
    expect(destroy.stderr).not.toContain('\u001b');
  });
});

describe('saved plans', () => {
  it('deploy --plan applies exactly the saved plan, and refuses with exit 4 when a touched resource moved', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(2) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': groups(2, ', muted: true') });
    const saved = await run('diff', '--out', 'plan.json');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('monitor deploy --plan plan.json');
    const [g] = (await h.client.checkGroups.list()).items.filter((g) => g.name === 'Group 0');
    await h.client.checkGroups.update(Number(g?.id), { name: 'Group 0', concurrency: 5 });
    const writes = writeCount(h);
    const stale = await run('deploy', '--plan', 'plan.json', '--yes');
    expect(stale.code).toBe(4);
    expect(stale.stderr).toContain('CheckGroup:g0: the live resource changed since the plan was saved');
    expect(writeCount(h)).toBe(writes);
    // A fresh plan applies.
    expect((await run('diff', '--out', 'plan.json')).code).toBe(0);
    const applied = await run('deploy', '--plan', 'plan.json', '--yes');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('2 updated');
    // The same plan again: state moved on.
    const again = await run('deploy', '--plan', 'plan.json', '--yes');
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/state changed since the plan was saved \(serial \d+ → \d+\)/);
  });

  it('a file that is not a saved plan is a clear error', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': groups(1) });
    writeFileSync(join(dir, 'plan.json'), '{"hello": 1}');
    const r = await run('deploy', '--plan', 'plan.json', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plan.json is not a saved monitor plan');
    expect(r.stderr).toContain('hint: save a plan with monitor diff --out plan.json');
  });
});

describe('exit codes', () => {
  it('1 on an API error (a wrong key), with the hint', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(1) });
    const r = await monitor(['diff'], { cwd: dir, env: { ...h.env, MONITOR_API_KEY: 'wrong' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*401/m);
    expect((await run('diff')).code).toBe(0);
  });

  it('1 when credentials are missing, pointing at --local', async () => {
    const { dir } = await setup({ 'a.monitor.ts': groups(1) });
    const r = await monitor(['diff'], {
      cwd: dir,
      env: { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '', MONITOR_BASE_URL: '' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MONITOR_API_KEY is not set');
    expect(r.stderr).toContain('--local');
  });

  it('3 on an invalid project, before any request', async () => {
    const { h, run } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', concurrency: 0 });\n`,
    });
    const r = await run('deploy', '--yes');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('concurrency');
    expect(h.emulator.requests).toEqual([]);
  });

  it('6 when another deploy holds the lock, naming the holder; --lock-timeout waits for it', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': groups(1) });
    const lock = join(dir, '.monitor', 'state', `${DEV_ACCOUNT_ID}.lock`);
    writeFiles(dir, {
      [`.monitor/state/${DEV_ACCOUNT_ID}.lock`]: JSON.stringify({
        pid: process.pid,
        host: hostname(),
        startedAt: '2026-11-21T10:00:00.000Z',
        command: 'monitor deploy',
      }),
    });
    const held = await run('deploy', '--yes');
    expect(held.code).toBe(6);
    expect(held.stderr).toContain(`monitor deploy (pid ${process.pid} on ${hostname()}`);
    const destroy = await run('destroy', '--yes', '--allow-deletes');
    expect(destroy.code).toBe(6);
    // diff takes no lock.
    expect((await run('diff')).code).toBe(0);
    // --lock-timeout waits for the holder to finish, then goes on.
    const waited = await monitor(['deploy', '--yes', '--lock-timeout', '20'], {
      cwd: dir,
      env: h.env,
      // The holder finishes once the waiter has said it is waiting.
      onSpawn: (child) =>
        child.stderr?.on('data', (d: Buffer | string) => {
          if (String(d).includes('Waiting') && existsSync(lock)) rmSync(lock);
        }),
    });
    expect(waited.code).toBe(0);
    expect(waited.stderr).toContain(
      `Waiting up to 20 s for the state lock held by monitor deploy (pid ${process.pid}`,
    );
    expect(existsSync(lock)).toBe(false);
    // A lock of a process that is gone is stale and taken over.
    writeFiles(dir, {
      [`.monitor/state/${DEV_ACCOUNT_ID}.lock`]: JSON.stringify({
        pid: 2 ** 22 + 12345,
        host: hostname(),
        startedAt: '2026-11-21T10:00:00.000Z',
        command: 'monitor deploy',
      }),
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });

  it('is 0/2/3/4/5/6/1 as the table says (covered above); a usage error is 1 with a hint', async () => {
    const { run } = await setup({ 'a.monitor.ts': groups(1) });
    const r = await run('deploy', '--no-such-flag');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hint: run monitor --help');
  });
});
