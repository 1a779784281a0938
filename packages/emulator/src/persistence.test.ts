import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect, createClient } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNT_ID, DEV_API_KEY, Store, startEmulator } from './index.js';
import { harness } from './test-support/harness.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Start the built bin in a child process and wait for its URL. */
function startChild(dataFile: string): Promise<{ url: string; kill(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [BIN, '--port', '0', '--agent-health-port', '0', '--quiet', '--data', dataFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) {
        resolve({
          url: m[1],
          kill: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
  });
}

describe('persistence', () => {
  it('keeps every write across a kill and a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
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
    const dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
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
      const writes = Array.from({ length: 40 }, (_, i) =>
        client.statusPageServices.create({ name: `r${round}-${i}` }).catch(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 15 + round * 10));
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

  it('never lets a truncated temp file replace the data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
    const dataFile = join(dir, 'data.json');
    const h = await harness({ dataFile });
    await h.client.checkGroups.create({ name: 'kept' });
    const before = readFileSync(dataFile, 'utf8');
    // A crash mid-write leaves a partial temp file beside the data file; it must never be read.
    writeFileSync(join(dir, `.data.json.${process.pid}.tmp`), before.slice(0, before.length / 2));
    await h.emulator.close();
    const restarted = await harness({ dataFile });
    expect((await restarted.client.checkGroups.list()).items.map((g) => g.name)).toEqual(['kept']);
    expect(JSON.parse(readFileSync(dataFile, 'utf8'))).toEqual(JSON.parse(before));
  });

  it('refuses a corrupt data file with a clear error instead of starting empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
    const dataFile = join(dir, 'data.json');
    writeFileSync(dataFile, '{"version":1,"accounts":{');
    await expect(startEmulator({ dataFile, agentHealthPort: false })).rejects.toThrow(
      /not valid JSON.*move it away/,
    );
    expect(readFileSync(dataFile, 'utf8')).toBe('{"version":1,"accounts":{');
  });
});
