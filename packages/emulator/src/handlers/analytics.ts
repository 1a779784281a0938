import type { MetricName } from '@monitor/api';
import { type Answer, type Call, mustGet, ok, table } from '../context.js';
import { notFound } from '../problem.js';
import { hashString, seededRandom } from '../random.js';
import type { Row } from '../store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function startOfWeek(ms: number): number {
  const d = new Date(ms);
  const day = (d.getUTCDay() + 6) % 7; // Monday = 0
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - day * DAY;
}
function startOfMonth(ms: number, monthsBack = 0): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1);
}

/** The window of a quick range, relative to `now`. */
export function quickRangeWindow(range: string, now: number): { from: number; to: number } {
  switch (range) {
    case 'last7Days':
      return { from: now - 7 * DAY, to: now };
    case 'last30Days':
      return { from: now - 30 * DAY, to: now };
    case 'thisWeek':
      return { from: startOfWeek(now), to: now };
    case 'thisMonth':
      return { from: startOfMonth(now), to: now };
    case 'lastWeek':
      return { from: startOfWeek(now) - 7 * DAY, to: startOfWeek(now) };
    case 'lastMonth':
      return { from: startOfMonth(now, 1), to: startOfMonth(now) };
    default:
      return { from: now - DAY, to: now };
  }
}

const SCALE: Record<string, number> = {
  avg: 1,
  median: 0.95,
  p50: 0.95,
  p90: 1.4,
  p95: 1.6,
  p99: 2.1,
  min: 0.5,
  max: 2.5,
  stddev: 0.3,
};
const SHARE: Record<string, number> = {
  responseTime: 1,
  wait: 0.05,
  dns: 0.08,
  tcp: 0.1,
  firstByte: 0.6,
  download: 0.17,
};

/** One metric value, the same for the same check, window, group and time. */
function metricValue(metric: string, seed: string, status: string[] | undefined): number {
  const rnd = seededRandom(hashString(`${seed}:${metric}`));
  if (metric === 'availability') {
    if (status !== undefined && status.length === 1) return status[0] === 'success' ? 100 : 0;
    return Math.round((97 + rnd() * 3) * 100) / 100;
  }
  if (metric === 'retries') return Math.floor(rnd() * 3);
  const [base = metric, agg = 'avg'] = metric.split('_');
  const failureFactor = status !== undefined && status.length === 1 && status[0] === 'failure' ? 3 : 1;
  const mean = (80 + seededRandom(hashString(seed))() * 320) * (SHARE[base] ?? 1) * failureFactor;
  if (agg === 'sum') return Math.round(mean * 60);
  return Math.round(mean * (SCALE[agg] ?? 1) * 10) / 10;
}

function metadataFor(metric: string): Row {
  if (metric === 'availability') return { label: 'Availability', unit: 'percentage' };
  if (metric === 'retries') return { label: 'Retries', unit: 'count' };
  const [base = metric, agg] = metric.split('_');
  const label = `${base.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase())}${agg === undefined ? '' : ` ${agg}`}`;
  return { label, unit: 'milliseconds', ...(agg === undefined ? {} : { aggregation: agg }) };
}

export const analyticsHandlers = {
  'analytics.apiCheck': (call: Call): Answer => {
    const check = mustGet(table(call, 'checks'), call.params.id, 'Check');
    if (check.checkType !== 'API') throw notFound(`API check ${call.params.id}`);
    const q = call.query as {
      metrics: MetricName[];
      from?: number;
      to?: number;
      quickRange?: string;
      aggregationInterval?: number;
      filterByStatus?: string[];
      groupBy?: 'runLocation' | 'statusCode';
      limit?: number;
      page?: number;
    };
    const range = quickRangeWindow(q.quickRange ?? 'last24Hours', call.emu.clock.now());
    const from = q.from === undefined ? range.from : q.from * 1000;
    const to = q.to === undefined ? range.to : q.to * 1000;
    const limit = q.limit ?? 10;
    const page = q.page ?? 1;
    const groups: Row[] =
      q.groupBy === 'runLocation'
        ? (check.locations as string[]).map((runLocation) => ({ runLocation }))
        : q.groupBy === 'statusCode'
          ? (q.filterByStatus?.length === 1 && q.filterByStatus[0] === 'failure'
              ? [500, 503]
              : q.filterByStatus?.length === 1
                ? [200]
                : [200, 500]
            ).map((statusCode) => ({ statusCode }))
          : [{}];
    const series = groups.map((group) => {
      const groupKey = JSON.stringify(group);
      const rowFor = (seed: string, timestamp?: number): Row => {
        const row: Row = timestamp === undefined ? {} : { timestamp: new Date(timestamp).toISOString() };
        for (const m of q.metrics) row[m] = metricValue(m, seed, q.filterByStatus);
        return row;
      };
      if (q.aggregationInterval === undefined) {
        return { ...group, data: rowFor(`${String(check.id)}:${from}:${to}:${groupKey}`) };
      }
      const step = q.aggregationInterval * 60_000;
      const rows: Row[] = [];
      for (let t = from; t < to; t += step) rows.push(rowFor(`${String(check.id)}:${t}:${groupKey}`, t));
      return { ...group, data: rows.slice((page - 1) * limit, page * limit) };
    });
    return ok({
      checkId: check.id,
      name: check.name,
      checkType: check.checkType,
      activated: check.activated,
      muted: check.muted,
      frequency: check.frequency,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      tags: check.tags,
      series,
      pagination: { page, limit },
      metadata: Object.fromEntries(q.metrics.map((m) => [m, metadataFor(m)])),
    });
  },

  'analytics.summary': (call: Call): Answer => {
    const checks = table(call, 'checks');
    const range = quickRangeWindow(call.query.quickRange ?? 'last24Hours', call.emu.clock.now());
    const out: Row[] = [];
    for (const id of call.body.checkIds as string[]) {
      const check = checks[id];
      if (check === undefined) continue;
      const seed = `${id}:${range.from}:${range.to}`;
      const type = check.checkType as string;
      const row: Row = {
        checkId: id,
        checkType: type,
        availability: metricValue('availability', seed, undefined),
      };
      if (type === 'ICMP') {
        for (const agg of ['avg', 'p50', 'p95', 'p99'])
          row[`latency_${agg}`] = metricValue(`responseTime_${agg}`, seed, undefined);
        for (const agg of ['avg', 'p95', 'p99'])
          row[`packetLoss_${agg}`] = Math.round(seededRandom(hashString(`${seed}:${agg}`))() * 20) / 10;
      } else if (type !== 'HEARTBEAT') {
        for (const agg of ['avg', 'p50', 'p95', 'p99'])
          row[`responseTime_${agg}`] = metricValue(`responseTime_${agg}`, seed, undefined);
      }
      out.push(row);
    }
    return ok(out);
  },
};
