import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CheckGroup,
  createSession,
  EmailAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
} from '@monitor/constructs';
import { afterEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { readLive } from '../live/read-live.js';
import { plan } from '../plan/plan.js';
import { FakeAccount } from '../test-support/doubles.js';
import { FileStateBackend, type StateFs } from './file-store.js';

/**
 * A full disk at every write position of a small deploy: a write is sent only once its intent is
 * on disk, and whatever was created while the journal could not be written is found again by the
 * next run, which converges with no duplicate and no conflict.
 */

const NOW = { now: new Date('2026-11-21T00:00:00Z'), secretKey: 'k' };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project() {
  createSession();
  const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
  new CheckGroup('g1', { name: 'G1', alertChannels: [mail] });
  new CheckGroup('g2', { name: 'G1' }); // the same name: names repeat
  const svc = new StatusPageService('svc', { name: 'API' });
  new StatusPage('page', { name: 'Page', url: 'acme-page', cards: [{ name: 'Core', services: [svc] }] });
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/**
 * The real file system, until the `failAt`-th write: that write writes part of its bytes and
 * returns the short count without an error, as a write that fills a disk does; every later write
 * fails with ENOSPC. Syncing what was written still works. With `syncFails`, the `failAt`-th
 * write or sync call fails instead, with nothing written.
 */
function fullDiskAt(failAt: number, syncFails = false) {
  let calls = 0;
  let full = false;
  const write = ((fd: number, data: Buffer | string, ...rest: unknown[]) => {
    calls++;
    if (full) throw enospc();
    if (calls < failAt) return (nodeFs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
    full = true;
    if (syncFails) throw enospc();
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const offset = typeof data === 'string' ? 0 : ((rest[0] as number | undefined) ?? 0);
    const length =
      typeof data === 'string' ? bytes.length : ((rest[1] as number | undefined) ?? bytes.length - offset);
    return nodeFs.writeSync(fd, bytes, offset, Math.max(1, Math.floor(length / 2)));
  }) as typeof nodeFs.writeSync;
  const sync =
    (real: (fd: number) => void) =>
    (fd: number): void => {
      if (syncFails && ++calls === failAt) throw enospc();
      real(fd);
    };
  const fs: StateFs = {
    ...nodeFs,
    writeSync: write,
    fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      try {
        sync(nodeFs.fdatasyncSync)(fd);
      } catch (error) {
        setImmediate(() => done(error as NodeJS.ErrnoException));
        return;
      }
      setImmediate(() => done(null));
    }) as typeof nodeFs.fdatasync,
    fsyncSync: sync(nodeFs.fsyncSync),
  };
  return { fs, calls: () => calls };
}

describe('a full disk during a deploy', () => {
  it.each([
    { fault: 'a short write, then ENOSPC', syncFails: false },
    { fault: 'a write or sync that fails', syncFails: true },
  ])(
    'loses nothing at any write position ($fault): the next run converges, with no duplicate and no conflict',
    async ({ syncFails }) => {
      const desired = project();
      const unrecorded: string[] = [];
      let position = 1;
      for (; ; position++) {
        const dir = mkdtempSync(join(tmpdir(), 'monitor-disk-full-'));
        dirs.push(dir);
        const account = new FakeAccount();
        const disk = fullDiskAt(position, syncFails);
        const failing = new FileStateBackend(dir, 'acct', disk.fs);
        // A create leaves only once its intent is on disk: what is on disk then names one more
        // pending create (or recorded entry) of its kind than creates of that kind were sent before.
        const sent = new Map<string, number>();
        account.before = async ({ op, kind }) => {
          if (op !== 'create') return;
          sent.set(kind, (sent.get(kind) ?? 0) + 1);
          const onDisk = await new FileStateBackend(dir, 'acct').read();
          const known = [...Object.keys(onDisk.resources), ...onDisk.pendingCreates].filter((k) =>
            k.startsWith(`${kind}:`),
          );
          if (known.length < (sent.get(kind) ?? 0))
            unrecorded.push(`a ${kind} create sent with no intent on disk (full disk at write ${position})`);
        };
        let result: Awaited<ReturnType<typeof apply>> | undefined;
        try {
          result = await apply(plan(desired, await readLive(account), await failing.read(), NOW), {
            client: account,
            backend: failing,
            parallelism: 2,
          });
        } catch (error) {
          // Only the first record (before any request) may throw out of apply.
          expect((error as { code?: string }).code).toBe('state_storage');
          expect(account.calls.filter((c) => c.startsWith('create'))).toEqual([]);
        }
        await failing.close();
        const writesDone = result?.ok === true && result.stateError === undefined;

        // Space freed: the next run reads what was recorded and finishes the job.
        const healthy = new FileStateBackend(dir, 'acct');
        const state = await healthy.read();
        const next = plan(desired, await readLive(account), state, NOW);
        expect(next.conflicts, `conflicts after a full disk at write ${position}`).toEqual([]);
        const rerun = await apply(next, { client: account, backend: healthy });
        expect(rerun.ok, `re-run after a full disk at write ${position}`).toBe(true);
        // One resource per construct: nothing created twice.
        expect(account.all('CheckGroup')).toHaveLength(2);
        expect(account.all('AlertChannel')).toHaveLength(1);
        expect(account.all('StatusPage')).toHaveLength(1);
        expect(account.all('StatusPageService')).toHaveLength(1);
        const after = plan(desired, await readLive(account), await healthy.read(), NOW);
        expect(after.operations, `a third plan after a full disk at write ${position}`).toEqual([]);
        await healthy.close();
        if (writesDone && disk.calls() < position) break;
      }
      expect(unrecorded).toEqual([]);
      // The deploy has this many write positions; each was a full disk once.
      expect(position).toBeGreaterThan(10);
    },
  );
});
