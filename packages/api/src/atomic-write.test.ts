import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AtomicWriteFs, writeFileAtomic } from './atomic-write.js';

const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'atomic-write-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A disk that fills up after `budget` bytes: the write is cut short, as on ENOSPC. */
function fullDisk(budget: number): AtomicWriteFs {
  let left = budget;
  return {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer, offset: number, length: number) => {
      if (left <= 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(left, length);
      left -= n;
      return fs.writeSync(fd, buffer, offset, n);
    }) as AtomicWriteFs['writeSync'],
  };
}

describe('writeFileAtomic', () => {
  it('replaces the file whole', () => {
    const path = join(dir(), 'state.json');
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, 'two, longer');
    expect(readFileSync(path, 'utf8')).toBe('two, longer');
    expect(readdirSync(join(path, '..'))).toEqual(['state.json']);
  });

  it('leaves the old file and no temp file when the disk fills up part-way through the new one', () => {
    const d = dir();
    const path = join(d, 'state.json');
    writeFileSync(path, '{"old":true}');
    expect(() => writeFileAtomic(path, `{"new":"${'x'.repeat(10_000)}"}`, fullDisk(4096))).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe('{"old":true}');
    expect(readdirSync(d)).toEqual(['state.json']);
  });

  it('leaves the old file when the rename fails', () => {
    const d = dir();
    const path = join(d, 'state.json');
    writeFileSync(path, 'old');
    const failing: AtomicWriteFs = {
      ...fs,
      renameSync: () => {
        throw new Error('EXDEV');
      },
    };
    expect(() => writeFileAtomic(path, 'new', failing)).toThrow('EXDEV');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(d)).toEqual(['state.json']);
  });

  it('writes text given in pieces whole, in writes of about 64 KB', () => {
    const path = join(dir(), 'state.json');
    const pieces = Array.from({ length: 3_000 }, (_, i) => `line ${i} é ${'x'.repeat(i % 90)}\n`);
    const writes: number[] = [];
    const counting: AtomicWriteFs = {
      ...fs,
      writeSync: ((fd: number, buffer: Buffer, offset: number, length: number) => {
        writes.push(length);
        return fs.writeSync(fd, buffer, offset, length);
      }) as AtomicWriteFs['writeSync'],
    };
    writeFileAtomic(path, pieces, counting);
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    expect(writes.length).toBeGreaterThan(2);
    for (const length of writes.slice(0, -1)) expect(length).toBeGreaterThanOrEqual(65_536);
  });

  it('writes a character whole that the pieces split where a write ends', () => {
    const path = join(dir(), 'state.json');
    const pieces = [`${'x'.repeat(65_535)}\ud83d`, '\ude00 after'];
    writeFileAtomic(path, pieces);
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
  });

  it('leaves the old file and no temp file when making the pieces fails part-way', () => {
    const d = dir();
    const path = join(d, 'state.json');
    writeFileSync(path, '{"old":true}');
    function* pieces() {
      for (let i = 0; i < 2_000; i++) yield `${'y'.repeat(100)}\n`;
      throw new Error('cannot serialize');
    }
    expect(() => writeFileAtomic(path, pieces())).toThrow('cannot serialize');
    expect(readFileSync(path, 'utf8')).toBe('{"old":true}');
    expect(readdirSync(d)).toEqual(['state.json']);
  });
});
