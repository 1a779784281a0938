import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where this user's budget files are: `$XDG_CACHE_HOME/monitor/budgets`, else
 * `~/.cache/monitor/budgets`. A cache: removing it forgets at most the last minute of requests.
 * A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
 */
export function budgetCacheDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  const cache = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(cache, 'monitor', 'budgets');
}
