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

/** The coded error for a failed `listen`; other failures as they are. */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new PortInUseError(`port ${port} on ${host} is already in use`, {
      hint: 'stop what listens there, choose another port, or use port 0 for a free one',
      cause: error,
    });
  }
  if (code === 'EACCES') {
    return new PortInUseError(`port ${port} on ${host} needs privileges this process does not have`, {
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
