import { readFileSync } from 'node:fs';
import { z } from '@monitor/api/zod';
import { EmulatorConfigError, parsePort } from './errors.js';
import { type RunningEmulator, startEmulator } from './start.js';

/** What `monitor-emulator` and `monitor emulator` take. */
export interface ServeOptions {
  /** @default 4010 */
  port?: number;
  host?: string;
  /** Persist to this file and reload it on start. */
  data?: string;
  /** Seed data file of every account. */
  fixture?: string;
  /** File with a JSON list of accounts and their keys. */
  accounts?: string;
  /** @default `AGENT_HEALTH_PORT`, else a free one when `port` is 0, else 8081 */
  agentHealthPort?: number;
  /** @default true */
  rateLimit?: boolean;
  /** No line per request. @default false */
  quiet?: boolean;
  /** How many recent requests `/_emulator/requests` keeps. @default 1000 */
  requestLogSize?: number;
  /** Where `AGENT_HEALTH_PORT` is read. @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * The agent health port: the one asked for, else `AGENT_HEALTH_PORT`, else a free one when the
 * API takes a free one (port 0), else the agent's 8081.
 */
export function agentHealthPortFor(
  asked: number | undefined,
  apiPort: number,
  env: Record<string, string | undefined>,
): number {
  if (asked !== undefined) return asked;
  const fromEnv = env.AGENT_HEALTH_PORT;
  if (fromEnv !== undefined && fromEnv !== '') return parsePort(fromEnv, 'AGENT_HEALTH_PORT');
  return apiPort === 0 ? 0 : 8081;
}

const accountsSchema = z.array(
  z.strictObject({
    id: z.uuid(),
    name: z.string().optional(),
    keys: z.array(z.string().min(1)),
    readOnlyKeys: z.array(z.string().min(1)).optional(),
    paymentRequired: z.array(z.string()).optional(),
  }),
);

function readAccounts(path: string): z.infer<typeof accountsSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new EmulatorConfigError(`cannot read the accounts file ${path}: ${(e as Error).message}`, {
      hint: 'pass a JSON file: [{ "id": "<uuid>", "keys": ["..."] }]',
    });
  }
  const parsed = accountsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new EmulatorConfigError(
      `the accounts file ${path} is not a list of accounts: ${z.prettifyError(parsed.error)}`,
      {
        hint: 'each account is { "id": "<uuid>", "keys": ["..."] }',
      },
    );
  }
  return parsed.data;
}

function checkLogSize(size: number): number {
  if (Number.isInteger(size) && size >= 0) return size;
  throw new EmulatorConfigError(
    `--request-log-size must be a whole number of at least 0, not ${String(size)}`,
    {
      hint: 'e.g. 1000 (the default); 0 keeps no log',
    },
  );
}

/** Start the emulator for a person at a terminal: print where it listens and the variables to export. */
export async function serve(options: ServeOptions, out: (text: string) => void): Promise<RunningEmulator> {
  const accounts = options.accounts === undefined ? undefined : readAccounts(options.accounts);
  const port = options.port ?? 4010;
  const emulator = await startEmulator({
    port,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.data === undefined ? {} : { dataFile: options.data }),
    ...(options.fixture === undefined ? {} : { fixture: options.fixture }),
    ...(accounts === undefined ? {} : { accounts }),
    agentHealthPort: agentHealthPortFor(options.agentHealthPort, port, options.env ?? process.env),
    ...(options.rateLimit === false ? { rateLimits: false as const } : {}),
    ...(options.requestLogSize === undefined ? {} : { requestLogSize: checkLogSize(options.requestLogSize) }),
    ...(options.quiet === true ? {} : { log: (line: string) => out(`${line}\n`) }),
  });
  const [first] = emulator.accounts;
  out(
    [
      `monitor emulator listening on ${emulator.url}`,
      `agent health on ${emulator.agentHealthUrl ?? '(off)'}`,
      `data: ${options.data ?? 'in memory'}`,
      '',
      `  export MONITOR_BASE_URL=${emulator.url}`,
      `  export MONITOR_API_KEY=${first?.keys[0] ?? ''}`,
      `  export MONITOR_ACCOUNT_ID=${first?.id ?? ''}`,
      '',
      '',
    ].join('\n'),
  );
  return emulator;
}
