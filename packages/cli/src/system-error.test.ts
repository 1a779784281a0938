import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forPeople, isSystemError } from './system-error.js';

/** The error a write to a full disk gives: /dev/full answers every write with ENOSPC. */
function fullDiskError(): unknown {
  const fd = openSync('/dev/full', 'w');
  try {
    writeSync(fd, 'x');
  } catch (error) {
    return error;
  } finally {
    closeSync(fd);
  }
  throw new Error('/dev/full took a write');
}

describe.skipIf(!existsSync('/dev/full'))('a file-system error no one named', () => {
  it("is told as what failed, why and what to do, with the file when Node's error names it", async () => {
    const bare = fullDiskError();
    expect(isSystemError(bare)).toBe(true);
    const told = await forPeople(bare as Parameters<typeof forPeople>[0]);
    expect(told).toMatchObject({
      code: 'file_system',
      message: 'cannot write: the disk is full (ENOSPC)',
      hint: 'free some space on the disk that holds the project, then run the command again',
    });
    (bare as NodeJS.ErrnoException).path = '/p/.monitor/cache/bundle-1.mjs';
    expect(await forPeople(bare as Parameters<typeof forPeople>[0])).toMatchObject({
      message: 'cannot write /p/.monitor/cache/bundle-1.mjs: the disk is full (ENOSPC)',
      hint: 'free some space on the disk that holds /p/.monitor/cache, then run the command again',
    });
  });

  it('leaves other errors alone', async () => {
    expect(isSystemError(new Error('ENOSPC'))).toBe(false);
    expect(isSystemError(Object.assign(new Error('x'), { code: 'invalid_state', syscall: 'write' }))).toBe(
      false,
    );
    const unknown = Object.assign(new Error('EWHAT: odd'), { code: 'EWHAT', syscall: 'write' });
    expect(await forPeople(unknown as Parameters<typeof forPeople>[0])).toBe(unknown);
  });
});
