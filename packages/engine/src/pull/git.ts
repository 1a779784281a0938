import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * The files among `files` with changes git has not committed (untracked and ignored ones too). `repository: false`
 * when `dir` is not in a git work tree, or git is not installed.
 */
export function uncommittedFiles(
  dir: string,
  files: readonly string[],
): Promise<{ repository: boolean; dirty: string[] }> {
  if (files.length === 0) return Promise.resolve({ repository: true, dirty: [] });
  return new Promise((resolve) => {
    execFile(
      'git',
      ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--', ...files],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) {
          resolve({ repository: false, dirty: [] });
          return;
        }
        execFile('git', ['rev-parse', '--show-toplevel'], { cwd: dir }, (e2, top) => {
          const root = e2 === null ? top.trim() : dir;
          const dirty = stdout
            .split('\0')
            .filter((entry) => entry.length > 3)
            .map((entry) => join(root, entry.slice(3)));
          resolve({ repository: true, dirty });
        });
      },
    );
  });
}
