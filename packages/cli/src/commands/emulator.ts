import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { RunContext } from '../output.js';

export interface EmulatorArgs {
  port: number;
  host?: string | undefined;
  data?: string | undefined;
  fixture?: string | undefined;
  accounts?: string | undefined;
  agentHealthPort?: number | undefined;
  requestLogSize?: number | undefined;
  rateLimit: boolean;
  quiet?: boolean | undefined;
}

/** `monitor emulator`: the local service until Ctrl-C (or `until`), as `monitor-emulator` runs it. */
export async function run(
  args: EmulatorArgs,
  { io }: RunContext,
  until: Promise<void> = untilSignal(),
): Promise<ExitCode> {
  const { serve } = await import('@monitor/emulator');
  const emulator = await serve(
    {
      port: args.port,
      ...(args.host === undefined ? {} : { host: args.host }),
      ...(args.data === undefined ? {} : { data: args.data }),
      ...(args.fixture === undefined ? {} : { fixture: args.fixture }),
      ...(args.accounts === undefined ? {} : { accounts: args.accounts }),
      ...(args.agentHealthPort === undefined ? {} : { agentHealthPort: args.agentHealthPort }),
      ...(args.requestLogSize === undefined ? {} : { requestLogSize: args.requestLogSize }),
      rateLimit: args.rateLimit,
      quiet: args.quiet === true,
      env: io.env,
    },
    io.stdout,
  );
  await until;
  io.stdout('shutting down: readiness answers 503 until the servers close\n');
  await emulator.close();
  return EXIT.ok;
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export const builder = (y: Argv) =>
  y
    .option('port', { type: 'number', default: 4010, describe: 'API port; 0 picks a free one' })
    .option('host', { type: 'string', describe: 'Address to listen on (default 127.0.0.1)' })
    .option('data', { type: 'string', describe: 'Persist to this file and reload it on start' })
    .option('fixture', {
      type: 'string',
      describe: 'Seed data of every account (default: the shipped fixture)',
    })
    .option('accounts', {
      type: 'string',
      describe: 'JSON file of accounts: [{ "id": "<uuid>", "keys": ["..."] }]',
    })
    .option('agent-health-port', {
      type: 'number',
      describe:
        "Port of the agent's /-/readiness, /-/liveness, /health (default $AGENT_HEALTH_PORT, else a free one with --port 0, else 8081)",
    })
    .option('request-log-size', {
      type: 'number',
      describe: 'Recent requests /_emulator/requests keeps (default 1000; 0 keeps none)',
    })
    .option('rate-limit', {
      type: 'boolean',
      default: true,
      describe: 'Enforce the service rate limits (--no-rate-limit turns them off)',
    })
    .option('quiet', { type: 'boolean', describe: 'No line per request' })
    .example('$0 emulator --port 0 --data .monitor/emulator.json', 'a persistent emulator on a free port');
