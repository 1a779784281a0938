import { join } from 'node:path';

/**
 * The options of the `--local` emulator of a project in `dir` for `environment` (its data in
 * `localAccountDir`, one account per environment): the same whether it is started early or when
 * the command connects.
 */
async function localEmulatorOptions(dir: string, environment: string | undefined) {
  // Loaded here, not with this module: main loads this module for every command, --help included.
  const { localAccountDir } = await import('@monitor/engine/config-location');
  return {
    port: 0,
    dataFile: join(localAccountDir(dir, environment), 'emulator.json'),
    agentHealthPort: false as const,
  };
}

/**
 * Start the `--local` emulator of `dir` now, in its worker thread, for the command to take when it
 * connects: it loads its code and data on the second core while this thread loads the CLI and
 * the project. If the command never connects, it does not keep the process alive.
 */
export async function startLocalEmulatorEarly(dir: string, environment: string | undefined): Promise<void> {
  const { startEmulatorThreadEarly } = await import('@monitor/emulator/thread');
  startEmulatorThreadEarly(await localEmulatorOptions(dir, environment));
}

/**
 * The embedded emulator of `--local` for `environment`, persisted under `<dir>/.monitor/local/`,
 * serving from a worker thread (the one started early, when it was for this `dir` and environment).
 */
export async function startLocalEmulator(dir: string, environment: string | undefined) {
  const { DEV_ACCOUNT_ID, DEV_API_KEY, takeEmulatorThread } = await import('@monitor/emulator/thread');
  const emulator = await takeEmulatorThread(await localEmulatorOptions(dir, environment));
  return {
    credentials: { apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, baseUrl: emulator.url },
    close: () => emulator.close(),
  };
}
