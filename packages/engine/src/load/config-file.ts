import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RateLimit } from '@monitor/api';
import type { RoutingTest } from '@monitor/constructs';
import { ConfigNotFoundError, EnvironmentRequiredError } from '../errors.js';
import { type PolicySet, selectPolicies } from '../policy/select.js';
import { CONFIG_FILE_NAMES, nearestConfig } from './config-location.js';
import type { ConfigInput, RateLimitInput } from './config-schema.js';
import { EnvironmentError, PolicyConfigError } from './errors.js';

/** The config file: `explicit` (relative to `cwd`), else the nearest one from `cwd` upwards. */
export function findConfig(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw missingConfig(path);
    if (statSync(path).isDirectory()) {
      const inside = CONFIG_FILE_NAMES.map((name) => join(path, name)).find((p) => existsSync(p));
      throw new ConfigNotFoundError(
        `config path ${path} is a directory, not a config file`,
        inside === undefined
          ? `name the file itself, e.g. ${join(path, CONFIG_FILE_NAMES[0] as string)}`
          : `name the file itself: ${inside}`,
      );
    }
    return path;
  }
  const nearest = nearestConfig(cwd);
  if (nearest !== undefined) return nearest;
  throw new ConfigNotFoundError(
    `no monitor.config.ts found in ${resolve(cwd)} or any directory above it`,
    "run monitor init to scaffold a project here (config, tsconfig, an example; --ci github|gitlab adds the workflows), or create monitor.config.ts yourself: import { defineConfig } from '@monitor/constructs'; export default defineConfig({ projectName: 'my-project' })",
  );
}

/** Why an explicit config path cannot be read: a symlink loop or a dangling link is not "missing". */
function missingConfig(path: string): ConfigNotFoundError {
  let linked = false;
  try {
    linked = lstatSync(path).isSymbolicLink();
    realpathSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      return new ConfigNotFoundError(
        `config file ${path} is a symlink loop: following its links comes back to where they started`,
        'point the link at the config file itself (ls -l shows where each link points)',
      );
    }
    if (linked && code === 'ENOENT') {
      return new ConfigNotFoundError(
        `config file ${path} is a symlink to a file that does not exist`,
        'point the link at the config file, or name the config file itself',
      );
    }
  }
  return new ConfigNotFoundError(`config file ${path} does not exist`, 'check the path of the config file');
}

/** The directory of the project: where its config file is (see `findConfig`). */
export function findProjectDir(cwd: string, explicit?: string): string {
  return dirname(findConfig(cwd, explicit));
}

export interface ResolvedConfig {
  projectName: string;
  include: string[];
  exclude: string[];
  defaults: Record<string, Record<string, unknown>>;
  /** Absolute directory of the state files (the file backend). */
  stateDir: string;
  /** The state database, when the config chose the postgres backend. */
  stateUrl: string | undefined;
  baseUrl: string | undefined;
  /** The environment loaded (`--env`), when the config defines environments. */
  environment: string | undefined;
  /** The account of that environment, when the config names it. */
  accountId: string | undefined;
  /** Every environment the config defines, sorted. */
  environments: string[];
  /** The account each environment names, by environment (undefined: `MONITOR_ACCOUNT_ID` gives it). */
  environmentAccounts: Record<string, string | undefined>;
  /** The built-in policies and the config's own, at the severities the config gives them. */
  policies: PolicySet;
  /** Who gets paged, asserted (`expectRoutes`): validate, diff, deploy and `routes --test` judge them. */
  routingTests: RoutingTest[];
  /** The account's rate limit (the environment's, else the project's), when the config gives one. */
  rateLimit: RateLimit | undefined;
}

export const DEFAULT_INCLUDE = ['**/*.monitor.ts'];

/**
 * The config as it applies: to `environment` when one is given (it must be one the config
 * defines), its account, base URL and state over the project's. Without one, the project's own;
 * what needs an account (diff, deploy, state) asks for the environment, see `requireEnvironment`.
 */
export function resolveConfig(config: ConfigInput, projectDir: string, environment?: string): ResolvedConfig {
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const environments = Object.keys(config.environments ?? {}).sort();
  if (environment !== undefined && environments.length === 0) {
    throw new EnvironmentError(
      `environment "${environment}" was asked for, but the config defines no environments`,
      'choose no environment, or add environments to monitor.config.ts',
    );
  }
  const chosen = environment === undefined ? undefined : config.environments?.[environment];
  if (environment !== undefined && chosen === undefined) {
    throw new EnvironmentError(
      `the config defines no environment "${environment}"`,
      `choose one of: ${environments.join(', ')}`,
    );
  }
  const state = chosen?.state ?? config.state;
  const policies = selectPolicies(config.policies ?? [], config.policySeverity ?? {});
  if (policies.problems.length > 0) throw new PolicyConfigError(policies.problems);
  return {
    projectName: config.projectName,
    include: config.include === undefined ? DEFAULT_INCLUDE : list(config.include),
    exclude: list(config.exclude),
    defaults: (config.defaults ?? {}) as Record<string, Record<string, unknown>>,
    stateDir: resolve(projectDir, state?.path ?? '.monitor/state'),
    stateUrl: state?.backend === 'file' ? undefined : state?.url,
    baseUrl: chosen?.baseUrl ?? config.api?.baseUrl,
    environment,
    accountId: chosen?.accountId,
    environments,
    environmentAccounts: Object.fromEntries(
      environments.map((name) => [name, config.environments?.[name]?.accountId]),
    ),
    policies: {
      ...policies.set,
      ...(config.policyTimeoutSeconds === undefined
        ? {}
        : { timeLimitMs: config.policyTimeoutSeconds * 1000 }),
    },
    routingTests: config.routingTests ?? [],
    rateLimit: rateLimitOf(chosen?.rateLimit ?? config.rateLimit),
  };
}

function rateLimitOf(limit: RateLimitInput | undefined): RateLimit | undefined {
  return limit === undefined ? undefined : { limit: limit.requests, windowMs: limit.perSeconds * 1000 };
}

/**
 * A config with environments reaches an account only through one of them: without `--env`, a
 * command that needs the account stops here, naming them.
 */
export function requireEnvironment(config: ResolvedConfig): void {
  if (config.environments.length > 0 && config.environment === undefined) {
    throw new EnvironmentRequiredError(
      `the config defines environments (${config.environments.join(', ')}): which one?`,
      `choose one of: ${config.environments.join(', ')}`,
    );
  }
}
