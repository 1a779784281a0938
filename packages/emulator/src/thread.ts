import { Worker } from 'node:worker_threads';
import type { EmulatorOptions } from './start.js';

export { DEV_ACCOUNT_ID, DEV_API_KEY } from './dev-account.js';

/**
 * What an emulator in a worker thread takes: the options that are data. `log` is a function and
 * cannot cross to the thread.
 */
export type ThreadEmulatorOptions = Omit<EmulatorOptions, 'log'>;

/** Messages between `startEmulatorThread` and its worker (thread-worker.ts). */
export type ToThread = { type: 'start'; options: ThreadEmulatorOptions } | { type: 'close' };
export type FromThread =
  | { type: 'ready'; url: string }
  | { type: 'closed' }
  | { type: 'failed'; error: { message: string; code?: string; hint?: string; stack?: string } };

/** An emulator serving from its own thread, so its work runs on another core than the caller's. */
export interface ThreadEmulator {
  url: string;
  /** Stop serving (in-flight requests finish, the data file is saved) and end the thread. */
  close(): Promise<void>;
}

const WORKER = new URL('./thread-worker.js', import.meta.url);

/** The worker's error as this thread's: a coded emulator error stays one (its class, code and hint). */
async function asError(error: Extract<FromThread, { type: 'failed' }>['error']): Promise<Error> {
  if (error.code !== undefined) {
    const errors = await import('./errors.js');
    // Every EmulatorError subclass errors.ts exports, found by its code.
    const Coded = Object.values(errors).find(
      (c): c is typeof errors.EmulatorDataError =>
        Object.prototype.isPrototypeOf.call(errors.EmulatorError, c) &&
        (c as { code?: unknown }).code === error.code,
    );
    if (Coded !== undefined)
      return new Coded(error.message, error.hint === undefined ? {} : { hint: error.hint });
  }
  const plain = new Error(error.message);
  if (error.stack !== undefined) plain.stack = error.stack;
  return plain;
}

/** A started worker, and the answer to its start. */
interface Starting {
  worker: Worker;
  ready: Promise<ThreadEmulator>;
}

/** A worker that loads the emulator's modules and waits for its options. */
function spawn(): Worker {
  return new Worker(WORKER);
}

/** Start the emulator in `worker` with `options`. */
function begin(worker: Worker, options: ThreadEmulatorOptions): Starting {
  let settled = false;
  const ready = new Promise<ThreadEmulator>((resolve, reject) => {
    const exited = (code: number) => {
      if (!settled) reject(new Error(`the emulator's thread ended (exit code ${code}) before it was ready`));
    };
    worker.once('error', (error) => {
      if (!settled) reject(error);
    });
    worker.once('exit', exited);
    worker.once('message', (message: FromThread) => {
      settled = true;
      worker.off('exit', exited);
      if (message.type === 'failed') {
        asError(message.error).then(reject, reject);
        return;
      }
      if (message.type !== 'ready') {
        reject(new Error(`the emulator's thread said ${message.type} before it was ready`));
        return;
      }
      resolve({ url: message.url, close: () => closeThread(worker) });
    });
  });
  worker.postMessage({ type: 'start', options } satisfies ToThread);
  return { worker, ready };
}

function closeThread(worker: Worker): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.once('message', (message: FromThread) => {
      if (message.type === 'failed') asError(message.error).then(reject, reject);
    });
    worker.once('exit', () => resolve());
    worker.postMessage({ type: 'close' } satisfies ToThread);
  });
}

/**
 * Start the emulator in a worker thread: the caller's thread keeps its core for its own work (a
 * `--local` command loads and plans the project while the emulator loads its code and data and
 * answers). Its errors come back as the same coded errors `startEmulator` throws.
 */
export function startEmulatorThread(options: ThreadEmulatorOptions = {}): Promise<ThreadEmulator> {
  return begin(spawn(), options).ready;
}

/**
 * One emulator started before the command asked for it, by its options. It does not keep the
 * process alive until it is taken: a command that ends before it connects just ends.
 */
let early: { key: string; starting: Starting } | undefined;
let taken = false;

/** Start an emulator thread now, for the first `takeEmulatorThread` with the same options. */
export function startEmulatorThreadEarly(options: ThreadEmulatorOptions): void {
  if (taken || early !== undefined) return;
  const starting = begin(spawn(), options);
  starting.worker.unref();
  // Whoever takes it sees its failure; one nobody takes fails quietly.
  starting.ready.catch(() => undefined);
  early = { key: JSON.stringify(options), starting };
}

/** The emulator started early with these very options, else a new one. Only the first call may take it. */
export function takeEmulatorThread(options: ThreadEmulatorOptions): Promise<ThreadEmulator> {
  const candidate = early;
  early = undefined;
  taken = true;
  if (candidate !== undefined && candidate.key === JSON.stringify(options)) {
    candidate.starting.worker.ref();
    return candidate.starting.ready;
  }
  if (candidate !== undefined) void candidate.starting.worker.terminate();
  return startEmulatorThread(options);
}
