// The emulator of `startEmulatorThread`, in its worker thread: started with the options it was
// given, it says `ready` with its URL (or `failed` with the error), and closes when told to.
import { parentPort, workerData } from 'node:worker_threads';
import { type EmulatorOptions, startEmulator } from './start.js';
import type { FromThread, ToThread } from './thread.js';

const port = parentPort;
if (port === null) throw new Error('thread-worker.js runs in a worker thread of startEmulatorThread');
const say = (message: FromThread) => port.postMessage(message);

try {
  const emulator = await startEmulator(workerData as EmulatorOptions);
  port.on('message', (message: ToThread) => {
    if (message.type !== 'close') return;
    emulator.close().then(
      () => {
        say({ type: 'closed' });
        port.close();
      },
      (error: unknown) => say({ type: 'failed', error: describe(error) }),
    );
  });
  say({ type: 'ready', url: emulator.url });
} catch (error) {
  say({ type: 'failed', error: describe(error) });
  port.close();
}

function describe(error: unknown): Extract<FromThread, { type: 'failed' }>['error'] {
  const e = error instanceof Error ? error : new Error(String(error));
  const { code, hint } = e as { code?: unknown; hint?: unknown };
  return {
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof hint === 'string' ? { hint } : {}),
    ...(e.stack === undefined ? {} : { stack: e.stack }),
  };
}
