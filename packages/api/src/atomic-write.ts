import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { textRuns } from './json-pieces.js';

/** The file-system calls an atomic write makes; tests pass one that fails part-way. */
export type AtomicWriteFs = Pick<
  typeof nodeFs,
  'mkdirSync' | 'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'renameSync' | 'rmSync'
>;

function writeAll(fs: AtomicWriteFs, fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let written = 0; written < bytes.length; ) {
    written += fs.writeSync(fd, bytes, written, bytes.length - written);
  }
}

/**
 * Replace `path` with `text` so that a crash or an error at any moment leaves either the old file
 * or the new one, never part of one: write a temp file beside it, fsync it, rename it over the
 * file, fsync the directory. A failure (of the file system, or of the pieces as they are made)
 * removes the temp file and rethrows.
 *
 * `text` may come in pieces, written in runs of about 64 KB (`textRuns`): a large file is then
 * never one string and its UTF-8 copy at once.
 */
export function writeFileAtomic(
  path: string,
  text: string | Iterable<string>,
  fs: AtomicWriteFs = nodeFs,
  /** Permissions of a new file, e.g. 0o600 for one only its user may read. @default 0o666 (less the umask) */
  mode?: number,
): void {
  const dir = dirname(path);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      if (typeof text === 'string') writeAll(fs, fd, text);
      else for (const run of textRuns(text)) writeAll(fs, fd, run);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  // The rename is durable once the directory is; not every platform lets a directory be synced.
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {}
}
