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

/** A kept build: its digest, and the monitor that made it. */
const keep = (d = digest()) => ({ digest: d, scope: 'Mon1tor-fingerprint+/=xyz' });
/** Forget that this process imported `paths`, as the next run (a new process) would not know. */
function nextProcess(paths: readonly string[]): void {
  const imported = (globalThis as Record<symbol, Set<string> | undefined>)[
    Symbol.for('@monitor/engine.importedBundlePlaces')
  ];
  for (const p of paths) imported?.delete(p);
}

/** Where the kept builds of several files of that monitor go. */
const SHARED = 'modules-Mon1tor-fing';

describe('placeBundle', () => {
  it('puts a kept build in the directory kept builds share, its main module named by the build; another build at a place of its own, which it removes', async () => {
    const dir = cacheDir();
    const k = keep();
    const kept = await placeBundle(dir, split, k);
    expect(kept.kept).toBe(true);
    expect(kept.dir).toBe(join(dir, SHARED));
    expect(kept.paths).toEqual([
      join(kept.dir, `main-${k.digest.slice(0, 24)}.mjs`),
      join(kept.dir, 'part-0.mjs'),
    ]);
    expect(readFileSync(kept.paths[0] as string, 'utf8')).toBe('import "./part-0.mjs";\n');
    expect(readFileSync(kept.paths[1] as string, 'utf8')).toBe('console.log("part");\n');
    kept.remove();
    expect(existsSync(kept.paths[1] as string)).toBe(true);

    const own = await placeBundle(dir, split, undefined);
    expect(own.kept).toBe(false);
    expect(own.dir).toMatch(new RegExp(`bundle-${process.pid}-[0-9a-f]{8}$`));
    own.remove();
    expect(existsSync(own.dir)).toBe(false);
    // No temporary file or place is left behind.
    expect(readdirSync(dir)).toEqual([SHARED]);
    expect(readdirSync(kept.dir).sort()).toEqual([`main-${k.digest.slice(0, 24)}.mjs`, 'part-0.mjs']);
  });

  it('keeps the files an edit did not change where they were, untouched: only the new part and main module are written', async () => {
    const dir = cacheDir();
    const files = (edited: string) => [
      { name: 'main.mjs', js: `import "./part-AAAA.mjs";\nimport "./part-${edited}.mjs";\n` },
      { name: 'part-AAAA.mjs', js: 'console.log("unchanged");\n' },
      { name: 'chunk-CCCC.mjs', js: 'export const shared = 1;\n' },
      { name: `part-${edited}.mjs`, js: `console.log("${edited}");\n` },
    ];
    const first = await placeBundle(dir, files('BBBB'), keep());
    const inodes = first.paths.map((p) => statSync(p).ino);
    // In this process, a build that shares a file it imported gets a place of its own.
    const same = await placeBundle(dir, files('DDDD'), keep());
    expect(same.kept).toBe(false);
    same.remove();

    nextProcess(first.paths);
    const second = await placeBundle(dir, files('DDDD'), keep());
    expect(second.kept).toBe(true);
    expect(second.dir).toBe(first.dir);
    expect(second.paths.slice(1, 3)).toEqual(first.paths.slice(1, 3));
    expect(second.paths.slice(1, 3).map((p) => statSync(p).ino)).toEqual(inodes.slice(1, 3));
    expect(second.paths[0]).not.toBe(first.paths[0]);
    expect(readFileSync(second.paths[3] as string, 'utf8')).toBe('console.log("DDDD");\n');
    // The first build's own files stay until they are unused for ten minutes.
    expect(readdirSync(dir, { recursive: true }).length).toBe(1 + 6);
  });

  it('removes from the shared directory what no run used for ten minutes, and never the files of this build', async () => {
    const dir = cacheDir();
    const old = new Date(Date.now() - 11 * 60_000);
    const first = await placeBundle(dir, split, keep());
    const stale = join(first.dir, 'part-STALE.mjs');
    const recent = join(first.dir, 'part-RECENT.mjs');
    writeFileSync(stale, '');
    writeFileSync(recent, '');
    for (const p of [stale, ...first.paths]) utimesSync(p, old, old);
    nextProcess(first.paths);
    const again = await placeBundle(dir, split, keep());
    expect(again.paths[1]).toBe(first.paths[1]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(first.paths[1] as string)).toBe(true);
    // The main module of the build before is as old as the stale part: removed too.
    expect(existsSync(first.paths[0] as string)).toBe(false);
  });

  it('gives a build this process placed already a place of its own: importing the kept path again would not run it', async () => {
    const dir = cacheDir();
    const d = digest();
    const first = await placeBundle(dir, [{ name: 'bundle.mjs', js: 'export const a = 1;\n' }], keep(d));
    expect(first.paths).toEqual([join(dir, `bundle-${d.slice(0, 24)}.mjs`)]);
    const again = await placeBundle(dir, [{ name: 'bundle.mjs', js: 'export const a = 1;\n' }], keep(d));
    expect(again.kept).toBe(false);
    expect(again.paths[0]).not.toBe(first.paths[0]);
    expect(readFileSync(again.paths[0] as string, 'utf8')).toBe('export const a = 1;\n');
    again.remove();
    expect(existsSync(first.paths[0] as string)).toBe(true);
  });

  it('takes the files another run wrote as they are, and marks them used', async () => {
    const dir = cacheDir();
    const k = keep();
    const place = join(dir, SHARED);
    // As another process left it: the names say what the files hold (same sizes here).
    mkdirSync(place);
    writeFileSync(join(place, `main-${k.digest.slice(0, 24)}.mjs`), 'import "./part-X.mjs";\n');
    writeFileSync(join(place, 'part-0.mjs'), 'console.log("PART");\n');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(place, 'part-0.mjs'), old, old);
    const taken = await placeBundle(dir, split, k);
    expect(taken.dir).toBe(place);
    expect(readFileSync(taken.paths[0] as string, 'utf8')).toBe('import "./part-X.mjs";\n');
    expect(readFileSync(taken.paths[1] as string, 'utf8')).toBe('console.log("PART");\n');
    expect(statSync(taken.paths[1] as string).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('writes a file of the shared directory again that is not whole: cut short or empty', async () => {
    const dir = cacheDir();
    const place = join(dir, SHARED);
    mkdirSync(place);
    writeFileSync(join(place, 'part-0.mjs'), 'console.lo');
    const taken = await placeBundle(dir, split, keep());
    expect(taken.kept).toBe(true);
    expect(readFileSync(join(place, 'part-0.mjs'), 'utf8')).toBe('console.log("part");\n');
    // Nothing is left of the writing.
    expect(readdirSync(place).every((entry) => entry.endsWith('.mjs'))).toBe(true);
  });

  it('hands a build placed twice at once its kept place once', async () => {
    const dir = cacheDir();
    const k = keep();
    const [one, two] = await Promise.all([placeBundle(dir, split, k), placeBundle(dir, split, k)]);
    expect([one?.kept, two?.kept].sort()).toEqual([false, true]);
    expect(one?.dir).not.toBe(two?.dir);
  });

  it('writes its files for their owner alone', async () => {
    const dir = cacheDir();
    for (const place of [await placeBundle(dir, split, keep()), await placeBundle(dir, split, undefined)]) {
      expect(statSync(place.dir).mode & 0o077).toBe(0);
      for (const path of place.paths) expect(statSync(path).mode & 0o077).toBe(0);
    }
  });

  it('keeps the places of the four builds used last, and any used in the last ten minutes', async () => {
    const place = async (dir: string, i: number, usedAt?: Date) => {
      const p = await placeBundle(dir, [{ name: 'bundle.mjs', js: `console.log(${i});\n` }], keep());
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
      'bundle-AbCdEfGhIjKlMnOpQrStUvWx.mjs.123-0badc0de.tmp',
      'modules-AbCdEfGhIjKl.123-0badc0de.removed',
      'output-Ab12Cd',
    ];
    for (const entry of left) mkdirSync(join(dir, entry));
    const recent = `bundle-${process.pid + 1}-1badc0de.mjs`;
    writeFileSync(join(dir, recent), '');
    // A run beside this one may be building into it.
    const building = 'output-Ef34Gh';
    mkdirSync(join(dir, building));
    for (const entry of left) utimesSync(join(dir, entry), new Date(0), new Date(0));
    writeFileSync(join(dir, 'constructs.bundle'), '');
    utimesSync(join(dir, 'constructs.bundle'), new Date(0), new Date(0));
    const kept = await placeBundle(dir, split, keep());
    expect(readdirSync(dir).sort()).toEqual(
      [kept.dir.slice(dir.length + 1), 'constructs.bundle', recent, building].sort(),
    );
  });

  it('writes nothing and fails when its own place cannot be written', async () => {
    const dir = join(cacheDir(), 'missing');
    await expect(placeBundle(dir, split, undefined)).rejects.toThrow(/ENOENT/);
    // A kept place that cannot be written falls back to one of its own, which fails the same way.
    await expect(placeBundle(dir, split, keep())).rejects.toThrow(/ENOENT/);
  });
});
