import { readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  agentHealthPortFor,
  EmulatorConfigError,
  EmulatorDataError,
  InvalidPortError,
  PortInUseError,
  serve,
  startEmulator,
} from './index.js';
import { tempDir } from './test-support/temp-dir.js';

/** A port this test holds (taken on port 0), released when the test ends. */
async function busyPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

describe('startEmulator refuses what it cannot do, with coded errors and hints', () => {
  it('a port that is taken', async () => {
    const first = await startEmulator({ agentHealthPort: false, fixture: {} });
    try {
      const port = Number(new URL(first.url).port);
      const error = await startEmulator({ port, agentHealthPort: false, fixture: {} }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({
        code: 'port_unavailable',
        message: `port ${port} on 127.0.0.1 is already in use`,
      });
      expect((error as PortInUseError).hint).toContain('port 0');
    } finally {
      await first.close();
    }
  });

  it('a busy agent health port: the same coded error and hint as a busy API port', async () => {
    const port = await busyPort();
    const api = await startEmulator({ port, agentHealthPort: false, fixture: {} }).catch((e: unknown) => e);
    const agent = await startEmulator({ agentHealthPort: port, fixture: {} }).catch((e: unknown) => e);
    expect(agent).toBeInstanceOf(PortInUseError);
    expect(agent).toMatchObject({
      code: 'port_unavailable',
      message: `agent health port ${port} on 127.0.0.1 is already in use`,
      hint: (api as PortInUseError).hint,
    });
    const outOfRange = await startEmulator({ agentHealthPort: 65_536, fixture: {} }).catch((e: unknown) => e);
    expect(outOfRange).toBeInstanceOf(InvalidPortError);
    expect((outOfRange as Error).message).toBe('agent health port 65536 is not a port number (0–65535)');
  });

  it('serve on port 0 takes a free agent health port too, and prints it', async () => {
    let printed = '';
    const emulator = await serve({ port: 0, quiet: true, env: {} }, (text) => {
      printed += text;
    });
    onTestFinished(() => emulator.close());
    const agentUrl = emulator.agentHealthUrl ?? '';
    expect(printed).toContain(`agent health on ${agentUrl}`);
    expect(new URL(agentUrl).port).not.toBe('8081');
    expect((await fetch(`${agentUrl}/health`)).status).toBe(200);
  });

  it('the agent health port: asked for, else AGENT_HEALTH_PORT, else free with port 0, else 8081', () => {
    expect(agentHealthPortFor(7001, 0, { AGENT_HEALTH_PORT: '9000' })).toBe(7001);
    expect(agentHealthPortFor(undefined, 0, { AGENT_HEALTH_PORT: '9000' })).toBe(9000);
    expect(agentHealthPortFor(undefined, 0, {})).toBe(0);
    expect(agentHealthPortFor(undefined, 0, { AGENT_HEALTH_PORT: '' })).toBe(0);
    expect(agentHealthPortFor(undefined, 4010, {})).toBe(8081);
    expect(() => agentHealthPortFor(undefined, 0, { AGENT_HEALTH_PORT: 'abc' })).toThrow(
      'AGENT_HEALTH_PORT must be a port number (0–65535), not "abc"',
    );
  });

  it('a request log size or history size that is not a count', async () => {
    for (const options of [{ requestLogSize: -1 }, { requestLogSize: 1.5 }, { historySize: 0 }]) {
      const error = await startEmulator({ ...options, agentHealthPort: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmulatorConfigError);
    }
    const error = await serve({ port: 0, requestLogSize: Number.NaN, env: {} }, () => {}).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('--request-log-size must be a whole number of at least 0, not NaN');
  });

  it('a number that is not a port', async () => {
    const error = await startEmulator({ port: 70_000, agentHealthPort: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPortError);
    expect(error).toMatchObject({ code: 'invalid_port' });
  });

  it('a data file that is not an emulator store, left as it was', async () => {
    const dataFile = join(tempDir('emulator-data-'), 'data.json');
    writeFileSync(dataFile, '[1, 2');
    const error = await startEmulator({ dataFile, agentHealthPort: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorDataError);
    expect(error).toMatchObject({ code: 'emulator_data' });
    expect((error as EmulatorDataError).hint).toContain('move it away');
    expect(readFileSync(dataFile, 'utf8')).toBe('[1, 2');
  });

  it('an accounts file that is not a list of accounts', async () => {
    const accounts = join(tempDir('emulator-accounts-'), 'accounts.json');
    writeFileSync(accounts, JSON.stringify([{ id: 'not-a-uuid', keys: [] }]));
    const error = await serve({ port: 0, agentHealthPort: 0, accounts }, () => {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'emulator_config' });
    expect((error as Error).message).toContain('is not a list of accounts');
  });
});
