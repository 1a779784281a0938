import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect, createClient } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulator } from './index.js';
import { Store } from './store.js';
import { stopChild, stopWhenTestEnds } from './test-support/children.js';
import { tempDir } from './test-support/temp-dir.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Start the built bin in a child process and wait for its URL; killed when the test ends, if not before. */
function startChild(dataFile: string): Promise<{ url: string; kill(): Promise<void> }> {
  const child = stopWhenTestEnds(
    spawn(process.execPath, [BIN, '--port', '0', '--agent-health-port', '0', '--quiet', '--data', dataFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        resolve({ url: m[1], kill: () => stopChild(child) });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
  });
}

// Child processes start and stop several times: on a loaded 2-core machine that alone takes
// seconds, so these tests have the package's timeout (vitest.config.ts), not one of their own.
describe('persistence', () => {
  it('keeps every write across a kill and a restart', async () => {
    const dir = tempDir('emulator-data-');
    const dataFile = join(dir, 'data.json');
    const first = await startChild(dataFile);
    const client = createClient({
      baseUrl: first.url,
      apiKey: DEV_API_KEY,
      accountId: DEV_ACCOUNT_ID,
      env: {},
    });
    const group = await client.checkGroups.create(
      { name: 'survives', tags: ['a'] },
      { autoAssignAlerts: false },
    );
    await client.checkGroups.update(group.id, { name: 'survives', muted: true });
    const service = await client.statusPageServices.create({ name: 'kept' });
    await client.close();
    await first.kill(); // SIGKILL: no chance to flush anything on exit

    const second = await startChild(dataFile);
    const again = createClient({
      baseUrl: second.url,
      apiKey: DEV_API_KEY,
      accountId: DEV_ACCOUNT_ID,
      env: {},
    });
    expect(await again.checkGroups.get(group.id)).toMatchObject({
      name: 'survives',
      muted: true,
      tags: ['a'],
    });
    expect(await again.statusPageServices.get(service.id)).toMatchObject({ name: 'kept' });
    const next = await again.checkGroups.create({ name: 'after restart' });
    expect(next.id).toBe(group.id + 1);
    await again.close();
    await second.kill();
  });

  it('loads the data file after kills at random moments during a stream of writes', async () => {
    const dir = tempDir('emulator-data-');
    const dataFile = join(dir, 'data.json');
    for (let round = 0; round < 3; round++) {
      const child = await startChild(dataFile);
      const client = createClient({
        baseUrl: child.url,
        apiKey: DEV_API_KEY,
        accountId: DEV_ACCOUNT_ID,
        env: {},
        rateLimit: false,
      });
      // Kill once a few writes were answered, with the rest in flight: a moment chosen by
      // progress, not by a timer.
      let answered = 0;
      let killAt: () => void = () => {};
      const enough = new Promise<void>((resolve) => {
        killAt = resolve;
      });
      const writes = Array.from({ length: 40 }, (_, i) =>
        client.statusPageServices
          .create({ name: `r${round}-${i}` })
          .then(() => {
            if (++answered === 3 + round * 7) killAt();
          })
          .catch(() => undefined),
      );
      await enough;
      await child.kill();
      await Promise.all(writes);
      await client.close();
      expect(() => Store.load(dataFile)).not.toThrow();
    }
    const emulator = await startEmulator({ dataFile, agentHealthPort: false });
    const client = createClient({
      baseUrl: emulator.url,
      apiKey: DEV_API_KEY,
      accountId: DEV_ACCOUNT_ID,
      env: {},
    });
    expect((await collect(client.statusPageServices.all())).length).toBeGreaterThan(0);
    await client.close();
    await emulator.close();
  });

  it('keeps the old data file whole when a save fails part-way (the disk fills up)', async () => {
    const dir = tempDir('emulator-data-');
    const dataFile = join(dir, 'data.json');
    const store = new Store(dataFile);
    store.account('a').tables.checkGroups['1'] = { id: 1, name: 'kept' };
    store.save();
    const before = readFileSync(dataFile, 'utf8');
    let budget = 64;
    const fullDisk = {
      ...fs,
      writeSync: ((fd: number, buffer: Buffer, offset: number, length: number) => {
        if (budget <= 0)
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        const n = Math.min(budget, length);
        budget -= n;
        return fs.writeSync(fd, buffer, offset, n);
      }) as typeof fs.writeSync,
    };
    const failing = new Store(dataFile, fullDisk);
    failing.account('a').tables.checkGroups['2'] = { id: 2, name: 'x'.repeat(1000) };
    expect(() => failing.save()).toThrow(/ENOSPC/);
    expect(readFileSync(dataFile, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['data.json']);
  });

  it('refuses a corrupt data file with a clear error instead of starting empty', async () => {
    const dir = tempDir('emulator-data-');
    const dataFile = join(dir, 'data.json');
    writeFileSync(dataFile, '{"version":1,"accounts":{');
    await expect(startEmulator({ dataFile, agentHealthPort: false })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(dataFile, 'utf8')).toBe('{"version":1,"accounts":{');
  });
});
