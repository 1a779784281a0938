// The emulator of `startEmulatorThread`, in its worker thread. It loads the emulator's modules at
// once, and starts serving when told to with its options: then it says `ready` with its URL (or
// `failed` with the error), and closes when told to.
import { parentPort } from 'node:worker_threads';
import type { FromThread, ToThread } from './thread.js';

const port = parentPort;
if (port === null) throw new Error('thread-worker.js runs in a worker thread of startEmulatorThread');
const say = (message: FromThread) => port.postMessage(message);

// Loading the modules is most of a start: it need not wait for the options.
const loading = import('./start.js');
loading.catch(() => undefined);

let closeEmulator: (() => Promise<void>) | undefined;

port.on('message', (message: ToThread) => {
  if (message.type === 'start') {
    loading
      .then(({ startEmulator }) => startEmulator(message.options))
      .then(
        (emulator) => {
          closeEmulator = () => emulator.close();
          say({ type: 'ready', url: emulator.url });
        },
        (error: unknown) => {
          say({ type: 'failed', error: describe(error) });
          port.close();
        },
      );
    return;
  }
  const closing = closeEmulator?.() ?? Promise.resolve();
  closing.then(
    () => {
      say({ type: 'closed' });
      port.close();
    },
    (error: unknown) => say({ type: 'failed', error: describe(error) }),
  );
});

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
