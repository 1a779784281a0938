import { PRIVATE_LOCATION_METRICS_MAX_AGE_SECONDS } from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, withAccountOptions } from '../account.js';
import { renderChart } from '../chart.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { localTime, renderTable } from '../tables.js';
import { csvLine, formatMetric, parseWindow } from '../time-range.js';

interface MetricsArgs extends AccountArgs {
  id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  csv?: boolean | undefined;
}

const DAY_MS = 86_400_000;

/** The service API has no list of private locations: where a person finds the id instead. */
const WHERE_IDS_COME_FROM =
  "a private location's id is on its page in the service's web app (Private locations); the service API has no list of them, so monitor cannot list them";

/**
 * `monitor private-locations metrics <id>`: the queue of a private location over a window (the
 * last 24 hours by default), charted. The service keeps 15 days: an older `--from` is refused
 * before any request.
 */
async function metrics(args: MetricsArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const now = Date.now();
  const window = parseWindow({ from: args.from ?? '24h', to: args.to }, now) ?? {
    from: now - DAY_MS,
    to: now,
  };
  const earliest = now - PRIVATE_LOCATION_METRICS_MAX_AGE_SECONDS * 1000;
  if (window.from <= earliest) {
    const days = ((now - window.from) / DAY_MS).toFixed(1);
    throw new UsageError(
      `--from is ${days} days ago; the service keeps private-location metrics for 15 days`,
      'choose a --from less than 15 days ago, e.g. --from 14d',
    );
  }
  const id = String(args.id ?? '').trim();
  if (id === '')
    throw new UsageError(
      'name the private location: monitor private-locations metrics <id>',
      WHERE_IDS_COME_FROM,
    );
  const account = await connectAccount(args, ctx);
  try {
    const data = await explained(
      account.client.privateLocations.metrics(id, {
        from: Math.floor(window.from / 1000),
        to: Math.floor(window.to / 1000),
      }),
      {
        not_found: `no private location ${id} in account ${account.accountId}; ${WHERE_IDS_COME_FROM}`,
        rate_limited: 'private-location metrics allow 300 requests a day per account: try again later',
      },
    );
    out.result = {
      id,
      from: new Date(window.from).toISOString(),
      to: new Date(window.to).toISOString(),
      metrics: data,
    };
    if (out.json) return EXIT.ok;
    const rows = data.timestamps.map((t, i) => ({
      time: t,
      queueSize: data.queueSize[i] ?? null,
      oldest: data.oldestScheduledCheckRun[i] ?? null,
    }));
    if (args.csv === true) {
      io.stdout(`${csvLine(['timestamp', 'queueSize', 'oldestScheduledCheckRun'])}\n`);
      for (const r of rows) io.stdout(`${csvLine([r.time, r.queueSize, r.oldest])}\n`);
      return EXIT.ok;
    }
    const p = paint(io.color);
    io.stdout(
      `${p.bold(escapeTerminal(`Private location ${id}`))} ${p.dim(`${localTime(window.from)} → ${localTime(window.to)}`)}\n\n`,
    );
    if (rows.length === 0) {
      io.stdout('No data points in this window.\n');
      return EXIT.ok;
    }
    const width = Math.min(io.columns ?? 100, 120);
    const points = (pick: (r: (typeof rows)[number]) => number | null) =>
      rows.map((r) => ({ time: Date.parse(r.time), value: pick(r) }));
    for (const [title, pick] of [
      ['Queue size (check runs waiting)', (r: (typeof rows)[number]) => r.queueSize],
      ['Oldest scheduled check run', (r: (typeof rows)[number]) => r.oldest],
    ] as const) {
      const chart = renderChart(title, [{ label: escapeTerminal(id), points: points(pick) }], {
        width,
        color: io.color,
        format: (v) => formatMetric(v, undefined),
      });
      if (chart !== undefined) io.stdout(`${chart}\n`);
    }
    io.stdout(
      renderTable(
        rows,
        [
          { header: 'TIME', value: (r) => localTime(r.time) },
          { header: 'QUEUE', value: (r) => formatMetric(r.queueSize, 'count'), align: 'right' },
          { header: 'OLDEST SCHEDULED', value: (r) => formatMetric(r.oldest, undefined), align: 'right' },
        ],
        io,
        p,
      ),
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'metrics [id]',
    describe:
      "A private location's queue over time (the last 24 h by default, at most 15 days back), charted",
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', {
          type: 'string',
          describe: "The private location's id: on its page in the service's web app (Private locations)",
        })
        .option('from', {
          type: 'string',
          describe: 'Start: ISO date-time, unix seconds or an age (default 24h); less than 15 days ago',
        })
        .option('to', { type: 'string', describe: 'End (default now)' })
        .option('csv', { type: 'boolean', describe: 'CSV on stdout instead of the charts and table' })
        .example('$0 private-locations metrics b6f7… --from 7d', 'is the agent keeping up this week')
        .epilogue(`Where ids come from: ${WHERE_IDS_COME_FROM}.`),
    run: metrics,
  },
];
