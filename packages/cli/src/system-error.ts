/** Node's error for a failed file-system call: an `E…` code and the syscall that failed. */
export type SystemError = NodeJS.ErrnoException & { code: string; syscall: string };

/** A file-system failure that no code on the way named (a full disk, say): Node's own error. */
export function isSystemError(error: unknown): error is SystemError {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof syscall === 'string';
}

/**
 * The error said for people: `cannot write /p/.monitor/x: the disk is full (ENOSPC)` with a hint,
 * not Node's bare `ENOSPC: no space left on device, write` and a stack. Codes the engine has no
 * words for stay as they are. Loads the engine: on failure only.
 */
export async function forPeople(error: SystemError): Promise<Error> {
  const { fileSystemError } = await import('@monitor/engine');
  return fileSystemError(error.syscall, error.path, error);
}
