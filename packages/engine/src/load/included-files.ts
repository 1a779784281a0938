import { readdir, readdirSync, realpath, realpathSync, stat, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { FileSystemAdapter } from 'tinyglobby';
import { statOf } from '../build/bundle-cache.js';

/**
 * The construct files of a project, pattern by pattern, and what says they are still the same
 * next time: every directory the search read (and every link it followed), each as it was just
 * before it was read. A later load whose patterns are the same and whose directories all stat the
 * same would read the same listings, so it finds the same files without searching again, and
 * without loading the glob library (~10 ms of a warm `monitor validate`). Adding, removing or
 * renaming an entry changes its directory's modification time; anything else that may differ
 * (an inode, a size, a time) makes the next load search again.
 */
export interface IncludedFiles {
  /** The patterns, ignores and directory searched (`searchKey`). */
  key: string;
  /** The absolute files of each pattern, in the order of the patterns. */
  matches: string[][];
  /** Each directory read and link target followed: its stat (`statOf`), or null when it was absent. */
  read: Record<string, string | null>;
}

/**
 * What a search of `include` (less `ignore`) from `projectDir` depends on, as text: with the
 * engine's version, whose glob may match otherwise.
 */
export function searchKey(projectDir: string, include: readonly string[], ignore: readonly string[]): string {
  ENGINE_VERSION ??= (createRequire(import.meta.url)('@monitor/engine/package.json') as { version: string })
    .version;
  return JSON.stringify({ engine: ENGINE_VERSION, projectDir, include, ignore });
}

let ENGINE_VERSION: string | undefined;

/** Whether `kept` is a search of `key` of which nothing it read has changed since: its files are still those. */
export function stillTrue(kept: IncludedFiles | undefined, key: string): kept is IncludedFiles {
  if (kept === undefined || kept.key !== key) return false;
  for (const [path, recorded] of Object.entries(kept.read)) {
    if ((statOf(path) ?? null) !== recorded) return false;
  }
  return true;
}

/** The construct files a search found: each once, sorted, the config not among them. */
export function includedFiles(search: IncludedFiles, configPath: string): string[] {
  return [...new Set(search.matches.flat())].filter((f) => f !== configPath).sort();
}

/** Search each pattern of `include` from `projectDir`, without `ignore`, and record what was read. */
export async function searchIncluded(
  projectDir: string,
  include: readonly string[],
  ignore: readonly string[],
): Promise<IncludedFiles> {
  const { glob } = await import('../tinyglobby.js');
  const read: Record<string, string | null> = {};
  const fs = recordingFs(projectDir, read);
  const matches = await Promise.all(
    include.map((pattern) => glob(pattern, { cwd: projectDir, ignore, absolute: true, dot: false, fs })),
  );
  return { key: searchKey(projectDir, include, ignore), matches, read };
}

/**
 * node:fs for the search, noting each directory it lists and each path it resolves or stats (the
 * target of a link it follows) with its stat taken before it is read: a change after that is seen
 * by the next load.
 */
function recordingFs(projectDir: string, read: Record<string, string | null>): FileSystemAdapter {
  const note = (path: unknown) => {
    const absolute = resolve(projectDir, String(path));
    if (!(absolute in read)) read[absolute] = statOf(absolute) ?? null;
  };
  const functions = { readdir, readdirSync, realpath, realpathSync, stat, statSync };
  const noting: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(functions)) {
    const call = f as (path: unknown, ...rest: unknown[]) => unknown;
    noting[name] = (path: unknown, ...rest: unknown[]) => {
      note(path);
      return call(path, ...rest);
    };
  }
  return noting as FileSystemAdapter;
}
