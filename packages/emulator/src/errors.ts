import { CodedError } from '@monitor/api';

/** An emulator failure: a stable code fixed by its class, a message naming what failed, and a hint. */
export abstract class EmulatorError extends CodedError {
  override readonly name: string = 'EmulatorError';
}

/** The data file (`--data`) is not an emulator store: it is left as it is. */
export class EmulatorDataError extends EmulatorError {
  static override readonly code = 'emulator_data';
  override readonly name = 'EmulatorDataError';
}

/** An accounts or fixture file cannot be read or does not have the expected shape. */
export class EmulatorConfigError extends EmulatorError {
  static override readonly code = 'emulator_config';
  override readonly name = 'EmulatorConfigError';
}

/** Not a port number. */
export class InvalidPortError extends EmulatorError {
  static override readonly code = 'invalid_port';
  override readonly name = 'InvalidPortError';
}

/** Another process listens on the port, or it needs privileges this process lacks. */
export class PortInUseError extends EmulatorError {
  static override readonly code = 'port_unavailable';
  override readonly name = 'PortInUseError';
}

const FREE_PORT_HINT = 'use a number from 1 to 65535, or 0 for a free one';

/** A port number (0–65535), or the coded error; `what` names it: `port`, `agent health port`. */
export function checkPort(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535) return value;
  throw new InvalidPortError(`${what} ${String(value)} is not a port number (0–65535)`, {
    hint: FREE_PORT_HINT,
  });
}

/** A port given as text (a flag or an environment variable), or the coded error naming `name`. */
export function parsePort(value: string, name: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidPortError(`${name} must be a port number (0–65535), not "${value}"`, {
      hint: FREE_PORT_HINT,
    });
  return n;
}

/**
 * The coded error for a failed `listen` of the API or the agent health server (`what` says
 * which: `port`, `agent health port`); other failures as they are.
 */
export function listenError(error: unknown, port: number, host: string, what = 'port'): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new PortInUseError(`${what} ${port} on ${host} is already in use`, {
      hint: 'stop what listens there, choose another port, or use port 0 for a free one',
      cause: error,
    });
  }
  if (code === 'EACCES') {
    return new PortInUseError(`${what} ${port} on ${host} needs privileges this process does not have`, {
      hint: 'use a port above 1023, or port 0 for a free one',
      cause: error,
    });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new PortInUseError(`cannot listen on ${host}: no such local address`, {
      hint: 'use 127.0.0.1, or an address of this machine',
      cause: error,
    });
  }
  return error;
}
