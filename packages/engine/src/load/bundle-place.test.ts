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
    // As another process left it: the name says its files are this build's.
    mkdirSync(place);
    writeFileSync(join(place, 'main.mjs'), 'written by the other run');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(place, old, old);
    const taken = await placeBundle(dir, split, d);
    expect(taken.dir).toBe(place);
    expect(readFileSync(join(place, 'main.mjs'), 'utf8')).toBe('written by the other run');
    expect(statSync(place).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps the places of the four builds used last, and what is not a kept place', async () => {
    const dir = cacheDir();
    const places: string[] = [];
    for (let i = 0; i < 6; i++) {
      const d = digest();
      const p = await placeBundle(dir, [{ name: 'bundle.mjs', js: `console.log(${i});\n` }], d);
      places.push(p.paths[0] as string);
      // Used in this order, a second apart.
      const at = new Date(Date.now() - (10 - i) * 1000);
      utimesSync(p.paths[0] as string, at, at);
    }
    const own = await placeBundle(dir, split, undefined);
    const entries = readdirSync(dir).sort();
    expect(entries).toEqual(
      [places[2], places[3], places[4], places[5]]
        .map((p) => (p as string).slice(dir.length + 1))
        .concat(own.dir.slice(dir.length + 1))
        .sort(),
    );
    own.remove();
  });

  it('writes nothing and fails when its own place cannot be written', async () => {
    const dir = join(cacheDir(), 'missing');
    await expect(placeBundle(dir, split, undefined)).rejects.toThrow(/ENOENT/);
    // A kept place that cannot be written falls back to one of its own, which fails the same way.
    await expect(placeBundle(dir, split, digest())).rejects.toThrow(/ENOENT/);
  });
});
