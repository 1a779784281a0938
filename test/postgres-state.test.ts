// The postgres state backend against a real PostgreSQL server that this file starts (one for the
// file): the backend itself, its faults, and the CLI with two runners and two projects on it.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { emptyState, LockHeldError, PostgresStateBackend, type State } from '@monitor/engine';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { stopWhenTestEnds } from './support/children.js';
import { BIN, cleanup, monitor, writeFiles, writeProject } from './support/harness.js';
import { type PostgresServer, startPostgres } from './support/postgres-server.mjs';
import { type Harness, IMPORTS, projectsUnderTest } from './support/projects.js';

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.close();
});

const setup = projectsUnderTest();
let projects = 0;
/** A project name of its own per test: tests share the database. */
const uniqueProject = () => `pg-${process.pid}-${++projects}`;

const entry = (id: number) => ({
  kind: 'CheckGroup' as const,
  logicalId: `g${id}`,
  physicalId: id,
  appliedHash: `h${id}`,
  secretHashes: { 'environmentVariables[T].value': `hmac-sha256:${id}` },
  protect: id % 2 === 0,
});

let databases = 0;
/**
 * A database of its own: every test's emulator is the same account (the dev account) with ids
 * from 1, so tests that shared a database would see each other's entries as other projects'.
 */
function freshDatabase(): string {
  const name = `t${++databases}`;
  pg.sql(`CREATE DATABASE ${name} OWNER monitor`);
  return pg.urlFor({ database: name });
}

/**
 * `monitor deploy --parallelism 1`, stopped (SIGSTOP) once the emulator has answered its first
 * create: it is then mid-way, holding the lock, with writes still to make, however slow the
 * machine. The caller continues (SIGCONT) or kills it.
 */
async function deployStoppedMidway(h: Harness, dir: string, env: Record<string, string>) {
  let child: ChildProcess | undefined;
  const result = monitor(['deploy', '--yes', '--parallelism', '1'], {
    cwd: dir,
    env,
    onSpawn: (c) => {
      child = c;
    },
  });
  for (;;) {
    if (child !== undefined && child.exitCode !== null) throw new Error('the deploy ended before it wrote');
    if (child !== undefined && h.emulator.requests.some((r) => r.method === 'POST')) {
      const stopped = child;
      stopped.kill('SIGSTOP');
      // A test that fails before it continues the deploy must not leave it stopped for ever.
      onTestFinished(() => {
        if (stopped.exitCode === null && stopped.signalCode === null) stopped.kill('SIGKILL');
      });
      return { child: stopped, result };
    }
    await sleep(5);
  }
}

function backend(project: string, url = pg.url) {
  return new PostgresStateBackend({ url, project, accountId: DEV_ACCOUNT_ID, pollMs: 50 });
}

describe('the postgres backend', () => {
  it('records each write in its own transaction, reads it back, commits whole; the serial moves', async () => {
    const project = uniqueProject();
    const store = backend(project);
    const state = await store.read();
    expect(state.serial).toBe(0);
    await store.record(state, { 'CheckGroup:g1': entry(1) }, { 'CheckGroup:g2': true });
    // What each field was when applied: recorded by a write, and by a commit of the whole state.
    const hashed = { ...entry(2), fieldHashes: 'a1b2c3:c0dec0deacc0acc0.-' };
    await store.record(state, { 'CheckGroup:g2': hashed }, { 'CheckGroup:g2': false });
    expect(state.serial).toBe(2);
    const other = backend(project);
    const read = await other.read();
    expect(read).toEqual(state);
    expect(read.resources['CheckGroup:g1']?.physicalId).toBe(1);
    // With the baseline a verified deploy keeps in its record (state format 3).
    const lastDeploy = {
      at: '2026-11-24T09:00:00.000Z',
      groups: ['CheckGroup:g2'],
      baseline: {
        checks: {
          '0b000000-0000-4000-8000-000000000001': { status: 'failing' as const, locations: ['eu-west-1'] },
        },
        errorGroups: { 'e0000000-0000-4000-8000-00000000000a': '0b000000-0000-4000-8000-000000000001' },
      },
    };
    expect(read.resources['CheckGroup:g2']?.fieldHashes).toBe('a1b2c3:c0dec0deacc0acc0.-');
    const committed = await other.commit({ ...read, resources: { 'CheckGroup:g2': hashed }, lastDeploy });
    expect(committed.serial).toBe(3);
    expect(await store.read()).toEqual(committed);
    expect((await store.read()).lastDeploy).toEqual(lastDeploy);
    // A destroy forgets it.
    await store.commit({ ...committed, lastDeploy: undefined });
    expect((await store.read()).lastDeploy).toBeUndefined();
    await store.close();
    await other.close();
  });

  it('refuses two entries claiming one resource, naming both', async () => {
    const project = uniqueProject();
    const store = backend(project);
    const state: State = emptyState(DEV_ACCOUNT_ID);
    await store.commit({
      ...state,
      resources: {
        'CheckGroup:a': { ...entry(7), logicalId: 'a' },
        'CheckGroup:b': { ...entry(7), logicalId: 'b' },
      },
    });
    await expect(store.read()).rejects.toThrow(
      /two entries for CheckGroup id 7: "CheckGroup:a" and "CheckGroup:b"/,
    );
    await store.close();
  });

  it('lists what other projects in the account own', async () => {
    const [a, b] = [uniqueProject(), uniqueProject()];
    const sa = backend(a);
    const sb = backend(b);
    await sa.commit({ ...emptyState(DEV_ACCOUNT_ID), resources: { 'CheckGroup:g1': entry(101) } });
    expect((await sb.owners()).tryFind('CheckGroup', 101)).toBe(a);
    expect((await sa.owners()).has('CheckGroup', 101)).toBe(false);
    await sa.close();
    await sb.close();
  });

  it('holds the lock across connections, names the holder, and frees it when the holder dies (SIGKILL)', async () => {
    const project = uniqueProject();
    const first = backend(project);
    const release = await first.lock({ command: 'monitor deploy' });
    const second = backend(project);
    const waits: unknown[] = [];
    const held = (await second
      .lock({ command: 'monitor deploy', timeoutMs: 200, onWait: (h) => waits.push(h) })
      .catch((e: unknown) => e)) as LockHeldError;
    expect(held).toBeInstanceOf(LockHeldError);
    expect(held.message).toMatch(/monitor deploy \(pid \d+ on .+, since /);
    expect(waits).toHaveLength(1);
    await release();
    const again = await second.lock({ command: 'monitor deploy' });
    await again();
    await first.close();
    await second.close();

    // A process that takes the lock and is killed: its connection goes, and so does the lock.
    const script = `
      const { PostgresStateBackend } = await import(${JSON.stringify(join(BIN, '..', '..', '..', 'engine', 'dist', 'index.js'))});
      const b = new PostgresStateBackend({ url: ${JSON.stringify(pg.url)}, project: ${JSON.stringify(project)}, accountId: ${JSON.stringify(DEV_ACCOUNT_ID)} });
      await b.lock({ command: 'monitor deploy' });
      process.stdout.write('locked\\n');
      setInterval(() => {}, 1000);`;
    const child = stopWhenTestEnds(
      spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
    const blocked = backend(project);
    await expect(blocked.lock({ command: 'monitor deploy' })).rejects.toBeInstanceOf(LockHeldError);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The server notices the dead connection on its own; the wait only has to outlast that.
    const taken = await blocked.lock({ command: 'monitor deploy', timeoutMs: 30_000 });
    await taken();
    await blocked.close();
  });
});

describe('faults: coded errors with a hint, never the password', () => {
  it.each([
    ['a refused connection', () => `postgres://monitor:s3cret-pw@127.0.0.1:1/monitor`, 'connection refused'],
    ['a wrong password', () => pg.urlFor({ password: 's3cret-pw' }), 'the password was refused'],
    [
      'a missing database',
      () => pg.urlFor({ database: 'nope', password: 'monitor-test-pw' }),
      'the database does not exist',
    ],
  ])('%s', async (_what, url, reason) => {
    const store = backend(uniqueProject(), url());
    const error = (await store.read().catch((e: unknown) => e)) as {
      code: string;
      message: string;
      hint: string;
    };
    expect(error.code).toBe('state_storage');
    expect(error.message).toContain(reason);
    expect(`${error.message} ${error.hint}`).not.toContain('s3cret-pw');
    expect(error.hint.length).toBeGreaterThan(10);
    await store.close();
  });

  it('a user that may not create the schema: permission denied, with the grant to give', async () => {
    pg.sql(`CREATE USER readonly WITH PASSWORD 'ro-pw'`);
    pg.sql('CREATE DATABASE locked OWNER postgres');
    pg.sql('REVOKE CREATE ON DATABASE locked FROM PUBLIC', 'locked');
    const store = backend(
      uniqueProject(),
      pg.urlFor({ user: 'readonly', password: 'ro-pw', database: 'locked' }),
    );
    const error = (await store.read().catch((e: unknown) => e)) as {
      code: string;
      message: string;
      hint: string;
    };
    expect(error.code).toBe('state_storage');
    expect(error.message).toContain('permission denied');
    expect(error.hint).toContain('grant the user CREATE on the database');
    await store.close();
  });
});

describe('the CLI on a shared state database', () => {
  const groups = (names: string[]) =>
    IMPORTS + names.map((n) => `new CheckGroup('${n}', { name: '${n} group' });\n`).join('');

  it('state lives in the database: deleting the checkout state changes nothing; a stale saved plan exits 4', async () => {
    const project = uniqueProject();
    const { h, dir } = await setup({
      'a.monitor.ts': groups(['a', 'b']),
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
    });
    const env = { ...h.env, MONITOR_STATE_URL: freshDatabase() };
    const run = (...args: string[]) => monitor(args, { cwd: dir, env });
    expect((await run('deploy', '--yes')).code).toBe(0);
    rmSync(join(dir, '.monitor'), { recursive: true, force: true });
    const diff = await run('diff', '--detailed-exitcode');
    expect(diff.stdout).toContain('No changes. 2 resources match the code.');
    expect(diff.code).toBe(0);

    writeFiles(dir, { 'a.monitor.ts': groups(['a', 'b', 'c']) });
    expect((await run('diff', '--out', 'plan.json')).code).toBe(0);
    // Another runner deploys meanwhile (same code): the saved plan is stale.
    expect((await run('deploy', '--yes')).code).toBe(0);
    const writes = h.writes().length;
    const stale = await run('deploy', '--plan', 'plan.json', '--yes');
    expect(stale.code).toBe(4);
    expect(stale.stderr).toMatch(/state changed since the plan was saved \(serial \d+ → \d+\)/);
    expect(h.writes().length).toBe(writes);
  });

  it('two projects on one database and one account never touch each other', async () => {
    const [p1, p2] = [uniqueProject(), uniqueProject()];
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('team-a-api', { name: 'Shared name' });\n`,
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${p1}' });\n`,
    });
    const env = { ...h.env, MONITOR_STATE_URL: freshDatabase() };
    expect((await monitor(['deploy', '--yes'], { cwd: dir, env })).code).toBe(0);
    const other = writeProject(
      {
        'b.monitor.ts': `${IMPORTS}new CheckGroup('team-b-api', { name: 'Shared name', concurrency: 9 }, { adopt: true });\n`,
      },
      p2,
    );
    onTestFinished(() => cleanup(other));
    const writes = h.writes().length;
    const taken = await monitor(['deploy', '--yes', '--allow-deletes'], { cwd: other, env });
    expect(taken.code).toBe(3);
    expect(taken.stdout).toContain(`belongs to project "${p1}", which shares this state database`);
    expect(h.writes().length).toBe(writes);
    // p2 declaring nothing of p1's deletes nothing of p1's.
    writeFiles(other, { 'b.monitor.ts': `${IMPORTS}new CheckGroup('mine', { name: 'Mine' });\n` });
    expect((await monitor(['deploy', '--yes', '--allow-deletes'], { cwd: other, env })).code).toBe(0);
    const names = (await h.client.checkGroups.list()).items.map((g) => g.name).sort();
    expect(names).toEqual(['Mine', 'Shared name']);
    const p1diff = await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env });
    expect(p1diff.code).toBe(0);
  });

  it('state push, mv and migrate never take what another project owns, --force or not, naming the owner', async () => {
    const [owner, thief] = [uniqueProject(), uniqueProject()];
    const url = freshDatabase();
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('payments', { name: 'Payments' });\n`,
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${owner}' });\n`,
    });
    const env = { ...h.env, MONITOR_STATE_URL: url };
    expect((await monitor(['deploy', '--yes'], { cwd: dir, env })).code).toBe(0);
    const ownerState = JSON.parse((await monitor(['state', 'pull'], { cwd: dir, env })).stdout);
    const stolen = ownerState.resources['CheckGroup:payments'];

    const other = writeProject(
      { 'b.monitor.ts': `${IMPORTS}new CheckGroup('steal', { name: 'Mine now' });\n` },
      thief,
    );
    onTestFinished(() => cleanup(other));
    const file = join(other, 'steal.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      file,
      JSON.stringify({
        ...ownerState,
        serial: 0,
        resources: { 'CheckGroup:steal': { ...stolen, logicalId: 'steal' } },
      }),
    );
    for (const force of [[], ['--force']]) {
      const push = await monitor(['state', 'push', 'steal.json', ...force], { cwd: other, env });
      expect(push.code).toBe(1);
      expect(push.stderr).toContain(
        `records CheckGroup id ${stolen.physicalId}, which belongs to project "${owner}"`,
      );
      expect(push.stderr).toContain(`hint: only project "${owner}" can give it away`);
    }
    expect(
      JSON.parse((await monitor(['state', 'list', '--json'], { cwd: other, env })).stdout).result.entries,
    ).toEqual([]);
    // migrate from files into the shared database: the same check at the destination.
    const fileState = join(other, '.monitor', 'state');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(fileState, { recursive: true });
    writeFileSync(
      join(fileState, `${DEV_ACCOUNT_ID}.json`),
      JSON.stringify({ ...ownerState, resources: { 'CheckGroup:steal': { ...stolen, logicalId: 'steal' } } }),
    );
    const fileEnv = { ...h.env };
    const migrate = await monitor(['state', 'migrate', '--to', url, '--force'], { cwd: other, env: fileEnv });
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain(`which belongs to project "${owner}"`);
    // Nothing of the owner's moved: its next plan has nothing to do, and the group kept its name.
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
    expect((await h.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['Payments']);
  });

  it('concurrent state writes, some of them failing in the database: each its own transaction, no warning, every row true to the account', async () => {
    const project = uniqueProject();
    const groups = Array.from({ length: 40 }, (_, i) => `new CheckGroup('g${i}', { name: 'G${i}' });`).join(
      '\n',
    );
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}${groups}\n`,
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
    });
    const url = freshDatabase();
    const database = url.split('/').pop() as string;
    const env = { ...h.env, MONITOR_STATE_URL: url };
    // The schema exists once a command has used the database.
    expect((await monitor(['state', 'list'], { cwd: dir, env })).code).toBe(0);
    // One write of state in six fails in the database itself, as a constraint or a full disk would.
    pg.sql(
      `CREATE FUNCTION monitor.flaky() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF random() < 0.17 THEN RAISE EXCEPTION 'injected state-write failure'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER flaky BEFORE INSERT OR UPDATE ON monitor.entries FOR EACH ROW EXECUTE FUNCTION monitor.flaky();`,
      database,
    );
    const logBefore = pg.log().length;
    let runs = 0;
    for (; runs < 12; runs++) {
      const r = await monitor(['deploy', '--yes', '--parallelism', '16'], { cwd: dir, env });
      expect(r.stderr).not.toContain('already executing a query');
      if (r.code === 0) break;
      expect(r.code).toBe(1);
    }
    pg.sql('DROP TRIGGER flaky ON monitor.entries', database);
    expect((await monitor(['deploy', '--yes'], { cwd: dir, env })).code).toBe(0);
    const log = pg.log().slice(logBefore);
    expect(log).not.toMatch(/there is already a transaction in progress|there is no transaction in progress/);
    // Every row names the group of its construct, once; no duplicate was made.
    const live = (await h.client.checkGroups.list({ limit: 100 })).items;
    expect(live.map((g) => g.name).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `G${i}`).sort());
    const rows = pg
      .sql(
        `SELECT logical_id || '=' || physical_id FROM monitor.entries WHERE project = '${project}'`,
        database,
      )
      .trim()
      .split('\n');
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      const [logical, physical] = row.split('=') as [string, string];
      expect(live.find((g) => String(g.id) === physical)?.name).toBe(logical.replace('g', 'G'));
    }
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('two deploys at once: the second exits 6 naming the first, or waits with --lock-timeout', async () => {
    const project = uniqueProject();
    const { h, dir } = await setup(
      {
        'a.monitor.ts': groups(['a', 'b', 'c', 'd']),
        'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
      },
      { faults: { latencyMs: 100 } },
    );
    const env = { ...h.env, MONITOR_STATE_URL: freshDatabase() };
    // The first deploy is stopped mid-way, holding the lock, for as long as the others need.
    const first = await deployStoppedMidway(h, dir, env);
    const second = await monitor(['deploy', '--yes'], { cwd: dir, env });
    expect(second.code).toBe(6);
    expect(second.stderr).toMatch(/another run holds the state lock: monitor deploy \(pid \d+ on /);
    const waiting = monitor(['deploy', '--yes', '--lock-timeout', '60'], {
      cwd: dir,
      env,
      onSpawn: (child) => {
        child.stderr?.on('data', (d: Buffer) => {
          if (d.toString().includes('Waiting')) first.child.kill('SIGCONT');
        });
      },
    });
    expect((await waiting).code).toBe(0);
    expect((await first.result).code).toBe(0);
    expect((await h.client.checkGroups.list()).items).toHaveLength(4);
  });

  it('the database stopping mid-deploy: exit 1 with a clear message; a re-run converges with no duplicate', async () => {
    const project = uniqueProject();
    const names = Array.from({ length: 8 }, (_, i) => `g${i}`);
    const { h, dir } = await setup(
      {
        'a.monitor.ts': groups(names),
        'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
      },
      { faults: { latencyMs: 100 } },
    );
    const env = { ...h.env, MONITOR_STATE_URL: freshDatabase() };
    // Stopped mid-way while the database goes, so the database is gone before its next write.
    const deploy = await deployStoppedMidway(h, dir, env);
    await pg.stop();
    deploy.child.kill('SIGCONT');
    const broken = await deploy.result;
    await pg.start();
    expect(broken.code).toBe(1);
    expect(`${broken.stdout}${broken.stderr}`).toMatch(/state database|connection/i);
    expect(`${broken.stdout}${broken.stderr}`).not.toContain('monitor-test-pw');
    const again = await monitor(['deploy', '--yes'], { cwd: dir, env });
    expect(again.code, `${broken.stdout}${broken.stderr}\n---\n${again.stdout}${again.stderr}`).toBe(0);
    const live = (await h.client.checkGroups.list({ limit: 100 })).items.map((g) => g.name).sort();
    expect(live).toEqual(names.map((n) => `${n} group`).sort());
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('a deploy SIGKILLed mid-way: the next one gets the lock at once, converges, and makes no duplicate', async () => {
    const project = uniqueProject();
    const names = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const { h, dir } = await setup(
      {
        'a.monitor.ts': groups(names),
        'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
      },
      { faults: { latencyMs: 100 } },
    );
    const env = { ...h.env, MONITOR_STATE_URL: freshDatabase() };
    const killed = await deployStoppedMidway(h, dir, env);
    killed.child.kill('SIGKILL');
    expect((await killed.result).code).toBe(null);
    // No --lock-timeout: the lock must be free the moment the next deploy asks.
    const again = await monitor(['deploy', '--yes'], { cwd: dir, env });
    expect(again.code).toBe(0);
    const live = (await h.client.checkGroups.list({ limit: 100 })).items.map((g) => g.name).sort();
    expect(live).toEqual(names.map((n) => `${n} group`).sort());
    expect((await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('migrate file → postgres → file: nothing lost, diff says No changes at every step', async () => {
    const project = uniqueProject();
    const { h, dir } = await setup({
      'a.monitor.ts': `${IMPORTS}new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'T', value: 'secret', secret: true }] });\nnew EmailAlertChannel('mail', { address: 'a@acme.example' });\n`,
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
    });
    const url = freshDatabase();
    const onFiles = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
    const onDb = (...args: string[]) =>
      monitor(args, { cwd: dir, env: { ...h.env, MONITOR_STATE_URL: url } });
    expect((await onFiles('deploy', '--yes')).code).toBe(0);
    const toDb = await onFiles('state', 'migrate', '--to', url);
    expect(toDb.code).toBe(0);
    expect(toDb.stdout).toContain('copied 2 entries');
    expect(toDb.stdout).not.toContain('monitor-test-pw');
    expect((await onDb('diff', '--detailed-exitcode')).code).toBe(0);
    // Into an empty directory and back: the same state, byte for byte apart from the serial.
    const back = await onDb('state', 'migrate', '--to', 'migrated-state');
    expect(back.code).toBe(0);
    const again = await onDb('state', 'migrate', '--to', 'migrated-state');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds 2 entries');
    writeFiles(dir, {
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}', state: { path: 'migrated-state' } });\n`,
    });
    const diff = await onFiles('diff', '--detailed-exitcode');
    expect(diff.stdout).toContain('No changes. 2 resources match the code.');
    expect(diff.code).toBe(0);
  });

  it('state unlock --force clears the holder a dead run left; a live holder is refused', async () => {
    const project = uniqueProject();
    const url = freshDatabase();
    const { dir } = await setup({
      'a.monitor.ts': IMPORTS,
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}' });\n`,
    });
    const env = { MONITOR_STATE_URL: url, MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID };
    const live = backend(project, url);
    const release = await live.lock({ command: 'monitor deploy' });
    const refused = await monitor(['state', 'unlock', '--force'], { cwd: dir, env });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('another run holds the state lock: monitor deploy');
    await release();
    await live.close();
    // A holder row whose run is gone (as a SIGKILLed deploy leaves it).
    pg.sql(
      `INSERT INTO monitor.lock_holders VALUES ('${project}', '${DEV_ACCOUNT_ID}', 'monitor deploy', 'ci-7', 4242, now())`,
      url.split('/').pop(),
    );
    const cleared = await monitor(['state', 'unlock', '--force'], { cwd: dir, env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('cleared the lock of monitor deploy (pid 4242 on ci-7');
  });
});
