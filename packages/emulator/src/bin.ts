#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { parsePort } from './errors.js';
import { serve } from './serve.js';

const HELP = `monitor-emulator: the monitoring service API on loopback, for development and tests

Usage: monitor-emulator [options]

Options:
  --port N               API port (default 4010; 0 picks a free port)
  --host HOST            address to listen on (default 127.0.0.1)
  --data FILE            persist to FILE (atomic writes) and reload it on start (default: in memory)
  --fixture FILE         seed data of every account (default: the shipped realistic fixture)
  --accounts FILE        JSON list of accounts: [{ "id": "<uuid>", "keys": ["..."], "readOnlyKeys": [], "paymentRequired": [] }]
  --agent-health-port N  port of the agent's /-/readiness, /-/liveness, /health
                         (default $AGENT_HEALTH_PORT, else a free one with --port 0, else 8081)
  --request-log-size N   recent requests /_emulator/requests keeps (default 1000; 0 keeps none)
  --no-rate-limit        turn rate limits off
  --quiet                no line per request
  -h, --help             this help

Then: export MONITOR_BASE_URL, MONITOR_API_KEY and MONITOR_ACCOUNT_ID as printed.`;

function port(value: string | undefined, name: string): number | undefined {
  return value === undefined ? undefined : parsePort(value, name);
}

// A reader that goes away (\`| head\`) is not an error of the emulator.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      fixture: { type: 'string' },
      accounts: { type: 'string' },
      'agent-health-port': { type: 'string' },
      'request-log-size': { type: 'string' },
      'rate-limit': { type: 'boolean', default: true },
      'no-rate-limit': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const agentHealthPort = port(values['agent-health-port'], '--agent-health-port');
  const logSize = values['request-log-size'];
  const emulator = await serve(
    {
      port: port(values.port, '--port') ?? 4010,
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.data === undefined ? {} : { data: values.data }),
      ...(values.fixture === undefined ? {} : { fixture: values.fixture }),
      ...(values.accounts === undefined ? {} : { accounts: values.accounts }),
      ...(agentHealthPort === undefined ? {} : { agentHealthPort }),
      ...(logSize === undefined
        ? {}
        : { requestLogSize: logSize.trim() === '' ? Number.NaN : Number(logSize) }),
      rateLimit: !(values['no-rate-limit'] || !values['rate-limit']),
      quiet: values.quiet,
    },
    (text) => process.stdout.write(text),
  );
  const stop = async () => {
    process.stdout.write('shutting down: readiness answers 503 until the servers close\n');
    await emulator.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`monitor-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  const hint = (error as { hint?: unknown }).hint;
  if (typeof hint === 'string') process.stderr.write(`hint: ${hint}\n`);
  process.exit(1);
});
