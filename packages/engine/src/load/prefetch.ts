import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheDirectory, cachePath, configEntry, constructsEntry, earlyBuilds } from '../build/bundle.js';
import { type IncludedFiles, includedFiles } from './included-files.js';

/** The file in the cache directory where a load records the construct files it included. */
const INCLUDED_RECORD = 'included.json';

/**
 * Remember the search that found the construct files a load of `configPath` included (written
 * only when it changed). Nothing is trusted from it later but a guess of what to build (a build is
 * used only when its entry is exactly the one the next load makes) and a search that `stillTrue`
 * finds still true.
 */
export function rememberIncluded(projectDir: string, configPath: string, search: IncludedFiles): void {
  const text = `${JSON.stringify({ config: configPath, search })}\n`;
  try {
    const path = join(cacheDirectory(projectDir), INCLUDED_RECORD);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
    writeFileSync(path, text);
  } catch {
    // Only a guess for the next run is lost.
  }
}

/** The search of the last load of `configPath`, if it is on record. */
export function lastIncluded(projectDir: string, configPath: string): IncludedFiles | undefined {
  try {
    const record = JSON.parse(readFileSync(join(cachePath(projectDir), INCLUDED_RECORD), 'utf8')) as unknown;
    if (record === null || typeof record !== 'object') return undefined;
    const { config, search } = record as { config?: unknown; search?: unknown };
    return config === configPath && isIncludedFiles(search) ? search : undefined;
  } catch {
    return undefined;
  }
}

/** A search as `rememberIncluded` wrote it; anything else (a damaged or edited record) is not one. */
function isIncludedFiles(value: unknown): value is IncludedFiles {
  if (value === null || typeof value !== 'object') return false;
  const { key, matches, read } = value as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    Array.isArray(matches) &&
    matches.every((m) => Array.isArray(m) && m.every((f) => typeof f === 'string')) &&
    read !== null &&
    typeof read === 'object' &&
    Object.values(read).every((s) => s === null || typeof s === 'string')
  );
}

/**
 * Start what loading the project of `configPath` will need before the command gets there: the
 * build of the config, and the build of the construct files the last load included, each taken
 * from the project's cache when nothing it was made from changed, else started in esbuild's
 * service. The CLI calls it first thing, so that esbuild builds on the second core while the
 * CLI's own modules load on the first (bundling 1,500 resources takes ~90 ms; loading the modules
 * ~200 ms). A guess that turns out wrong costs only its build.
 */
export function prefetchProject(configPath: string): void {
  const projectDir = dirname(configPath);
  earlyBuilds.start('config', configEntry(configPath), projectDir);
  const search = lastIncluded(projectDir, configPath);
  if (search !== undefined)
    earlyBuilds.start('constructs', constructsEntry(includedFiles(search, configPath)), projectDir);
}
