import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uncommittedFiles } from './git.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'monitor-pull-git-')));
  dirs.push(dir);
  return dir;
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });

describe('uncommittedFiles', () => {
  it('names the files git has not committed: changed, untracked and ignored ones', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'm'));
    for (const f of ['a.ts', 'b.ts']) writeFileSync(join(dir, 'm', f), 'x\n');
    writeFileSync(join(dir, '.gitignore'), 'ignored.ts\n');
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init');
    writeFileSync(join(dir, 'm', 'a.ts'), 'y\n');
    writeFileSync(join(dir, 'm', 'new.ts'), 'n\n');
    writeFileSync(join(dir, 'm', 'ignored.ts'), 'i\n');
    const files = ['a.ts', 'b.ts', 'new.ts', 'ignored.ts'].map((f) => join(dir, 'm', f));
    const found = await uncommittedFiles(join(dir, 'm'), files);
    expect(found.repository).toBe(true);
    expect(found.dirty.sort()).toEqual(['a.ts', 'ignored.ts', 'new.ts'].map((f) => join(dir, 'm', f)));
    expect(await uncommittedFiles(dir, [])).toEqual({ repository: true, dirty: [] });
  });

  it('a directory outside a git work tree is no repository', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.ts'), 'x\n');
    expect(await uncommittedFiles(dir, [join(dir, 'a.ts')])).toEqual({ repository: false, dirty: [] });
  });
});
