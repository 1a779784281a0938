import type { AddressInfo } from 'node:net';
import { type AgentHealth, startAgentHealth } from './agent-health.js';
import type { FaultConfig } from './faults.js';
import { DEFAULT_FIXTURE_PATH, type Fixture, readFixture } from './fixture.js';
import { registerIntrospection } from './introspection.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limit.js';
import { type AccountConfig, type App, buildApp, type RequestLogEntry } from './server.js';

/** The development account and key every emulator has unless told otherwise. */
export const DEV_ACCOUNT_ID = '00000000-0000-4000-8000-00000000de00';
export const DEV_API_KEY = 'mk_dev_emulator_key';

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
  faults?: FaultConfig;
  /** Port of the agent health endpoints; `false` to not start them. @default 0 */
  agentHealthPort?: number | false;
  /** `manual`: emulator time moves only through `/_emulator/clock`, for exact lifecycle tests. @default 'running' */
  clock?: 'running' | 'manual';
  /** How long a root cause analysis stays PENDING. @default 3000 */
  rcaDurationMs?: number;
  /** One line per request; off when absent. */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  url: string;
  accounts: AccountConfig[];
  /** The agent health endpoints' base URL, when started. */
  agentHealthUrl: string | undefined;
  /** The request log, as `/_emulator/requests` gives it. */
  requests: RequestLogEntry[];
  app: App;
  /** Readiness turns 503, in-flight requests finish, then both servers stop. */
  close(): Promise<void>;
}

/** Start the emulator of the whole service API on loopback. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const accounts = options.accounts ?? [{ id: DEV_ACCOUNT_ID, name: 'dev', keys: [DEV_API_KEY] }];
  const fixture =
    options.fixture === undefined
      ? readFixture(DEFAULT_FIXTURE_PATH)
      : typeof options.fixture === 'string'
        ? readFixture(options.fixture)
        : options.fixture;
  const host = options.host ?? '127.0.0.1';
  const app = buildApp({
    accounts,
    fixture,
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
    rateLimits: options.rateLimits === undefined ? DEFAULT_RATE_LIMITS : options.rateLimits,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    rcaDurationMs: options.rcaDurationMs ?? 3000,
    clock: options.clock ?? 'running',
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  let agent: AgentHealth | undefined;
  if (options.agentHealthPort !== false) agent = await startAgentHealth(options.agentHealthPort ?? 0, host);
  registerIntrospection(app, accounts, agent);
  await app.fastify.listen({ port: options.port ?? 0, host });
  const { port } = app.fastify.server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  app.state.url = url;
  return {
    url,
    accounts,
    agentHealthUrl: agent?.url,
    requests: app.requests,
    app,
    close: async () => {
      if (agent !== undefined) agent.ready = false;
      await app.fastify.close();
      await agent?.close();
    },
  };
}

export type { AgentHealth } from './agent-health.js';
export { EmulatorClock } from './clock.js';
export type { DropRule, FaultConfig, HoldRule } from './faults.js';
export { applyFixture, DEFAULT_FIXTURE_PATH, type Fixture, fixtureSchema, readFixture } from './fixture.js';
export { faultConfigSchema, INTROSPECTION_PREFIX } from './introspection.js';
export { openApiDocument, swaggerDocument } from './openapi.js';
export { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limit.js';
export { type ServeOptions, serve } from './serve.js';
export type { AccountConfig, App, RequestLogEntry } from './server.js';
export { Store, type StoreData } from './store.js';
