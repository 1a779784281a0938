import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { placeBundle } from './bundle-place.js';

const cacheDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-bundle-place-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** A content hash as the cache gives it (base64url); each test its own, as the process remembers them. */
let hashes = 0;
const digest = () => `${String(++hashes).padStart(6, '0')}AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-`;

const split = [
  { name: 'main.mjs', js: 'import "./part-0.mjs";\n' },
  { name: 'part-0.mjs', js: new TextEncoder().encode('console.log("part");\n') },
];

describe('placeBundle', () => {
  it('puts a kept build at a place named by its content, which it keeps; another build at a place of its own, which it removes', async () => {
    const dir = cacheDir();
    const d = digest();
    const kept = await placeBundle(dir, split, d);
    expect(kept.kept).toBe(true);
    expect(kept.dir).toBe(join(dir, `bundle-${d.slice(0, 24)}`));
    expect(kept.paths).toEqual([join(kept.dir, 'main.mjs'), join(kept.dir, 'part-0.mjs')]);
    expect(readFileSync(kept.paths[1] as string, 'utf8')).toBe('console.log("part");\n');
    kept.remove();
    expect(existsSync(kept.dir)).toBe(true);

    const own = await placeBundle(dir, split, undefined);
    expect(own.kept).toBe(false);
    expect(own.dir).toMatch(new RegExp(`bundle-${process.pid}-[0-9a-f]{8}$`));
    own.remove();
    expect(existsSync(own.dir)).toBe(false);
    // No temporary place is left behind.
    expect(readdirSync(dir)).toEqual([`bundle-${d.slice(0, 24)}`]);
  });

  it('gives a build this process placed already a place of its own: importing the kept path again would not run it', async () => {
    const dir = cacheDir();
    const d = digest();
    const first = await placeBundle(dir, [{ name: 'bundle.mjs', js: 'export const a = 1;\n' }], d);
    expect(first.paths).toEqual([join(dir, `bundle-${d.slice(0, 24)}.mjs`)]);
    const again = await placeBundle(dir, [{ name: 'bundle.mjs', js: 'export const a = 1;\n' }], d);
    expect(again.kept).toBe(false);
    expect(again.paths[0]).not.toBe(first.paths[0]);
    expect(readFileSync(again.paths[0] as string, 'utf8')).toBe('export const a = 1;\n');
    again.remove();
    expect(existsSync(first.paths[0] as string)).toBe(true);
  });

  it('takes a kept place another run wrote as it is, and marks it used', async () => {
    const dir = cacheDir();
    const d = digest();
    const place = join(dir, `bundle-${d.slice(0, 24)}`);
    // As another process left it: the name says its files are this build's (same sizes here).
    mkdirSync(place);
    writeFileSync(join(place, 'main.mjs'), 'import "./part-X.mjs";\n');
    writeFileSync(join(place, 'part-0.mjs'), 'console.log("PART");\n');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(place, old, old);
    const taken = await placeBundle(dir, split, d);
    expect(taken.dir).toBe(place);
    expect(readFileSync(join(place, 'main.mjs'), 'utf8')).toBe('import "./part-X.mjs";\n');
    expect(statSync(place).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('writes a kept place again that is not whole: a file missing, or cut short', async () => {
    const dir = cacheDir();
    for (const damage of ['missing', 'empty'] as const) {
      const d = digest();
      const place = join(dir, `bundle-${d.slice(0, 24)}`);
      mkdirSync(place);
      writeFileSync(join(place, 'main.mjs'), 'import "./part-0.mjs";\n');
      if (damage === 'empty') writeFileSync(join(place, 'part-0.mjs'), '');
      const taken = await placeBundle(dir, split, d);
      expect(taken.kept).toBe(true);
      expect(readFileSync(join(place, 'part-0.mjs'), 'utf8')).toBe('console.log("part");\n');
    }
    // Nothing is left of the damaged ones, nor of the writing.
    expect(readdirSync(dir).every((entry) => /^bundle-[\w-]{24}$/.test(entry))).toBe(true);
  });

  it('hands a build placed twice at once its kept place once', async () => {
    const dir = cacheDir();
    const d = digest();
    const [one, two] = await Promise.all([placeBundle(dir, split, d), placeBundle(dir, split, d)]);
    expect([one?.kept, two?.kept].sort()).toEqual([false, true]);
    expect(one?.dir).not.toBe(two?.dir);
  });

  it('writes its files for their owner alone', async () => {
    const dir = cacheDir();
    for (const place of [await placeBundle(dir, split, digest()), await placeBundle(dir, split, undefined)]) {
      expect(statSync(place.dir).mode & 0o077).toBe(0);
      for (const path of place.paths) expect(statSync(path).mode & 0o077).toBe(0);
    }
  });

  it('keeps the places of the four builds used last, and any used in the last ten minutes', async () => {
    const place = async (dir: string, i: number, usedAt?: Date) => {
      const p = await placeBundle(dir, [{ name: 'bundle.mjs', js: `console.log(${i});\n` }], digest());
      if (usedAt !== undefined) utimesSync(p.paths[0] as string, usedAt, usedAt);
      return (p.paths[0] as string).slice(dir.length + 1);
    };
    const old = cacheDir();
    const olds: string[] = [];
    // Used in this order, hours ago.
    for (let i = 0; i < 6; i++) olds.push(await place(old, i, new Date(Date.now() - (10 - i) * 3_600_000)));
    const own = await placeBundle(old, split, undefined);
    expect(readdirSync(old).sort()).toEqual([...olds.slice(2), own.dir.slice(old.length + 1)].sort());
    own.remove();

    const recent = cacheDir();
    const recents: string[] = [];
    for (let i = 0; i < 6; i++) recents.push(await place(recent, i));
    expect(readdirSync(recent).sort()).toEqual(recents.sort());
  });

  it('removes what runs killed part way left behind, once it is an hour old', async () => {
    const dir = cacheDir();
    const left = [
      `bundle-${process.pid + 1}-0badc0de.mjs`,
      `bundle-${process.pid + 1}-0badc0de`,
      'bundle-AbCdEfGhIjKlMnOpQrStUvWx.123-0badc0de.tmp',
      'bundle-AbCdEfGhIjKlMnOpQrStUvWx.mjs.123-0badc0de.removed',
    ];
    for (const entry of left) mkdirSync(join(dir, entry));
    const recent = `bundle-${process.pid + 1}-1badc0de.mjs`;
    writeFileSync(join(dir, recent), '');
    for (const entry of left) utimesSync(join(dir, entry), new Date(0), new Date(0));
    writeFileSync(join(dir, 'constructs.bundle'), '');
    utimesSync(join(dir, 'constructs.bundle'), new Date(0), new Date(0));
    const kept = await placeBundle(dir, split, digest());
    expect(readdirSync(dir).sort()).toEqual(
      [kept.dir.slice(dir.length + 1), 'constructs.bundle', recent].sort(),
    );
  });

  it('writes nothing and fails when its own place cannot be written', async () => {
    const dir = join(cacheDir(), 'missing');
    await expect(placeBundle(dir, split, undefined)).rejects.toThrow(/ENOENT/);
    // A kept place that cannot be written falls back to one of its own, which fails the same way.
    await expect(placeBundle(dir, split, digest())).rejects.toThrow(/ENOENT/);
  });
});
