import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IncludedFiles, searchIncluded, searchKey, stillTrue } from './included-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-included-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) write(dir, path, text);
  return dir;
}

function write(dir: string, path: string, text = '') {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

const INCLUDE = ['**/*.monitor.ts'];
const IGNORE = ['**/node_modules/**', '**/.monitor/**'];

async function search(dir: string, include = INCLUDE): Promise<IncludedFiles> {
  return searchIncluded(dir, include, IGNORE);
}

const still = (kept: IncludedFiles, dir: string, include = INCLUDE) =>
  stillTrue(kept, searchKey(dir, include, IGNORE));

describe('the construct files found before', () => {
  it('are still those while no directory the search read changes', async () => {
    const dir = project({ 'a.monitor.ts': '', 'checks/b.monitor.ts': '', 'checks/deep/c.monitor.ts': '' });
    const kept = await search(dir);
    expect(kept.matches).toEqual([
      [
        join(dir, 'a.monitor.ts'),
        join(dir, 'checks/b.monitor.ts'),
        join(dir, 'checks/deep/c.monitor.ts'),
      ].sort(),
    ]);
    expect(still(kept, dir)).toBe(true);
    // A file's content is not what the search read.
    write(dir, 'checks/b.monitor.ts', 'new CheckGroup(...)');
    expect(still(kept, dir)).toBe(true);
  });

  it('are not, once a file appears, goes or is renamed anywhere the search read', async () => {
    const dir = project({ 'a.monitor.ts': '', 'checks/deep/c.monitor.ts': '' });
    for (const change of [
      () => write(dir, 'checks/deep/d.monitor.ts'),
      () => write(dir, 'checks/new/deeper/e.monitor.ts'),
      () => rmSync(join(dir, 'a.monitor.ts')),
      () => renameSync(join(dir, 'checks/deep/c.monitor.ts'), join(dir, 'checks/deep/c.ts')),
    ]) {
      const kept = await search(dir);
      change();
      expect(still(kept, dir)).toBe(false);
      // Searched again, it finds what is there now.
      const again = await search(dir);
      expect(still(again, dir)).toBe(true);
      expect(again.matches).not.toEqual(kept.matches);
    }
  });

  it('are not for other patterns', async () => {
    const dir = project({ 'a.monitor.ts': '' });
    const kept = await search(dir);
    expect(still(kept, dir, ['checks/**/*.monitor.ts'])).toBe(false);
    expect(stillTrue(kept, searchKey(dir, INCLUDE, ['legacy/**', ...IGNORE]))).toBe(false);
  });

  it('follow a linked directory: a file added where it points is seen', async () => {
    const dir = project({ 'a.monitor.ts': '' });
    const elsewhere = project({ 'shared/s.monitor.ts': '' });
    symlinkSync(join(elsewhere, 'shared'), join(dir, 'shared'));
    const kept = await search(dir);
    expect(kept.matches[0]).toContain(join(dir, 'shared/s.monitor.ts'));
    write(elsewhere, 'shared/t.monitor.ts');
    expect(still(kept, dir)).toBe(false);
  });

  it('do not depend on what the search skips: node_modules and the cache', async () => {
    const dir = project({ 'a.monitor.ts': '', 'node_modules/lib/x.monitor.ts': '', '.monitor/cache/x': '' });
    const kept = await search(dir);
    expect(Object.keys(kept.read).some((p) => p.includes('node_modules') || p.includes('.monitor'))).toBe(
      false,
    );
    write(dir, 'node_modules/lib/y.monitor.ts');
    write(dir, '.monitor/cache/y');
    expect(still(kept, dir)).toBe(true);
  });
});
