import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmulatorDataError, InvalidPortError, PortInUseError, serve, startEmulator } from './index.js';
import { tempDir } from './test-support/temp-dir.js';

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
