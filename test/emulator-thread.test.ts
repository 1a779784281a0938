// The emulator in a worker thread (what `--local` commands use): it serves the same API, saves its
// data when closed, fails with the same coded errors, and one started early neither keeps a
// process alive nor answers a command that asked for other options.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect, createClient } from '@monitor/api';
import { EmulatorDataError, PortInUseError } from '@monitor/emulator';
import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulatorThread } from '@monitor/emulator/thread';
import { afterEach, describe, expect, it } from 'vitest';
import { stopWhenTestEnds } from './support/children.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-thread-'));
  dirs.push(dir);
  return dir;
}

const clientOf = (url: string) =>
  createClient({ baseUrl: url, apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, env: {} });

/** The packages a child script imports, by URL: its file lies outside the workspace. */
const IMPORTS: Record<string, string> = {
  '@monitor/api': import.meta.resolve('@monitor/api'),
  '@monitor/emulator/thread': import.meta.resolve('@monitor/emulator/thread'),
};

/** Run an ES module in a child node; resolves to its exit code and output. Killed when the test ends. */
function runNode(source: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = join(tempDir(), 'script.mjs');
  writeFileSync(
    script,
    source.replace(/from '(@monitor\/[a-z/]+)'/g, (_, name: string) => `from '${IMPORTS[name] ?? name}'`),
  );
  const child = stopWhenTestEnds(spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('startEmulatorThread', () => {
  it('serves the API from its thread and saves what was written when it closes', async () => {
    const dataFile = join(tempDir(), 'emulator.json');
    const emulator = await startEmulatorThread({ port: 0, dataFile, agentHealthPort: false });
    const client = clientOf(emulator.url);
    try {
      const group = await client.checkGroups.create({ name: 'from the thread' }, { autoAssignAlerts: false });
      expect((await client.checkGroups.get(group.id)).name).toBe('from the thread');
    } finally {
      await client.close();
      await emulator.close();
    }
    expect(readFileSync(dataFile, 'utf8')).toContain('from the thread');

    const again = await startEmulatorThread({ port: 0, dataFile, agentHealthPort: false });
    const next = clientOf(again.url);
    try {
      const names = (await collect(next.checkGroups.all())).map((g) => g.name);
      expect(names).toContain('from the thread');
    } finally {
      await next.close();
      await again.close();
    }
  });

  it('a corrupt data file fails with the coded error and its hint, and the file is left as it is', async () => {
    const dataFile = join(tempDir(), 'emulator.json');
    writeFileSync(dataFile, '{"broken');
    const failure = await startEmulatorThread({ port: 0, dataFile, agentHealthPort: false }).then(
      () => undefined,
      (error: unknown) => error as { code?: string; hint?: string; message: string },
    );
    expect(failure).toBeInstanceOf(EmulatorDataError);
    expect(failure?.code).toBe('emulator_data');
    expect(failure?.message).toContain(dataFile);
    expect(failure?.hint).toContain('move it away');
    expect(readFileSync(dataFile, 'utf8')).toBe('{"broken');
  });

  it('a busy port fails with port_unavailable', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const failure = await startEmulatorThread({ port, host: '127.0.0.1', agentHealthPort: false }).then(
        () => undefined,
        (error: unknown) => error as { code?: string },
      );
      expect(failure).toBeInstanceOf(PortInUseError);
      expect(failure?.code).toBe('port_unavailable');
    } finally {
      busy.close();
    }
  });
});

describe('an emulator thread started early', () => {
  it('does not keep the process alive when nothing takes it', async () => {
    const dataFile = join(tempDir(), 'emulator.json');
    const run = await runNode(`
      import { startEmulatorThreadEarly } from '@monitor/emulator/thread';
      startEmulatorThreadEarly({ port: 0, dataFile: ${JSON.stringify(dataFile)}, agentHealthPort: false });
      console.log('started');
    `);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('started\n');
  });

  it('answers only a take with the same options: other options get an emulator of their own', async () => {
    const dir = tempDir();
    const early = join(dir, 'early.json');
    const asked = join(dir, 'asked.json');
    const seed = async (dataFile: string, name: string) => {
      const emulator = await startEmulatorThread({ port: 0, dataFile, agentHealthPort: false });
      const client = clientOf(emulator.url);
      await client.checkGroups.create({ name }, { autoAssignAlerts: false });
      await client.close();
      await emulator.close();
    };
    await seed(early, 'in the early data');
    await seed(asked, 'in the asked-for data');
    const names = (dataFile: string) => `
      const emulator = await takeEmulatorThread({ port: 0, dataFile: ${JSON.stringify(dataFile)}, agentHealthPort: false });
      const client = createClient({ baseUrl: emulator.url, apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, env: {} });
      console.log(JSON.stringify((await collect(client.checkGroups.all())).map((g) => g.name)));
      await client.close();
      await emulator.close();
    `;
    const header = `
      import { collect, createClient } from '@monitor/api';
      import { DEV_ACCOUNT_ID, DEV_API_KEY, startEmulatorThreadEarly, takeEmulatorThread } from '@monitor/emulator/thread';
      startEmulatorThreadEarly({ port: 0, dataFile: ${JSON.stringify(early)}, agentHealthPort: false });
    `;

    const same = await runNode(header + names(early));
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toContain('in the early data');

    const other = await runNode(header + names(asked));
    expect(other.stderr).toBe('');
    expect(other.code).toBe(0);
    const seen = JSON.parse(other.stdout) as string[];
    expect(seen).toContain('in the asked-for data');
    expect(seen).not.toContain('in the early data');
  });
});
