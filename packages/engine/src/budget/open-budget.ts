import { type AccountBudget, DEFAULT_RATE_LIMIT, type RateLimit } from '@monitor/api';
import { serviceIdentity } from '../flows/target.js';
import { budgetCacheDir } from './cache-dir.js';
import { FileAccountBudget } from './file-budget.js';
import { MemoryAccountBudget } from './memory-budget.js';
import { PostgresAccountBudget } from './postgres-budget.js';

export interface OpenBudgetOptions {
  baseUrl: string;
  accountId: string;
  /** The account's limit: `--rate-limit`, else the config's `rateLimit`. @default 600 per 60 s */
  limit?: RateLimit | undefined;
  /** The state's URL (`MONITOR_STATE_URL`, else the config's): a `postgres://` one keeps the budget there. */
  stateUrl?: string | undefined;
  /** Where `XDG_CACHE_HOME` is read. @default process.env */
  env?: Record<string, string | undefined>;
  /** The embedded emulator of `--local`: the process's own, so its budget is kept in the process. */
  local?: boolean;
}

/**
 * The budget of the account at `baseUrl`, shared by every run calling it at once: in the state
 * database when the state is in PostgreSQL (runs on every machine that uses it), else in a file of
 * this user's cache (runs on this machine); for `--local`, in this process. Keyed by service and
 * account, not by project: the service counts an account's requests whatever project sends them.
 */
export function openAccountBudget(options: OpenBudgetOptions): AccountBudget {
  const service = serviceIdentity(options.baseUrl);
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  if (options.local === true)
    return new MemoryAccountBudget({ service, accountId: options.accountId, limit });
  const url = options.stateUrl?.trim();
  if (url !== undefined && /^postgres(ql)?:\/\//i.test(url)) {
    return new PostgresAccountBudget({ url, service, accountId: options.accountId, limit });
  }
  return new FileAccountBudget({
    dir: budgetCacheDir(options.env),
    service,
    accountId: options.accountId,
    limit,
  });
}
