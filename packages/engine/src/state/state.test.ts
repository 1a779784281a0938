import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from '@monitor/api/zod';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.js';
import { LockHeldError } from './errors.js';
import { FileStateBackend } from './file-store.js';
import { acquireLock, takeOverStale, UNREADABLE_LOCK_STALE_MS } from './lock.js';
import {
  emptyState,
  plainState,
  STATE_FORMAT_VERSION,
  type State,
  type StateEntry,
  serializeState,
  stateEntrySchema,
  stateSchema,
} from './state.js';

const ACCOUNT = '00000000-0000-4000-8000-00000000de00';
const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'monitor-state-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const entry = (logicalId: string, physicalId: number) => ({
  kind: 'CheckGroup' as const,
  logicalId,
  physicalId,
  appliedHash: `h${physicalId}`,
  secretHashes: {},
  protect: false,
});

describe('FileStateBackend journal', () => {
  it('records entries one line at a time; a fresh reader replays them; write folds them in', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    const state = await store.read();
    await store.record(state, { 'CheckGroup:a': entry('a', 1) });
    await store.record(state, { 'CheckGroup:b': entry('b', 2) });
    await store.record(state, { 'CheckGroup:a': null });
    expect(state.serial).toBe(3);
    // The base file holds the salt before the first journal line refers to it.
    const reader = new FileStateBackend(d, ACCOUNT);
    expect(await reader.read()).toEqual(state);
    expect(readFileSync(store.journalLocation, 'utf8').trim().split('\n')).toHaveLength(3);
    const folded = await store.commit(state);
    expect(existsSync(store.journalLocation)).toBe(false);
    expect(folded.serial).toBe(4);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(folded);
    expect(Object.keys(folded.resources)).toEqual(['CheckGroup:b']);
  });

  /** The real file system, counting syncs and noting each write and sync in order; syncs fail while `failSyncs`. */
  function watchedFs() {
    const events: string[] = [];
    const watch = {
      events,
      failSyncs: false,
      fs: {
        ...fs,
        writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
          events.push('write');
          return (fs.writeSync as (...a: unknown[]) => number)(...args);
        }) as typeof fs.writeSync,
        fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
          events.push('sync');
          if (watch.failSyncs) {
            const error = Object.assign(new Error('ENOSPC: no space left on device, fdatasync'), {
              code: 'ENOSPC',
            });
            setImmediate(() => done(error));
          } else fs.fdatasync(fd, done);
        }) as typeof fs.fdatasync,
      },
    };
    return watch;
  }

  it('makes the lines of records started together durable with one sync, and applies them in order', async () => {
    const d = join(dir(), 'state');
    const watch = watchedFs();
    const store = new FileStateBackend(d, ACCOUNT, watch.fs);
    const state = await store.read();
    await store.record(state, { 'CheckGroup:a': entry('a', 1) });
    watch.events.length = 0;
    const settled: string[] = [];
    const records = ['b', 'c', 'd'].map((id, i) =>
      store.record(state, { [`CheckGroup:${id}`]: entry(id, i + 2) }).then(() => {
        settled.push(`${id}@${state.serial}`);
        watch.events.push(`settled ${id}`);
      }),
    );
    // Written at once, applied only once durable.
    expect(state.serial).toBe(1);
    await Promise.all(records);
    expect(watch.events).toEqual(['write', 'write', 'write', 'sync', 'settled b', 'settled c', 'settled d']);
    expect(settled).toEqual(['b@4', 'c@4', 'd@4']);
    const lines = readFileSync(store.journalLocation, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { serial: number }).serial)).toEqual([1, 2, 3, 4]);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(state);
  });

  it('fails every record of a sync that fails, applies none, and takes their lines back', async () => {
    const d = join(dir(), 'state');
    const watch = watchedFs();
    const store = new FileStateBackend(d, ACCOUNT, watch.fs);
    const state = await store.read();
    await store.record(state, { 'CheckGroup:a': entry('a', 1) });
    watch.failSyncs = true;
    const results = await Promise.allSettled([
      store.record(state, { 'CheckGroup:b': entry('b', 2) }),
      store.record(state, { 'CheckGroup:c': entry('c', 3) }, { 'CheckGroup:c': true }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(((results[0] as PromiseRejectedResult).reason as EngineError).code).toBe('state_storage');
    expect(state.serial).toBe(1);
    expect(Object.keys(state.resources)).toEqual(['CheckGroup:a']);
    expect(state.pendingCreates).toEqual([]);
    // The journal goes on from the last line on disk.
    watch.failSyncs = false;
    await store.record(state, { 'CheckGroup:d': entry('d', 4) });
    const lines = readFileSync(store.journalLocation, 'utf8').trim().split('\n');
    expect(lines.map((l) => Object.keys((JSON.parse(l) as { changes: object }).changes)[0])).toEqual([
      'CheckGroup:a',
      'CheckGroup:d',
    ]);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(state);
  });

  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });

  it.each([
    { fails: 'none', outcome: 'takes them with the next sync' },
    { fails: 'first', outcome: 'fails them with the sync under way, whose lines are cut back' },
    { fails: 'second', outcome: 'cuts only their lines back when their own sync fails' },
  ])('writes lines while a sync is under way and $outcome', async ({ fails }) => {
    const d = join(dir(), 'state');
    // Syncs wait for the test to end them.
    const syncs: ((error: NodeJS.ErrnoException | null) => void)[] = [];
    const store = new FileStateBackend(d, ACCOUNT, {
      ...fs,
      fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
        syncs.push((error) => (error === null ? fs.fdatasync(fd, done) : done(error)));
      }) as typeof fs.fdatasync,
    });
    const state = await store.read();
    const settled: string[] = [];
    const record = (id: string, n: number) =>
      store.record(state, { [`CheckGroup:${id}`]: entry(id, n) }).then(
        () => settled.push(`${id} at ${state.serial}`),
        (e: EngineError) => settled.push(`${id} failed: ${e.code}`),
      );
    const journal = () => readFileSync(store.journalLocation, 'utf8').trim().split('\n').filter(Boolean);
    const first = record('a', 1);
    await new Promise((r) => setImmediate(r));
    expect(syncs).toHaveLength(1);
    // Written while the first sync is under way: left for the next one.
    const second = [record('b', 2), record('c', 3)];
    await new Promise((r) => setImmediate(r));
    expect(syncs).toHaveLength(1);
    expect(journal()).toHaveLength(3);
    expect(state.serial).toBe(0);
    syncs[0]?.(fails === 'first' ? enospc() : null);
    await first;
    if (fails === 'first') {
      await Promise.all(second);
      expect(settled).toEqual([
        'a failed: state_storage',
        'b failed: state_storage',
        'c failed: state_storage',
      ]);
      expect(journal()).toEqual([]);
    } else {
      expect(settled).toEqual(['a at 1']);
      await new Promise((r) => setImmediate(r));
      expect(syncs).toHaveLength(2);
      syncs[1]?.(fails === 'second' ? enospc() : null);
      await Promise.all(second);
      if (fails === 'second') {
        expect(settled).toEqual(['a at 1', 'b failed: state_storage', 'c failed: state_storage']);
        expect(journal()).toHaveLength(1);
      } else expect(settled).toEqual(['a at 1', 'b at 3', 'c at 3']);
    }
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(state);
  });

  it('fails the records of a sync that throws at once, and takes a sync answered with undefined as done', async () => {
    const d = join(dir(), 'state');
    let throws = true;
    const store = new FileStateBackend(d, ACCOUNT, {
      ...fs,
      fdatasync: ((fd: number, done: (error?: NodeJS.ErrnoException | null) => void) => {
        if (throws)
          throw Object.assign(new Error('EBADF: bad file descriptor, fdatasync'), { code: 'EBADF' });
        fs.fdatasyncSync(fd);
        done(undefined);
      }) as typeof fs.fdatasync,
    });
    const state = await store.read();
    const failed = await store.record(state, { 'CheckGroup:a': entry('a', 1) }).catch((e: Error) => e);
    expect((failed as Error).message).toContain('EBADF');
    expect(state.serial).toBe(0);
    throws = false;
    await store.record(state, { 'CheckGroup:b': entry('b', 2) });
    expect(Object.keys(state.resources)).toEqual(['CheckGroup:b']);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(state);
  });

  it('makes lines still waiting for their sync durable before closing or folding the journal', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    const state = await store.read();
    const recorded = store.record(state, { 'CheckGroup:a': entry('a', 1) });
    await store.close();
    await recorded;
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(state);
    const again = store.record(state, { 'CheckGroup:b': entry('b', 2) });
    const folded = await store.commit(state);
    await again;
    expect(Object.keys(folded.resources).sort()).toEqual(['CheckGroup:a', 'CheckGroup:b']);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(folded);
  });

  it('ignores a torn last line and lines already folded into the base', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    const state = await store.read();
    await store.record(state, { 'CheckGroup:a': entry('a', 1) });
    await store.record(state, { 'CheckGroup:b': entry('b', 2) });
    await store.close();
    const journal = readFileSync(store.journalLocation, 'utf8');
    // A crash after compacting the base but before removing the journal.
    await new FileStateBackend(d, ACCOUNT).commit({ ...state, serial: state.serial - 1 });
    writeFileSync(store.journalLocation, `${journal}{"serial":3,"changes":{"CheckGroup:c":{"ki`);
    const read = await new FileStateBackend(d, ACCOUNT).read();
    expect(read.serial).toBe(2);
    expect(Object.keys(read.resources).sort()).toEqual(['CheckGroup:a', 'CheckGroup:b']);
  });

  it('remembers a create that was sent until it settles, in the journal and through a write', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    const state = await store.read();
    await store.record(state, {}, { 'AlertChannel:a': true, 'AlertChannel:b': true });
    await store.record(
      state,
      { 'AlertChannel:a': { ...entry('a', 1), kind: 'AlertChannel' } },
      { 'AlertChannel:a': false },
    );
    await store.close();
    // A run killed here: b was sent and never answered.
    const read = await new FileStateBackend(d, ACCOUNT).read();
    expect(read.pendingCreates).toEqual(['AlertChannel:b']);
    expect(Object.keys(read.resources)).toEqual(['AlertChannel:a']);
    // Compaction keeps it; settling it leaves a file without the field, as before there was one.
    const folded = await new FileStateBackend(d, ACCOUNT).commit(read);
    expect(JSON.parse(readFileSync(store.location, 'utf8')).pendingCreates).toEqual(['AlertChannel:b']);
    const again = new FileStateBackend(d, ACCOUNT);
    await again.record(folded, {}, { 'AlertChannel:b': false });
    await again.commit(folded);
    expect(JSON.parse(readFileSync(store.location, 'utf8'))).not.toHaveProperty('pendingCreates');
    expect((await new FileStateBackend(d, ACCOUNT).read()).pendingCreates).toEqual([]);
  });

  it('a damaged line in the middle is a clear error naming the line', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    await store.record(await store.read(), { 'CheckGroup:a': entry('a', 1) });
    await store.close();
    writeFileSync(store.journalLocation, `not json\n${readFileSync(store.journalLocation, 'utf8')}`);
    await expect(new FileStateBackend(d, ACCOUNT).read()).rejects.toThrow(/line 1 is damaged/);
  });
});

describe('FileStateBackend', () => {
  it('reads an empty state when there is no file, and writes one that reads back with the serial moved', async () => {
    const store = new FileStateBackend(join(dir(), 'state'), ACCOUNT);
    const empty = await store.read();
    expect(empty).toMatchObject({
      formatVersion: STATE_FORMAT_VERSION,
      accountId: ACCOUNT,
      serial: 0,
      resources: {},
    });
    const saved = await store.commit({
      ...empty,
      resources: {
        'CheckGroup:b': {
          kind: 'CheckGroup',
          logicalId: 'b',
          physicalId: 2,
          appliedHash: 'h2',
          secretHashes: {},
          protect: false,
        },
        'CheckGroup:a': {
          kind: 'CheckGroup',
          logicalId: 'a',
          physicalId: 1,
          appliedHash: 'h1',
          secretHashes: { 'environmentVariables.Z': 'z', 'environmentVariables.A': 'a' },
          protect: true,
        },
      },
    });
    expect(saved.serial).toBe(1);
    expect(await store.read()).toEqual(saved);
    expect(store.location.endsWith(`${ACCOUNT}.json`)).toBe(true);
    // With the baseline a verified deploy keeps (format 3).
    const lastDeploy = {
      at: '2026-11-24T09:00:00.000Z',
      groups: ['CheckGroup:a'],
      baseline: {
        checks: {
          '0b000000-0000-4000-8000-000000000001': { status: 'failing' as const, locations: ['eu-west-1'] },
          '0b000000-0000-4000-8000-000000000002': { status: 'passing' as const, locations: [] },
        },
        errorGroups: { 'e0000000-0000-4000-8000-00000000000a': '0b000000-0000-4000-8000-000000000001' },
      },
    };
    const entries = Object.entries(saved.resources).map(([k, e]) => [
      k,
      { ...e, fieldHashes: 'a1b2c3:c0dec0deacc0acc0.-' },
    ]);
    await store.commit({ ...saved, lastDeploy, resources: Object.fromEntries(entries) });
    const read = await store.read();
    expect(read.lastDeploy).toEqual(lastDeploy);
    expect(Object.values(read.resources).map((e) => e.fieldHashes)).toEqual(
      entries.map(() => 'a1b2c3:c0dec0deacc0acc0.-'),
    );
  });

  it('reads a file of many 64 KB runs as it was written, characters split between two runs and all', async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    const names = Array.from({ length: 400 }, (_, i) => `name:Grüße € ${'😀€é'.repeat(100)} ${i}`);
    const resources = Object.fromEntries(
      names.map((identity, i) => [`CheckGroup:g${i}`, { ...entry(`g${i}`, i + 1), identity }]),
    );
    const saved = await store.commit({ ...(await store.read()), resources });
    const bytes = readFileSync(store.location);
    const runStarts = Array.from({ length: Math.floor(bytes.length / 65536) }, (_, k) => (k + 1) * 65536);
    // A byte 10xxxxxx continues a character begun in the run before.
    expect(runStarts.some((at) => ((bytes[at] ?? 0) & 0xc0) === 0x80)).toBe(true);
    const read = await new FileStateBackend(store.location.replace(`/${ACCOUNT}.json`, ''), ACCOUNT).read();
    expect(read).toEqual(saved);
    expect(read.resources['CheckGroup:g399']?.identity).toBe(names[399]);
  });

  it('refuses a last deploy that is not one, naming the field', async () => {
    const d = dir();
    const store = new FileStateBackend(d, ACCOUNT);
    const saved = await store.commit(await store.read());
    writeFileSync(store.location, JSON.stringify({ ...saved, lastDeploy: { at: 'yesterday', groups: [] } }));
    await expect(new FileStateBackend(d, ACCOUNT).read()).rejects.toThrow(/lastDeploy\.at/);
  });

  it('stores keys sorted and stable, so it diffs well in git', async () => {
    const state = emptyState(ACCOUNT);
    state.resources['Dashboard:z'] = {
      kind: 'Dashboard',
      logicalId: 'z',
      physicalId: 'd',
      appliedHash: 'x',
      secretHashes: {},
      protect: false,
    };
    state.resources['AlertChannel:a'] = {
      kind: 'AlertChannel',
      logicalId: 'a',
      physicalId: 3,
      appliedHash: 'y',
      secretHashes: {},
      protect: false,
    };
    const text = serializeState(state);
    expect(text.indexOf('AlertChannel:a')).toBeLessThan(text.indexOf('Dashboard:z'));
    expect(serializeState(stateSchema.parse(JSON.parse(text)) as State)).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('writes an empty state as JSON.stringify(…, null, 2) does', () => {
    const text = serializeState(emptyState(ACCOUNT));
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text).toContain('"resources": {}');
  });

  it('writes, an entry at a time, the text of JSON.stringify(…, null, 2) of every part a state has', async () => {
    const entry = (kind: StateEntry['kind'], logicalId: string, i: number): StateEntry => ({
      kind,
      logicalId,
      physicalId: kind === 'Dashboard' ? `d-${i}` : i,
      appliedHash: `h${i}`,
      secretHashes: { 'environmentVariables[Z]': 'z', 'config.url': 'u', 'environmentVariables[A]': 'a' },
      protect: i % 2 === 0,
      ...(i % 3 === 0 ? { identity: `name:Group "${i}" ✓` } : {}),
      ...(i % 4 === 0 ? { fieldHashes: 'a1b2c3:c0dec0de' } : {}),
    });
    const resources: Record<string, StateEntry> = {};
    for (let i = 2_999; i >= 0; i--) {
      const kind = i % 2 === 0 ? 'CheckGroup' : 'Dashboard';
      resources[`${kind}:e-${i}\u2028"q"`] = entry(kind, `e-${i}\u2028"q"`, i);
    }
    const state: State = {
      ...emptyState(ACCOUNT),
      service: 'https://api.example.com',
      serial: 7,
      resources,
      pendingCreates: ['Dashboard:b', 'CheckGroup:a'],
      lastDeploy: { at: '2026-11-24T09:00:00.000Z', groups: ['CheckGroup:e-0\u2028"q"'] },
    };
    const text = serializeState(state);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const stored = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual([
      'formatVersion',
      'accountId',
      'service',
      'serial',
      'salt',
      'resources',
      'pendingCreates',
      'lastDeploy',
    ]);
    expect(Object.keys(stored.resources as object)).toEqual(Object.keys(resources).sort());
    expect(stored.pendingCreates).toEqual(['CheckGroup:a', 'Dashboard:b']);
    const first = (stored.resources as Record<string, Record<string, unknown>>)['CheckGroup:e-0\u2028"q"'];
    expect(Object.keys(first ?? {})).toEqual([
      'kind',
      'logicalId',
      'physicalId',
      'appliedHash',
      'secretHashes',
      'protect',
      'identity',
      'fieldHashes',
    ]);
    expect(Object.keys(first?.secretHashes as object)).toEqual([
      'config.url',
      'environmentVariables[A]',
      'environmentVariables[Z]',
    ]);
    // The file a commit writes is that text, with the serial moved, written in runs of about
    // 64 KB: never the whole text as one string (and one buffer).
    const writes: number[] = [];
    const counting = {
      ...fs,
      writeSync: ((fd: number, buffer: Uint8Array, offset?: number, length?: number) => {
        writes.push(length ?? buffer.byteLength);
        return fs.writeSync(fd, buffer, offset, length);
      }) as typeof fs.writeSync,
    };
    const store = new FileStateBackend(join(dir(), 'state'), ACCOUNT, counting);
    const saved = await store.commit(state);
    expect(readFileSync(store.location, 'utf8')).toBe(serializeState(saved));
    expect(saved.serial).toBe(8);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(writes.length).toBeGreaterThan(10);
    expect(Math.max(...writes)).toBeLessThan(200_000);
  });

  it('commits leave the state file alone beside nothing: no temp file, no journal (atomicity: atomic-write.test.ts)', async () => {
    const d = join(dir(), 'state');
    const store = new FileStateBackend(d, ACCOUNT);
    let last = await store.read();
    for (let i = 0; i < 5; i++) {
      await store.record(last, { [`CheckGroup:g${i}`]: entry(`g${i}`, i + 1) });
      last = await store.commit(last);
    }
    expect(readdirSync(d)).toEqual([`${ACCOUNT}.json`]);
    expect(await new FileStateBackend(d, ACCOUNT).read()).toEqual(last);
  });

  it('refuses a corrupt file, a foreign format and another account, without touching the file', async () => {
    const d = dir();
    const store = new FileStateBackend(d, ACCOUNT);
    writeFileSync(store.location, '{"formatVersion":1,');
    await expect(store.read()).rejects.toThrow(EngineError);
    await expect(store.read()).rejects.toThrow(/not valid JSON/);
    writeFileSync(store.location, JSON.stringify({ formatVersion: 'x', accountId: ACCOUNT }));
    await expect(store.read()).rejects.toThrow(/not a monitor state \(format x\)/);
    writeFileSync(store.location, serializeState(emptyState('someone-else')));
    await expect(store.read()).rejects.toThrow(/belongs to account someone-else/);
    expect(readFileSync(store.location, 'utf8')).toContain('someone-else');
  });
});

describe('the state format version', () => {
  const v1Entry = {
    kind: 'CheckGroup',
    logicalId: 'g',
    physicalId: 1,
    appliedHash: 'h',
    secretHashes: {},
    protect: false,
  };
  const fileOf = (formatVersion: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      formatVersion,
      accountId: ACCOUNT,
      serial: 1,
      salt: 'salt-salt-salt',
      resources: { 'CheckGroup:g': { ...v1Entry, ...extra } },
    });

  it('a state from a newer monitor is refused as such, with upgrade as the way out and no word of restoring', async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    fs.mkdirSync(join(store.location, '..'), { recursive: true });
    // Whatever keys a newer monitor added, the version is what is read first.
    writeFileSync(store.location, fileOf(STATE_FORMAT_VERSION + 1, { ownerProject: 'platform' }));
    const error = (await store.read().catch((e: unknown) => e)) as EngineError;
    expect(error.message).toBe(
      `state file ${store.location} was written by a newer monitor (state format ${STATE_FORMAT_VERSION + 1}; this monitor reads up to ${STATE_FORMAT_VERSION})`,
    );
    expect(error.hint).toMatch(/^upgrade monitor/);
    expect(error.hint).not.toMatch(/restore it from git/);
  });

  it('a state of format 1, with or without the keys added since, is read and written back as the current format', async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    fs.mkdirSync(join(store.location, '..'), { recursive: true });
    for (const extra of [{}, { identity: 'name:G', fieldHashes: 'abc' }]) {
      writeFileSync(store.location, fileOf(1, extra));
      const read = await store.read();
      expect(read.formatVersion).toBe(STATE_FORMAT_VERSION);
      expect(read.resources['CheckGroup:g']).toEqual({ ...v1Entry, ...extra });
      await store.commit(read);
      expect(JSON.parse(readFileSync(store.location, 'utf8')).formatVersion).toBe(STATE_FORMAT_VERSION);
    }
  });

  it('a state of format 2, with a last deploy, is read and written back as the current format', async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    fs.mkdirSync(join(store.location, '..'), { recursive: true });
    const lastDeploy = { at: '2026-11-24T09:00:00.000Z', groups: ['CheckGroup:g'] };
    writeFileSync(store.location, JSON.stringify({ ...JSON.parse(fileOf(2)), lastDeploy }));
    const read = await store.read();
    expect(read.formatVersion).toBe(STATE_FORMAT_VERSION);
    expect(read.lastDeploy).toEqual(lastDeploy);
    await store.commit(read);
    expect(JSON.parse(readFileSync(store.location, 'utf8'))).toMatchObject({
      formatVersion: STATE_FORMAT_VERSION,
      lastDeploy,
    });
  });

  it("a state of format 3 is read as the current format; an entry's uses are kept, sorted, and read back by both readers", async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    fs.mkdirSync(join(store.location, '..'), { recursive: true });
    writeFileSync(store.location, fileOf(3));
    const read = await store.read();
    expect(read.formatVersion).toBe(STATE_FORMAT_VERSION);
    expect(read.resources['CheckGroup:g']).toEqual(v1Entry);
    const uses = ['platform/AlertChannel:slack', 'billing/AlertChannel:mail'];
    read.resources['CheckGroup:g'] = { ...v1Entry, kind: 'CheckGroup', uses };
    await store.commit(read);
    const written = JSON.parse(readFileSync(store.location, 'utf8'));
    expect(written.resources['CheckGroup:g'].uses).toEqual([...uses].sort());
    expect((await store.read()).resources['CheckGroup:g']?.uses).toEqual([...uses].sort());
    // The schema reads what the fast reader refuses (a use that is not text), and names it.
    expect(plainState(written)).toBeDefined();
    const bad = { ...written, resources: { 'CheckGroup:g': { ...v1Entry, uses: [1] } } };
    expect(plainState(bad)).toBeUndefined();
    expect(stateSchema.safeParse(bad).error?.issues[0]?.path).toEqual([
      'resources',
      'CheckGroup:g',
      'uses',
      0,
    ]);
  });

  it('the keys of each format are pinned: a key added to the state needs a new format version', () => {
    const KEYS_OF_FORMAT: Record<
      number,
      { state: string[]; entry: string[]; lastDeploy: string[]; baseline?: string[]; checkBefore?: string[] }
    > = {
      // 4: what each entry uses of other projects (their delete protection).
      4: {
        state: [
          'formatVersion',
          'accountId',
          'service',
          'serial',
          'salt',
          'resources',
          'pendingCreates',
          'lastDeploy',
        ],
        entry: [
          'kind',
          'logicalId',
          'physicalId',
          'appliedHash',
          'secretHashes',
          'protect',
          'identity',
          'fieldHashes',
          'uses',
        ],
        lastDeploy: ['at', 'groups', 'baseline'],
        baseline: ['checks', 'errorGroups'],
        checkBefore: ['status', 'locations'],
      },
      // 3: the baseline a verified deploy keeps in its record.
      3: {
        state: [
          'formatVersion',
          'accountId',
          'service',
          'serial',
          'salt',
          'resources',
          'pendingCreates',
          'lastDeploy',
        ],
        entry: [
          'kind',
          'logicalId',
          'physicalId',
          'appliedHash',
          'secretHashes',
          'protect',
          'identity',
          'fieldHashes',
        ],
        lastDeploy: ['at', 'groups', 'baseline'],
        baseline: ['checks', 'errorGroups'],
        checkBefore: ['status', 'locations'],
      },
      2: {
        state: [
          'formatVersion',
          'accountId',
          'service',
          'serial',
          'salt',
          'resources',
          'pendingCreates',
          'lastDeploy',
        ],
        entry: [
          'kind',
          'logicalId',
          'physicalId',
          'appliedHash',
          'secretHashes',
          'protect',
          'identity',
          'fieldHashes',
        ],
        lastDeploy: ['at', 'groups'],
      },
    };
    const pinned = KEYS_OF_FORMAT[STATE_FORMAT_VERSION];
    expect(Object.keys(stateSchema.shape)).toEqual(pinned?.state);
    expect(Object.keys(stateEntrySchema.shape)).toEqual(pinned?.entry);
    const lastDeploy = stateSchema.shape.lastDeploy.unwrap();
    expect(Object.keys(lastDeploy.shape)).toEqual(pinned?.lastDeploy);
    const baseline = lastDeploy.shape.baseline.unwrap();
    expect(Object.keys(baseline.shape)).toEqual(pinned?.baseline);
    expect(Object.keys(baseline.shape.checks.valueType.shape)).toEqual(pinned?.checkBefore);
  });

  it("the reader of format 2 refuses a file of this format as a newer monitor's, not as damage", () => {
    // A copy of the version check of the release that wrote format 2: it reads up to 2.
    const releasedCheck = (version: unknown) =>
      typeof version === 'number' && Number.isInteger(version) && version > 2 ? 'newer' : 'read';
    const written = JSON.parse(
      serializeState({
        ...emptyState(ACCOUNT),
        lastDeploy: { at: '2026-11-24T09:00:00.000Z', groups: [], baseline: { checks: {}, errorGroups: {} } },
      }),
    ) as Record<string, unknown>;
    expect(releasedCheck(written.formatVersion)).toBe('newer');
    // Read as format 2, its record of the last deploy would be damage: that schema is strict.
    const released = z.strictObject({ at: z.iso.datetime(), groups: z.array(z.string()) });
    expect(released.safeParse(written.lastDeploy).success).toBe(false);
  });

  it("the last release's reader (format 1 only) refuses a file of this format instead of reading it as its own", () => {
    // A copy of the reader of the release before identity and field hashes were added.
    const releasedSchema = z.strictObject({
      formatVersion: z.literal(1),
      accountId: z.string().min(1),
      service: z.string().min(1).optional(),
      serial: z.number().int().min(0),
      salt: z.string().min(8),
      resources: z.record(
        z.string(),
        z.strictObject({
          kind: z.string(),
          logicalId: z.string().min(1),
          physicalId: z.union([z.string().min(1), z.number().int()]),
          appliedHash: z.string(),
          secretHashes: z.record(z.string(), z.string()),
          protect: z.boolean(),
        }),
      ),
      pendingCreates: z.array(z.string()).default([]),
      lastDeploy: z.strictObject({ at: z.iso.datetime(), groups: z.array(z.string()) }).optional(),
    });
    const written = JSON.parse(serializeState(emptyState(ACCOUNT))) as Record<string, unknown>;
    const refused = releasedSchema.safeParse(written);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['formatVersion']);
  });
});

describe('acquireLock', () => {
  it('holds the lock with pid, host and start time; a second taker is refused, naming the holder', async () => {
    const path = join(dir(), 'x.lock');
    const release = await acquireLock(path, { command: 'monitor deploy' });
    const holder = JSON.parse(readFileSync(path, 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), command: 'monitor deploy' });
    const error = (await acquireLock(path).catch((e: unknown) => e)) as LockHeldError;
    expect(error).toBeInstanceOf(LockHeldError);
    expect(error.code).toBe('locked');
    expect(error.message).toContain(`monitor deploy (pid ${process.pid} on ${hostname()}`);
    expect(error.hint).toContain(path);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it('waits up to the timeout for a held lock, saying whom it waits for, and takes it once released', async () => {
    const path = join(dir(), 'x.lock');
    const release = await acquireLock(path, { command: 'monitor deploy' });
    let released = false;
    const waitedFor: (string | undefined)[] = [];
    const second = acquireLock(path, {
      command: 'monitor destroy',
      timeoutMs: 10_000,
      pollMs: 5,
      onWait: (holder) => {
        waitedFor.push(holder?.command);
        // The holder goes away only once the waiter has said it waits.
        released = true;
        release();
      },
    });
    const releaseSecond = await second;
    expect(released).toBe(true);
    expect(waitedFor).toEqual(['monitor deploy']);
    expect(JSON.parse(readFileSync(path, 'utf8')).command).toBe('monitor destroy');
    releaseSecond();
  });

  it('a wait that runs out has said once whom it waited for; no timeout means no wait and no word', async () => {
    const path = join(dir(), 'x.lock');
    const release = await acquireLock(path, { command: 'monitor deploy' });
    const waitedFor: (string | undefined)[] = [];
    const onWait = (holder: { command: string } | undefined) => waitedFor.push(holder?.command);
    await expect(acquireLock(path, { timeoutMs: 0, onWait })).rejects.toBeInstanceOf(LockHeldError);
    expect(waitedFor).toEqual([]);
    await expect(acquireLock(path, { timeoutMs: 1, pollMs: 5, onWait })).rejects.toBeInstanceOf(
      LockHeldError,
    );
    expect(waitedFor).toEqual(['monitor deploy']);
    release();
  });

  it('takes over a stale lock whose process is gone', async () => {
    const path = join(dir(), 'x.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    writeFileSync(
      path,
      JSON.stringify({
        pid: Number(dead.stdout),
        host: hostname(),
        startedAt: '2026-01-01T00:00:00Z',
        command: 'monitor deploy',
      }),
    );
    const stale: string[] = [];
    const release = await acquireLock(path, { onStale: (removed) => stale.push(removed) });
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    expect(stale).toEqual([
      expect.stringMatching(/^the lock of monitor deploy \(pid \d+.*no longer running$/),
    ]);
    release();
  });

  it('a full disk while writing the holder leaves no lock behind: the next run takes it once there is space', async () => {
    const path = join(dir(), 'x.lock');
    const fullDisk = {
      ...fs,
      writeSync: (() => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }) as typeof fs.writeSync,
    };
    await expect(acquireLock(path, { command: 'monitor deploy' }, fullDisk)).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(existsSync(path)).toBe(false);
    const release = await acquireLock(path, { command: 'monitor deploy' });
    release();
  });

  it('a lock file that names no run is taken over once it is a few seconds old, saying so; a fresh one is held', async () => {
    const path = join(dir(), 'x.lock');
    for (const text of ['', '{"pid":', 'null']) {
      writeFileSync(path, text);
      // Just made: a run may be writing its holder into it right now.
      await expect(acquireLock(path, { timeoutMs: 0 })).rejects.toBeInstanceOf(LockHeldError);
      const old = new Date(Date.now() - UNREADABLE_LOCK_STALE_MS - 1_000);
      fs.utimesSync(path, old, old);
      const stale: string[] = [];
      const release = await acquireLock(path, { onStale: (removed) => stale.push(removed) });
      expect(stale).toEqual([expect.stringContaining(`the lock file ${path}, which has named no run for`)]);
      expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
      release();
    }
  });

  it('two runs that judge one stale lock never both hold it: the later one puts the first one’s new lock back', async () => {
    const path = join(dir(), 'x.lock');
    writeFileSync(path, '');
    const old = new Date(Date.now() - UNREADABLE_LOCK_STALE_MS - 1_000);
    fs.utimesSync(path, old, old);
    // B looks at the old file and judges it stale; then A takes it over and holds a lock of its own.
    const judgedByB = fs.statSync(path);
    const releaseA = await acquireLock(path, { command: 'run A' });
    expect(JSON.parse(readFileSync(path, 'utf8')).command).toBe('run A');
    // B's take-over of what it judged: A's lock stays, and B cannot take it.
    takeOverStale(path, judgedByB, fs);
    expect(JSON.parse(readFileSync(path, 'utf8')).command).toBe('run A');
    await expect(acquireLock(path, { command: 'run B' })).rejects.toBeInstanceOf(LockHeldError);
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('.stale-'))).toEqual([]);
    releaseA();
  });

  it('a lock file this run may not read is held by some run, however old', async () => {
    const path = join(dir(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: 'x', command: 'c' }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path, old, old);
    const denied = {
      ...fs,
      readFileSync: ((p: fs.PathOrFileDescriptor, o?: unknown) => {
        if (String(p) === path)
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return (fs.readFileSync as (...a: unknown[]) => unknown)(p, o);
      }) as typeof fs.readFileSync,
    };
    await expect(acquireLock(path, { command: 'me' }, denied)).rejects.toBeInstanceOf(LockHeldError);
    expect(existsSync(path)).toBe(true);
  });

  it('state unlock --force removes a lock file that names no run, and says what it removed', async () => {
    const store = new FileStateBackend(dir(), ACCOUNT);
    expect(await store.forceUnlock()).toEqual({ holder: undefined, removed: undefined });
    fs.mkdirSync(join(store.lockLocation, '..'), { recursive: true });
    writeFileSync(store.lockLocation, '');
    expect(await store.forceUnlock()).toEqual({
      holder: undefined,
      removed: `the lock file ${store.lockLocation}, which named no run (empty or unreadable)`,
    });
    expect(existsSync(store.lockLocation)).toBe(false);
  });
});

describe('plainState', () => {
  /** A small seeded generator: the same cases on every run. */
  function random(seed: number): (n: number) => number {
    let x = seed;
    return (n) => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x % n;
    };
  }
  const ABSENT = Symbol('absent');
  /** Each field's candidates, those the schema takes and those it refuses; ABSENT leaves it out. */
  const VARIANTS: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
    kind: { valid: ['CheckGroup', 'AlertChannel', 'Dashboard'], invalid: ['checkGroup', '', 3, ABSENT] },
    logicalId: { valid: ['g', 'a/b#c'], invalid: ['', 7, null, ABSENT] },
    physicalId: {
      valid: [1, 0, -4, Number.MAX_SAFE_INTEGER, 'abc'],
      invalid: [2 ** 53, 1.5, '', null, ABSENT],
    },
    appliedHash: { valid: ['h', ''], invalid: [1, ABSENT] },
    secretHashes: {
      valid: [
        {},
        { 'environmentVariables[TOKEN]': 'x' },
        { 'environmentVariables[TOKEN].value': 'x', 'config.url': 'y' },
        { 'environmentVariables[A]': 'old', 'environmentVariables[A].value': 'new' },
      ],
      invalid: [{ a: 1 }, [], null, ABSENT],
    },
    protect: { valid: [true, false], invalid: ['true', ABSENT] },
    identity: { valid: ['name:Payments', '', ABSENT], invalid: [5] },
    fieldHashes: { valid: ['ab12', ABSENT], invalid: [1] },
    uses: { valid: [['platform/AlertChannel:pd', 'b/CheckGroup:g'], [], ABSENT], invalid: [[1], [''], 'x'] },
    extra: { valid: [ABSENT], invalid: ['surprise'] },
  };
  /** An entry whose fields are each refused one time in 25. */
  const entryFrom = (pick: (n: number) => number) => {
    const out: Record<string, unknown> = {};
    for (const [field, { valid, invalid }] of Object.entries(VARIANTS)) {
      const options = pick(25) === 0 ? invalid : valid;
      const value = options[pick(options.length)];
      if (value !== ABSENT) out[field] = value;
    }
    return out;
  };
  const stateOf = (resources: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
    formatVersion: 1,
    accountId: ACCOUNT,
    serial: 3,
    salt: 'salt-salt-salt',
    resources,
    ...rest,
  });

  it('reads every state as the schema does, or leaves it to the schema', () => {
    const pick = random(28);
    let read = 0;
    let left = 0;
    for (let i = 0; i < 3000; i++) {
      const resources: Record<string, unknown> = {};
      for (let k = 0; k < 1 + pick(3); k++) resources[`CheckGroup:e${k}`] = entryFrom(pick);
      const raw = JSON.parse(JSON.stringify(stateOf(resources))) as unknown;
      const plain = plainState(raw);
      const schema = stateSchema.safeParse(raw);
      if (plain === undefined) {
        left++;
        continue;
      }
      read++;
      expect(schema.success, JSON.stringify(raw)).toBe(true);
      // The same fields in the same order: the state is written back as it was read.
      expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.data));
    }
    expect(read).toBeGreaterThan(1000);
    expect(left).toBeGreaterThan(500);
  });

  it('reads a state as monitor writes it, and leaves the rest to the schema', () => {
    const written = stateOf(
      {
        'CheckGroup:g': { ...entry('g', 1), identity: 'name:G', fieldHashes: 'ab' },
        'AlertChannel:mail': { ...entry('mail', 2), kind: 'AlertChannel' },
      },
      {
        service: 'local',
        pendingCreates: ['CheckGroup:h'],
        lastDeploy: { at: '2026-11-24T00:00:00Z', groups: [] },
      },
    );
    expect(plainState(written)).toEqual(stateSchema.parse(written));
    // Wrong beside the entries, or a key that would set the prototype: for the schema to say.
    expect(plainState({ ...written, serial: -1 })).toBeUndefined();
    expect(plainState({ ...written, resources: JSON.parse('{"__proto__": {}}') })).toBeUndefined();
    const secrets = { ...entry('g', 1), secretHashes: JSON.parse('{"__proto__": "x"}') };
    expect(plainState(stateOf({ 'CheckGroup:g': secrets }))).toBeUndefined();
  });
});
