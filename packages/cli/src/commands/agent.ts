import { createAgentHealthClient, pause as sleep } from '@monitor/api';
import type { Argv } from 'yargs';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { positiveSeconds, UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { painted, renderTable } from '../tables.js';

interface HealthArgs {
  url?: string | undefined;
  local?: boolean | undefined;
  json?: boolean | undefined;
  waitReady?: boolean | undefined;
  timeout?: number | undefined;
  interval?: number | undefined;
}

interface Probe {
  endpoint: string;
  /** The HTTP status, or null when nothing answered. */
  status: number | null;
  ok: boolean;
  error?: string;
}

const DEFAULT_WAIT_SECONDS = 120;

/** The agent's address: `--url`, else localhost on `AGENT_HEALTH_PORT` (8081 when unset). */
function agentUrl(args: HealthArgs, env: Record<string, string | undefined>): string {
  const raw = args.url ?? `http://localhost:${env.AGENT_HEALTH_PORT || '8081'}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url "${raw}" is not a URL`, 'e.g. --url http://agent-host:8081');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `--url must be http or https, not ${url.protocol}`,
      'e.g. --url http://agent-host:8081',
    );
  }
  return url.href.replace(/\/+$/, '');
}

async function probeAll(baseUrl: string): Promise<Probe[]> {
  const client = createAgentHealthClient({
    baseUrl,
    timeouts: { connectMs: 3000, headersMs: 5000, bodyMs: 5000 },
  });
  const one = async (
    endpoint: string,
    call: () => Promise<{ status: number; ok: boolean }>,
  ): Promise<Probe> => {
    try {
      const r = await call();
      return { endpoint, status: r.status, ok: r.ok };
    } catch (e) {
      return {
        endpoint,
        status: (e as { status?: number }).status ?? null,
        ok: false,
        error: (e as Error).message,
      };
    }
  };
  try {
    return await Promise.all([
      one('/-/liveness', client.liveness),
      one('/-/readiness', client.readiness),
      one('/health', client.health),
    ]);
  } finally {
    await client.close();
  }
}

/**
 * `monitor agent health`: probe a private-location agent's liveness, readiness and health. Exit 0
 * when all three answer 200, 1 otherwise (503 from readiness while it shuts down, or nothing
 * answering); with --wait-ready, probe until ready, exit 7 at --timeout.
 */
async function health(args: HealthArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const p = paint(io.color);
  let stopEmulator = async () => {};
  let baseUrl: string;
  if (args.local === true) {
    const { startEmulator } = await import('@monitor/emulator');
    const emulator = await startEmulator({ port: 0, agentHealthPort: 0, rateLimits: false });
    stopEmulator = () => emulator.close();
    baseUrl = emulator.agentHealthUrl ?? '';
  } else {
    baseUrl = agentUrl(args, io.env);
  }
  const started = Date.now();
  const timeoutMs = (args.timeout ?? DEFAULT_WAIT_SECONDS) * 1000;
  const trap = args.waitReady === true ? io.trapInterrupts?.('stopping the probes') : undefined;
  try {
    let probes = await probeAll(baseUrl);
    while (args.waitReady === true && !probes.every((x) => x.ok)) {
      if (Date.now() - started >= timeoutMs || trap?.signal.aborted === true) break;
      if (!out.json && !io.interactive) {
        const failing = probes.filter((x) => !x.ok).map((x) => `${x.endpoint} ${x.status ?? 'no answer'}`);
        io.stderr(p.dim(`not ready yet: ${failing.join(', ')}\n`));
      }
      await sleep(Math.min((args.interval ?? 2) * 1000, timeoutMs - (Date.now() - started)), trap?.signal);
      probes = await probeAll(baseUrl);
    }
    const healthy = probes.every((x) => x.ok);
    out.result = { url: baseUrl, healthy, probes, waitedMs: Date.now() - started };
    if (!out.json) {
      io.stdout(
        renderTable(
          probes,
          [
            { header: 'ENDPOINT', value: (x) => x.endpoint },
            { header: 'STATUS', value: (x) => (x.status === null ? 'no answer' : String(x.status)) },
            { header: 'OK', value: (x) => painted(x.ok ? p.green('yes') : p.red('no')) },
            { header: 'DETAIL', value: (x) => x.error ?? '', shrink: true },
          ],
          io,
          p,
        ),
      );
    }
    if (healthy) {
      if (!out.json) io.stdout(`${p.green('✓')} The agent at ${baseUrl} is live and ready.\n`);
      return EXIT.ok;
    }
    const readiness = probes.find((x) => x.endpoint === '/-/readiness');
    const reason = probes.every((x) => x.status === null)
      ? `nothing answers at ${baseUrl}`
      : readiness?.status === 503
        ? `the agent at ${baseUrl} is not ready (503: shutting down)`
        : `the agent at ${baseUrl} is not healthy`;
    if (args.waitReady === true && trap?.signal.aborted !== true) {
      const message = `timed out after ${args.timeout ?? DEFAULT_WAIT_SECONDS} s: ${reason}`;
      out.error = { code: 'timeout', message, hint: 'check the agent logs, or wait longer with --timeout' };
      if (!out.json) io.stderr(`${p.red('error')}: ${message}\n`);
      return EXIT.timeout;
    }
    out.error = {
      code: 'agent_unhealthy',
      message: reason,
      hint: `the agent serves these on AGENT_HEALTH_PORT (8081 by default); check --url, or wait with --wait-ready`,
    };
    if (!out.json) io.stderr(`${p.red('error')}: ${reason}\n${p.dim('hint')}: ${out.error.hint}\n`);
    return trap?.signal.aborted === true ? EXIT.interrupted : EXIT.error;
  } finally {
    trap?.release();
    await stopEmulator();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'health',
    describe:
      "Probe a private-location agent's liveness, readiness and health: exit 0 ready, 1 not, 7 --wait-ready timed out",
    builder: (y: Argv) =>
      y
        .option('url', {
          type: 'string',
          describe:
            "The agent's health address (default http://localhost:$AGENT_HEALTH_PORT, port 8081 when unset)",
        })
        .option('wait-ready', {
          type: 'boolean',
          describe: 'Probe until the agent is ready: a deployment gate',
        })
        .option('timeout', {
          type: 'string',
          coerce: positiveSeconds('timeout'),
          describe: `With --wait-ready: seconds to wait (default ${DEFAULT_WAIT_SECONDS})`,
        })
        .option('interval', {
          type: 'string',
          coerce: positiveSeconds('interval'),
          describe: 'With --wait-ready: seconds between probes (default 2)',
        })
        .option('local', { type: 'boolean', describe: "Probe the embedded emulator's agent" })
        .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' })
        .example('$0 agent health --url http://agent-1:8081', 'as a probe: exit 0 when live and ready')
        .example('$0 agent health --url http://agent-1:8081 --wait-ready --timeout 300', 'a deployment gate'),
    run: health,
  },
];
