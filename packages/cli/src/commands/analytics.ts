import {
  type AnalyticsSummaryElement,
  type ApiCheckAnalytics,
  type Check,
  type Client,
  collect,
  METRIC_NAMES,
  type MetricName,
  QUICK_RANGES,
  type QuickRange,
  SUMMARY_QUICK_RANGES,
} from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import { type ChartSeries, renderChart } from '../chart.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { localTime, renderTable } from '../tables.js';
import { csvLine, formatMetric, parseWindow } from '../time-range.js';

interface SummaryArgs extends AccountArgs {
  checkIds?: string[] | undefined;
  range?: (typeof SUMMARY_QUICK_RANGES)[number] | undefined;
  tag?: string[] | undefined;
  csv?: boolean | undefined;
}

interface ApiCheckArgs extends AccountArgs {
  checkId: string;
  metrics?: string | undefined;
  range?: QuickRange | undefined;
  from?: string | undefined;
  to?: string | undefined;
  interval?: number | undefined;
  groupBy?: 'runLocation' | 'statusCode' | undefined;
  status?: string | undefined;
  csv?: boolean | undefined;
}

const DEFAULT_METRICS: MetricName[] = ['responseTime_p95', 'availability'];
/** Points a chart aims for when monitor picks the interval. */
const POINTS = 96;
const RANGE_MINUTES: Record<QuickRange, number> = {
  last24Hours: 1440,
  last7Days: 10_080,
  last30Days: 43_200,
  thisWeek: 10_080,
  lastWeek: 10_080,
  thisMonth: 43_200,
  lastMonth: 43_200,
};

const SUMMARY_LABELS = ['AVAILABILITY', 'AVG', 'P50', 'P95', 'P99', 'LOSS'] as const;

/** The summary's columns of one check, in the order of SUMMARY_LABELS: response times, or latency for ICMP checks. */
function summaryColumns(
  element: AnalyticsSummaryElement,
): { value: number | null | undefined; unit: string }[] {
  const latency = element.latency_avg !== undefined;
  const prefix = latency ? 'latency' : 'responseTime';
  const get = (key: string) => element[key] as number | null | undefined;
  return [
    { value: element.availability, unit: 'percentage' },
    { value: get(`${prefix}_avg`), unit: 'milliseconds' },
    { value: get(`${prefix}_p50`), unit: 'milliseconds' },
    { value: get(`${prefix}_p95`), unit: 'milliseconds' },
    { value: get(`${prefix}_p99`), unit: 'milliseconds' },
    { value: element.packetLoss_avg, unit: 'percentage' },
  ];
}

/** `monitor analytics summary`: availability and timings of many checks over one of the spec's ranges. */
async function summary(args: SummaryArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const given = (args.checkIds ?? [])
    .flatMap((i) => String(i).split(','))
    .filter((i) => i.trim() !== '')
    .map((i) => uuidArgument('a check id', i, 'list the checks with monitor checks list'));
  const account = await connectAccount(args, ctx);
  try {
    const checks: Check[] = await collect(
      account.client.checks.all(args.tag === undefined || args.tag.length === 0 ? {} : { tag: args.tag }),
    );
    const names = new Map(checks.map((c) => [c.id, c.name ?? c.id]));
    const ids = given.length > 0 ? given : checks.map((c) => c.id);
    if (ids.length === 0) {
      out.result = { summary: [] };
      if (!out.json) io.stdout('No checks to summarize.\n');
      return EXIT.ok;
    }
    const elements: AnalyticsSummaryElement[] = [];
    // The service takes 100 ids per request.
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      elements.push(
        ...(await explained(
          account.client.analytics.summary(
            { checkIds: batch },
            args.range === undefined ? {} : { quickRange: args.range },
          ),
          {
            not_found: 'one of the checks does not exist in this account; list them with monitor checks list',
          },
        )),
      );
    }
    out.result = { range: args.range ?? 'last24Hours', summary: elements };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    if (args.csv === true) {
      io.stdout(
        `${csvLine(['checkId', 'name', 'checkType', ...SUMMARY_LABELS.map((label) => label.toLowerCase())])}\n`,
      );
      for (const e of elements) {
        io.stdout(
          `${csvLine([e.checkId, names.get(e.checkId) ?? '', e.checkType, ...summaryColumns(e).map((c) => c.value)])}\n`,
        );
      }
      return EXIT.ok;
    }
    const rows = elements.map((e) => ({ e, columns: summaryColumns(e) }));
    io.stdout(
      renderTable(
        rows,
        [
          { header: 'CHECK', value: ({ e }) => names.get(e.checkId) ?? e.checkId, shrink: true },
          { header: 'TYPE', value: ({ e }) => e.checkType },
          ...SUMMARY_LABELS.map((label, i) => ({
            header: label,
            value: ({ columns }: (typeof rows)[number]) => formatMetric(columns[i]?.value, columns[i]?.unit),
            align: 'right' as const,
          })),
        ],
        io,
        p,
      ),
    );
    io.stdout(
      p.dim(
        `${args.range ?? 'last24Hours'}; AVG…P99 are response times (latency for ICMP); - where the type has no such metric or there was no run\n`,
      ),
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

type Row = Record<string, unknown>;

/** The series of a response, by group value (`all` when not grouped), rows as objects. */
function seriesOf(analytics: ApiCheckAnalytics, groupBy: string | undefined): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const entry of analytics.series) {
    if (typeof entry === 'string') continue;
    const group = groupBy === undefined ? 'all' : String((entry as Row)[groupBy] ?? 'all');
    const rows = Array.isArray(entry.data) ? (entry.data as Row[]) : [entry.data as Row];
    out.set(group, [...(out.get(group) ?? []), ...rows]);
  }
  return out;
}

/** What `analytics api-check` asks for, its arguments checked: the check, the metrics, minutes per point, the query. */
type ApiCheckRequest = ReturnType<typeof apiCheckRequest>;

/** The arguments of `analytics api-check`, checked and made into the query; a UsageError when one is wrong. */
function apiCheckRequest(args: ApiCheckArgs) {
  const checkId = uuidArgument(
    'the check id',
    args.checkId,
    'list the API checks with monitor checks list --type API',
  );
  const metrics = (args.metrics
    ?.split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '') ?? DEFAULT_METRICS) as MetricName[];
  const unknown = metrics.filter((m) => !METRIC_NAMES.includes(m));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown metric${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`,
      `metrics are ${['responseTime', 'wait', 'dns', 'tcp', 'firstByte', 'download', 'availability', 'retries'].join(', ')}, and for the timings an aggregate such as responseTime_p95 (_avg _max _median _min _p50 _p90 _p95 _p99 _stddev _sum)`,
    );
  }
  if (args.range !== undefined && (args.from !== undefined || args.to !== undefined)) {
    throw new UsageError('--range and --from/--to choose the window twice', 'give one of them');
  }
  const window = parseWindow(args, Date.now());
  const minutes =
    window === undefined ? RANGE_MINUTES[args.range ?? 'last24Hours'] : (window.to - window.from) / 60_000;
  const interval = args.interval ?? Math.min(43_200, Math.max(1, Math.ceil(minutes / POINTS)));
  if (!Number.isInteger(interval) || interval < 1 || interval > 43_200) {
    throw new UsageError(`--interval must be a whole number of minutes from 1 to 43200, got ${interval}`);
  }
  const filterByStatus = args.status?.split(',').map((s) => s.trim()) as
    | ('success' | 'failure')[]
    | undefined;
  if (filterByStatus?.some((s) => s !== 'success' && s !== 'failure')) {
    throw new UsageError(`--status takes success, failure or both, got "${args.status}"`);
  }
  return {
    checkId,
    metrics,
    interval,
    query: {
      metrics,
      aggregationInterval: interval,
      limit: 100,
      ...(window === undefined
        ? { quickRange: args.range ?? 'last24Hours' }
        : { from: Math.floor(window.from / 1000), to: Math.floor(window.to / 1000) }),
      ...(args.groupBy === undefined ? {} : { groupBy: args.groupBy }),
      ...(filterByStatus === undefined ? {} : { filterByStatus }),
    },
  };
}

/**
 * Every row of the window: rows come 100 to a page, so pages are read until every series is
 * shorter than that (50 pages at most). The first page's answer carries the name and metadata.
 */
async function readApiCheckSeries(
  client: Client,
  request: ApiCheckRequest,
  groupBy: string | undefined,
  hints: Record<string, string>,
): Promise<{ first: ApiCheckAnalytics | undefined; series: Map<string, Row[]> }> {
  let first: ApiCheckAnalytics | undefined;
  const series = new Map<string, Row[]>();
  for (let page = 1; page <= 50; page++) {
    const answer = await explained(
      client.analytics.apiCheck(request.checkId, { ...request.query, page }),
      hints,
    );
    first ??= answer;
    const groups = seriesOf(answer, groupBy);
    for (const [group, rows] of groups) series.set(group, [...(series.get(group) ?? []), ...rows]);
    if ([...groups.values()].every((rows) => rows.length < 100)) break;
  }
  return { first, series };
}

/** `monitor analytics api-check <id>`: one API check's metrics over time, charted above the table. */
async function apiCheck(args: ApiCheckArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const request = apiCheckRequest(args);
  const { checkId, metrics, interval } = request;
  const account = await connectAccount(args, ctx);
  try {
    const hints = {
      not_found: `no API check ${checkId} in account ${account.accountId}; analytics exist for API checks only (monitor checks list --type API)`,
    };
    const { first, series } = await readApiCheckSeries(account.client, request, args.groupBy, hints);
    if (first === undefined) return EXIT.error;
    out.result = {
      checkId,
      name: first.name,
      from: first.from,
      to: first.to,
      aggregationInterval: interval,
      metrics,
      metadata: first.metadata,
      series: [...series].map(([group, rows]) => ({
        ...(args.groupBy === undefined ? {} : { [args.groupBy]: group }),
        data: rows,
      })),
    };
    if (out.json) return EXIT.ok;
    io.stdout(
      args.csv === true
        ? apiCheckCsv(series, metrics, args.groupBy)
        : apiCheckText(first, series, request, args.groupBy, io),
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

/** The rows as CSV: a timestamp, the group when grouped, and each metric. */
function apiCheckCsv(series: Map<string, Row[]>, metrics: MetricName[], groupBy: string | undefined): string {
  const lines = [csvLine(['timestamp', ...(groupBy === undefined ? [] : [groupBy]), ...metrics])];
  for (const [group, rows] of series) {
    for (const row of rows) {
      lines.push(
        csvLine([
          String(row.timestamp ?? ''),
          ...(groupBy === undefined ? [] : [group]),
          ...metrics.map((m) => row[m] as number | null),
        ]),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** For people: a heading, a chart per metric (a line per group) and the table of rows. */
function apiCheckText(
  first: ApiCheckAnalytics,
  series: Map<string, Row[]>,
  { checkId, metrics, interval }: ApiCheckRequest,
  groupBy: string | undefined,
  io: Io,
): string {
  const p = paint(io.color);
  const metadata = first.metadata;
  const out = [
    `${p.bold(escapeTerminal(first.name))} ${p.dim(`${escapeTerminal(first.checkType)} check ${checkId}, ${localTime(first.from)} → ${localTime(first.to)}, every ${interval} min`)}\n\n`,
  ];
  const width = Math.min(io.columns ?? 100, 120);
  for (const metric of metrics) {
    const unit = metadata[metric]?.unit;
    const chartSeries: ChartSeries[] = [...series].map(([group, rows]) => ({
      label: escapeTerminal(group),
      points: rows
        .filter((r) => typeof r.timestamp === 'string')
        .map((r) => ({
          time: Date.parse(String(r.timestamp)),
          value: typeof r[metric] === 'number' ? (r[metric] as number) : null,
        })),
    }));
    const chart = renderChart(escapeTerminal(metadata[metric]?.label ?? metric), chartSeries, {
      width,
      color: io.color,
      format: (v) => formatMetric(v, unit),
    });
    if (chart !== undefined) out.push(`${chart}\n`);
  }
  const rows = [...series].flatMap(([group, data]) => data.map((row) => ({ group, row })));
  out.push(
    renderTable(
      rows,
      [
        { header: 'TIME', value: (r) => localTime(r.row.timestamp as string | undefined) },
        ...(groupBy === undefined
          ? []
          : [
              {
                header: groupBy === 'runLocation' ? 'LOCATION' : 'STATUS',
                value: (r: { group: string }) => r.group,
              },
            ]),
        ...metrics.map((m) => ({
          header: (metadata[m]?.label ?? m).toUpperCase(),
          value: (r: { row: Row }) => formatMetric(r.row[m] as number | null, metadata[m]?.unit),
          align: 'right' as const,
        })),
      ],
      io,
      p,
    ),
  );
  return out.join('');
}

export const subcommands: Subcommand[] = [
  {
    command: 'summary [checkIds..]',
    describe: 'Availability and response times of many checks (all, or by id or tag) over a range',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('checkIds', { type: 'string', array: true, describe: 'Check ids (default: every check)' })
        .option('range', { choices: SUMMARY_QUICK_RANGES, describe: 'The window (default last24Hours)' })
        .option('tag', {
          type: 'string',
          array: true,
          describe: 'Without ids: the checks with this tag (repeat: any of them)',
        })
        .option('csv', { type: 'boolean', describe: 'CSV on stdout instead of the table' })
        .example('$0 analytics summary --tag prod --range last7Days', 'how production did this week'),
    run: summary,
  },
  {
    command: 'api-check <checkId>',
    describe: "One API check's metrics over time: a chart per metric above the table",
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('checkId', { type: 'string', describe: 'The API check id' })
        .option('metrics', {
          type: 'string',
          describe: `Comma list (default ${DEFAULT_METRICS.join(',')}): responseTime, wait, dns, tcp, firstByte, download (each also _avg _p50 _p95 _p99 …), availability, retries`,
        })
        .option('range', { choices: QUICK_RANGES, describe: 'The window (default last24Hours)' })
        .option('from', {
          type: 'string',
          describe: 'Start instead of --range: ISO date-time, unix seconds or an age (36h)',
        })
        .option('to', { type: 'string', describe: 'End with --from (default now)' })
        .option('interval', {
          type: 'number',
          describe: `Minutes per point, 1–43200 (default: the window in about ${POINTS} points)`,
        })
        .option('group-by', {
          choices: ['runLocation', 'statusCode'] as const,
          describe: 'One line per location or status code (slower for the service)',
        })
        .option('status', {
          type: 'string',
          describe: 'Only runs that were success, failure, or both (comma list)',
        })
        .option('csv', { type: 'boolean', describe: 'CSV on stdout instead of the charts and table' })
        .example(
          '$0 analytics api-check 8f9a… --metrics responseTime_p95 --group-by runLocation',
          'where it is slow',
        )
        .example(
          '$0 analytics api-check 8f9a… --from 2026-11-20T08:00Z --to 2026-11-20T12:00Z --interval 5',
          'an incident window',
        ),
    run: apiCheck,
  },
];
