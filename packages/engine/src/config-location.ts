import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const CONFIG_FILE_NAMES = [
  'monitor.config.ts',
  'monitor.config.mts',
  'monitor.config.js',
  'monitor.config.mjs',
];

/** The nearest config file from `cwd` upwards, if any. */
export function nearestConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
