import { UsageError } from './options.js';

/**
 * A point in time given on the command line: unix seconds, an ISO 8601 date or date-time, or an
 * age like `90m`, `36h`, `7d` (that long ago). Returns epoch milliseconds.
 */
export function parseTime(option: string, value: unknown, now: number): number {
  const text = String(value ?? '').trim();
  if (/^\d{9,11}$/.test(text)) return Number(text) * 1000;
  const age = /^(\d+(?:\.\d+)?)\s*(m|min|h|d)$/.exec(text);
  if (age !== null) {
    const unit = age[2] === 'd' ? 86_400_000 : age[2] === 'h' ? 3_600_000 : 60_000;
    return now - Number(age[1]) * unit;
  }
  const ms = Date.parse(text);
  if (text === '' || Number.isNaN(ms)) {
    throw new UsageError(
      `--${option} "${text}" is not a time`,
      `give unix seconds, an ISO date-time (2026-11-20T08:00:00Z), or an age (90m, 36h, 7d ago: --${option} 36h)`,
    );
  }
  return ms;
}

/** `--from`/`--to` as epoch milliseconds: both or neither, from before to. */
export function parseWindow(
  args: { from?: string | undefined; to?: string | undefined },
  now: number,
): { from: number; to: number } | undefined {
  if (args.from === undefined && args.to === undefined) return undefined;
  const from = args.from === undefined ? undefined : parseTime('from', args.from, now);
  const to = args.to === undefined ? now : parseTime('to', args.to, now);
  if (from === undefined) throw new UsageError('--to needs --from', 'e.g. --from 24h (to defaults to now)');
  if (from >= to) {
    throw new UsageError(
      `--from (${new Date(from).toISOString()}) must be before --to (${new Date(to).toISOString()})`,
      'swap them, or leave --to out for now',
    );
  }
  return { from, to };
}

/** A metric value for people, in its unit. */
export function formatMetric(value: number | null | undefined, unit: string | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  switch (unit) {
    case 'milliseconds':
      return `${Math.round(value)} ms`;
    case 'percentage':
      return `${value.toFixed(2)} %`;
    case 'count':
      return String(Math.round(value));
    default: {
      const size = Math.abs(value);
      return size >= 100 || Number.isInteger(value)
        ? String(Math.round(value))
        : value.toFixed(size >= 10 ? 1 : 2);
    }
  }
}

/** Values as one CSV line: quoted when they hold a comma, a quote or a line break. */
export function csvLine(values: (string | number | null | undefined)[]): string {
  return values
    .map((v) => {
      const s = v === null || v === undefined ? '' : String(v);
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',');
}
