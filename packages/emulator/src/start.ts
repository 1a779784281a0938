import type { AddressInfo } from 'node:net';
import { type AgentHealth, startAgentHealth } from './agent-health.js';
import { createControl, type EmulatorControl } from './control.js';
import { DEV_ACCOUNT_ID, DEV_API_KEY } from './dev-account.js';
import { checkPort, EmulatorConfigError, listenError } from './errors.js';
import type { FaultConfig } from './faults.js';
import { DEFAULT_FIXTURE_PATH, type Fixture, readFixture } from './fixture.js';
import { registerIntrospection } from './introspection.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limit.js';
import { DEFAULT_REQUEST_LOG_SIZE, type RequestLogEntry } from './request-log.js';
import { type AccountConfig, type App, buildApp } from './server.js';

export { DEV_ACCOUNT_ID, DEV_API_KEY };

/** Check sessions and root cause analyses kept per account unless told otherwise. */
export const DEFAULT_HISTORY_SIZE = 10_000;

export interface EmulatorOptions {
  /** Port of the API; 0 picks a free one. @default 0 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Accounts and their keys. @default one dev account with the dev key */
  accounts?: AccountConfig[];
  /** Seed data of every account: a file path or the data. @default the shipped realistic fixture */
  fixture?: string | Fixture;
  /** Persist to this JSON file (atomic writes), reloaded on start. @default in memory */
  dataFile?: string;
  /** Rate limits; `false` turns them off. @default 600/60 s and the addendum's per-route limits */
  rateLimits?: RateLimitConfig | false;
  /** Faults to inject from the start; `control.setFaults` and `/_emulator/faults` change them. @default none */
  faults?: FaultConfig;
  /** Port of the agent health endpoints; 0 picks a free one, `false` does not start them. @default 0 */
  agentHealthPort?: number | false;
  /** `manual`: emulator time moves only through `/_emulator/clock`, for exact lifecycle tests. @default 'running' */
  clock?: 'running' | 'manual';
  /** How long a root cause analysis stays PENDING, in emulator ms; null: it never completes. @default 3000 */
  rcaDurationMs?: number | null;
  /** How many recent requests `/_emulator/requests` keeps; the oldest make way. 0 keeps none. @default 1000 */
  requestLogSize?: number;
  /** Check sessions and root cause analyses kept per account; older ones are forgotten (404). @default 10000 */
  historySize?: number;
  /** One line per request; off when absent. */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  url: string;
  accounts: AccountConfig[];
  /** The agent health endpoints' base URL, when started. */
  agentHealthUrl: string | undefined;
  /** The recent requests, oldest first, as `/_emulator/requests` gives them (a new array each time). */
  readonly requests: RequestLogEntry[];
  /** Outcome rules, root cause analysis timing, faults and the clock, as `/_emulator/*` sets them. */
  control: EmulatorControl;
  app: App;
  /** Readiness turns 503, in-flight requests finish, then both servers stop. */
  close(): Promise<void>;
}

/** A whole number of at least `min`, or the coded error naming the option. */
function count(value: number | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value >= min) return value;
  throw new EmulatorConfigError(`${name} must be a whole number of at least ${min}, not ${String(value)}`, {
    hint: `leave it out for ${fallback}`,
  });
}

function fixtureOf(option: string | Fixture | undefined): Fixture {
  if (option === undefined) return readFixture(DEFAULT_FIXTURE_PATH);
  return typeof option === 'string' ? readFixture(option) : option;
}

/** Start the emulator of the whole service API on loopback. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const accounts = options.accounts ?? [{ id: DEV_ACCOUNT_ID, name: 'dev', keys: [DEV_API_KEY] }];
  const host = options.host ?? '127.0.0.1';
  const port = checkPort(options.port ?? 0, 'port');
  const agentPort =
    options.agentHealthPort === false ? false : checkPort(options.agentHealthPort ?? 0, 'agent health port');
  const app = buildApp({
    accounts,
    fixture: fixtureOf(options.fixture),
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
    rateLimits: options.rateLimits === undefined ? DEFAULT_RATE_LIMITS : options.rateLimits,
    rcaDurationMs: options.rcaDurationMs === undefined ? 3000 : options.rcaDurationMs,
    clock: options.clock ?? 'running',
    requestLogSize: count(options.requestLogSize, DEFAULT_REQUEST_LOG_SIZE, 'requestLogSize', 0),
    historySize: count(options.historySize, DEFAULT_HISTORY_SIZE, 'historySize', 1),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const control = createControl(app, accounts);
  if (options.faults !== undefined) control.setFaults(options.faults);
  if (options.rcaDurationMs !== undefined) control.setRcaDurationMs(options.rcaDurationMs);
  let agent: AgentHealth | undefined;
  registerIntrospection(app, accounts, control, () => agent);
  try {
    await app.fastify.listen({ port, host });
  } catch (e) {
    throw listenError(e, port, host);
  }
  if (agentPort !== false) {
    try {
      agent = await startAgentHealth(agentPort, host);
    } catch (e) {
      await app.fastify.close();
      throw listenError(e, agentPort, host, 'agent health port');
    }
  }
  const url = `http://${host}:${(app.fastify.server.address() as AddressInfo).port}`;
  app.state.url = url;
  return {
    url,
    accounts,
    agentHealthUrl: agent?.url,
    get requests() {
      return app.requests.entries();
    },
    control,
    app,
    close: async () => {
      if (agent !== undefined) agent.ready = false;
      await app.fastify.close();
      await agent?.close();
    },
  };
}
