import { stripVTControlCharacters } from 'node:util';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Io, Paint } from './io.js';

/**
 * A value the caller has painted: tables and fields print it as it is, so what it holds from the
 * account must already have gone through `escapeTerminal`.
 */
export interface Painted {
  painted: string;
}

export const painted = (text: string): Painted => ({ painted: text });

/** Account text for a table or fields: on one line, control characters shown as escapes. */
function shown(value: string | Painted): string {
  return typeof value === 'string' ? escapeTerminal(value.replace(/\s*\n\s*/g, ' ')) : value.painted;
}

/**
 * One column of a table: its header, how a row shows in it (text from the account is escaped
 * here), and whether it may be cut to fit.
 */
export interface Column<T> {
  header: string;
  value: (row: T) => string | Painted;
  /** Cut (with …) when the table is wider than the terminal; ids and numbers are never cut. */
  shrink?: boolean;
  align?: 'left' | 'right';
}

const MIN_SHRUNK = 8;

/** Characters as the terminal counts them: no colour codes. */
const visible = (s: string) => stripVTControlCharacters(s).length;

function cut(s: string, width: number): string {
  if (visible(s) <= width) return s;
  return `${s.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * Rows as an aligned table under a header. On a terminal it fits `io.columns`: shrinkable
 * columns give up width, widest first, down to 8 characters; piped output is never cut.
 */
export function renderTable<T>(
  rows: readonly T[],
  columns: Column<T>[],
  io: Pick<Io, 'columns'>,
  p: Paint,
): string {
  const cells = rows.map((row) => columns.map((c) => shown(c.value(row))));
  const headers = columns.map((c) => shown(c.header));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => visible(r[i] ?? ''))));
  const gap = 2;
  const limit = io.columns;
  if (limit !== undefined) {
    let total = widths.reduce((a, b) => a + b, 0) + gap * (columns.length - 1);
    while (total > limit) {
      let widest = -1;
      columns.forEach((c, i) => {
        if (
          c.shrink === true &&
          (widths[i] ?? 0) > MIN_SHRUNK &&
          (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0))
        )
          widest = i;
      });
      if (widest < 0) break;
      const w = widths[widest] ?? 0;
      const next = Math.max(MIN_SHRUNK, w - (total - limit));
      total -= w - next;
      widths[widest] = next;
    }
  }
  const line = (values: string[], style: (s: string) => string = (s) => s) =>
    values
      .map((v, i) => {
        const w = widths[i] ?? 0;
        const text = cut(v, w);
        const pad = ' '.repeat(Math.max(0, w - visible(text)));
        const last = i === values.length - 1;
        return columns[i]?.align === 'right' ? `${pad}${text}` : last ? text : `${text}${pad}`;
      })
      .join(' '.repeat(gap))
      .trimEnd()
      .replace(/^(.*)$/, (s) => style(s));
  return `${[line(headers, p.dim), ...cells.map((r) => line(r))].join('\n')}\n`;
}

/**
 * `key: value` lines, the keys aligned; entries with an undefined value are left out. Values are
 * account text, escaped here (line breaks kept), unless `painted`.
 */
export function renderFields(fields: [string, string | Painted | undefined][], p: Paint): string {
  const present = fields.filter((f): f is [string, string | Painted] => f[1] !== undefined);
  const width = Math.max(0, ...present.map(([k]) => k.length));
  // A multi-line value (a raw error message) goes on under its first line.
  const value = (v: string | Painted) =>
    typeof v === 'string'
      ? escapeTerminal(v.trimEnd(), { multiline: true }).replace(/\n/g, `\n${' '.repeat(width + 2)}`)
      : v.painted;
  return `${present.map(([k, v]) => `${p.dim(`${k}:`.padEnd(width + 1))} ${value(v)}`).join('\n')}\n`;
}

/**
 * A time for people: in the local zone (`TZ`), to the second, with the zone's name. `--json`
 * keeps the service's ISO form instead.
 */
export function localTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  // A date without a time (the service's `date` fields) has no zone to convert to.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

/** Milliseconds for people: `850 ms`, `12.4 s`, `3 min 5 s`. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
