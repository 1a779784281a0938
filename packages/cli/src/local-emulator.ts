import { join } from 'node:path';

/**
 * The options of the `--local` emulator of a project in `dir` (its data under
 * `.monitor/local/`): the same whether it is started early or when the command connects.
 */
function localEmulatorOptions(dir: string) {
  return {
    port: 0,
    dataFile: join(dir, '.monitor', 'local', 'emulator.json'),
    agentHealthPort: false as const,
  };
}

/**
 * Start the `--local` emulator of `dir` now, in its worker thread, for the command to take when it
 * connects: it loads its code and data on the second core while this thread loads the CLI and
 * the project. If the command never connects, it does not keep the process alive.
 */
export async function startLocalEmulatorEarly(dir: string): Promise<void> {
  const { startEmulatorThreadEarly } = await import('@monitor/emulator/thread');
  startEmulatorThreadEarly(localEmulatorOptions(dir));
}

/**
 * The embedded emulator of `--local`, persisted under `<dir>/.monitor/local/`, serving from a
 * worker thread (the one started early, when it was for this `dir`).
 */
export async function startLocalEmulator(dir: string) {
  const { DEV_ACCOUNT_ID, DEV_API_KEY, takeEmulatorThread } = await import('@monitor/emulator/thread');
  const emulator = await takeEmulatorThread(localEmulatorOptions(dir));
  return {
    credentials: { apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, baseUrl: emulator.url },
    close: () => emulator.close(),
  };
}
