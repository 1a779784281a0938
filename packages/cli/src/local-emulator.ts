import { join } from 'node:path';
import type { ThreadEmulator } from '@monitor/emulator/thread';

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

/** The emulators of this process by data file: the projects of a workspace run together share one. */
const running = new Map<string, { emulator: Promise<ThreadEmulator>; users: number }>();

/**
 * The embedded emulator of `--local` for `environment`, persisted under `<dir>/.monitor/local/`
 * (the workspace's, for a project in one), serving from a worker thread (the one started early,
 * when it was for this `dir` and environment). Projects run together in one process (`--all`)
 * share it: each closes its use, and the last one closes it.
 */
export async function startLocalEmulator(dir: string, environment: string | undefined) {
  const { DEV_ACCOUNT_ID, DEV_API_KEY, takeEmulatorThread } = await import('@monitor/emulator/thread');
  const options = await localEmulatorOptions(dir, environment);
  let shared = running.get(options.dataFile);
  if (shared === undefined) {
    shared = { emulator: takeEmulatorThread(options), users: 0 };
    running.set(options.dataFile, shared);
    shared.emulator.catch(() => running.delete(options.dataFile));
  }
  const use = shared;
  use.users += 1;
  const emulator = await use.emulator;
  let closed = false;
  return {
    credentials: { apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, baseUrl: emulator.url },
    close: async () => {
      if (closed) return;
      closed = true;
      use.users -= 1;
      if (use.users > 0) return;
      running.delete(options.dataFile);
      await emulator.close();
    },
  };
}
