import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheDirectory, cachePath, configEntry, constructsEntry, earlyBuilds } from '../build/bundle.js';

/** The file in the cache directory where a load records the construct files it included. */
const INCLUDED_RECORD = 'included.json';

/**
 * Remember the construct files a load of `configPath` included (written only when they changed).
 * Nothing is trusted from it later but a guess of what to build: a build is used only when its
 * entry is exactly the one the next load makes.
 */
export function rememberIncluded(projectDir: string, configPath: string, files: readonly string[]): void {
  const text = `${JSON.stringify({ config: configPath, files })}\n`;
  try {
    const path = join(cacheDirectory(projectDir), INCLUDED_RECORD);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
    writeFileSync(path, text);
  } catch {
    // Only a guess for the next run is lost.
  }
}

function lastIncluded(projectDir: string, configPath: string): string[] | undefined {
  try {
    const record = JSON.parse(readFileSync(join(cachePath(projectDir), INCLUDED_RECORD), 'utf8')) as unknown;
    if (record === null || typeof record !== 'object') return undefined;
    const { config, files } = record as { config?: unknown; files?: unknown };
    if (config !== configPath || !Array.isArray(files)) return undefined;
    return files.every((f) => typeof f === 'string') ? files : undefined;
  } catch {
    return undefined;
  }
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
  const files = lastIncluded(projectDir, configPath);
  if (files !== undefined) earlyBuilds.start('constructs', constructsEntry(files), projectDir);
}
