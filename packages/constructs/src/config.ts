import type { AlertChannelSwitches } from './alert-channels.js';
import type { CheckGroupProps } from './check-group.js';
import type { DashboardProps } from './dashboard.js';
import type { MaintenanceWindowProps } from './maintenance-window.js';
import type { Policy, PolicySeverity } from './policy.js';
import type { RoutingTest } from './routing-tests.js';
import type { StatusPageProps } from './status-page.js';

/** Props applied to every construct of a kind where the construct does not set them. */
export interface ProjectDefaults {
  CheckGroup?: Partial<Omit<CheckGroupProps, 'name'>>;
  Dashboard?: Partial<Omit<DashboardProps, 'header' | 'customUrl' | 'customDomain'>>;
  StatusPage?: Partial<Omit<StatusPageProps, 'name' | 'url' | 'cards' | 'customDomain'>>;
  MaintenanceWindow?: Partial<Omit<MaintenanceWindowProps, 'name' | 'startsAt' | 'endsAt'>>;
  AlertChannel?: AlertChannelSwitches;
}

export interface MonitorConfig {
  /** Name of the project, shown in plans and used to tell projects apart. */
  projectName: string;
  /** Globs of construct files, relative to the config file. @default ['**\/*.monitor.ts'] */
  include?: string | string[];
  /** Globs left out. `node_modules` is always left out. @default [] */
  exclude?: string | string[];
  /** Props applied per construct kind where a construct does not set them. @default {} */
  defaults?: ProjectDefaults;
  /** Where the project's state lives (see docs/state.md). @default { backend: 'file', path: '.monitor/state' } */
  state?: {
    /**
     * Where state lives: `file` (the default) in `path`, committed with the code; `postgres` in the
     * database at `url`, shared by a team and its CI, with a lock that holds across machines.
     * `MONITOR_STATE_URL` wins over both. @default 'file'
     */
    backend?: 'file' | 'postgres';
    /** Directory of the state files (one per account), relative to the config file. @default '.monitor/state' */
    path?: string;
    /** `postgres://user:password@host:5432/database`; keep the password out of the repository (`process.env`). */
    url?: string;
  };
  /** The service to talk to. @default {} */
  api?: {
    /** Base URL of the service; `MONITOR_BASE_URL` wins when set. */
    baseUrl?: string;
  };
  /**
   * Named environments, one account each: `{ staging: { accountId }, production: { accountId } }`.
   * With them, every command needs `--env NAME` (or `MONITOR_ENV`), and constructs can read the
   * name with `currentEnvironment()`. See docs/environments.md. @default no environments
   */
  environments?: Record<string, EnvironmentConfig>;
  /**
   * The project's own policies (`definePolicy`), from its files or from npm packages (policy
   * packs), beside the built-in ones. See docs/policies.md. @default []
   */
  policies?: Policy[];
  /**
   * Another severity for a policy, built-in or from `policies`, or `'off'` to turn it off:
   * `{ 'maintenance-silences-all-alerts': 'off', 'group-without-alert-channel': 'error' }`.
   * @default each policy's own severity
   */
  policySeverity?: Record<string, PolicySeverity | 'off'>;
  /**
   * How long the policies of one stage may run, in seconds: the construct rules of a load, or the
   * plan rules of a diff or deploy. Past it the run stops with an error naming the policy and what
   * it was checking (policies from npm are code monitor does not trust to return). @default 30
   */
  policyTimeoutSeconds?: number;
  /**
   * Who gets paged, asserted: `expectRoutes(group, { failure: ['pagerduty-oncall'] })` for each
   * group that matters. validate judges them against the code, diff and deploy against the
   * account once the plan is applied, `monitor routes --test` alone; a failure is an error at the
   * assertion's line, and deploy refuses. See docs/routing.md. @default []
   */
  routingTests?: RoutingTest[];
  /**
   * The account's rate limit, for an account whose limit is not the service's usual one: every run
   * that calls the account at once shares it, through the state database or this machine's cache
   * (see docs/state.md). `--rate-limit` wins. @default { requests: 600, perSeconds: 60 }
   */
  rateLimit?: {
    /** Requests the account allows per window. */
    requests: number;
    /** The window, in seconds. */
    perSeconds: number;
  };
}

/** One environment of a project: its account, and where its service and state are. */
export interface EnvironmentConfig {
  /** The account's id; `MONITOR_ACCOUNT_ID`, when set, must be the same. @default MONITOR_ACCOUNT_ID */
  accountId?: string;
  /** Base URL of the service for this environment; `MONITOR_BASE_URL` wins when set. @default api.baseUrl */
  baseUrl?: string;
  /** Where this environment's state lives, as `state`. @default the project's state */
  state?: MonitorConfig['state'];
  /** This environment's account's rate limit, as `rateLimit`. @default the project's rateLimit */
  rateLimit?: MonitorConfig['rateLimit'];
}

/** The config of a project, in `monitor.config.ts`: `export default defineConfig({ projectName: 'acme' })`. */
export function defineConfig(config: MonitorConfig): MonitorConfig {
  return config;
}
