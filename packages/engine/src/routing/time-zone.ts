/**
 * Wall-clock time in an IANA time zone, with the runtime's own zone data (Intl): no library, no
 * clock. A repeating maintenance window keeps its wall-clock time across daylight-saving changes,
 * so occurrences are counted on the wall clock of the window's zone and turned back into instants.
 */

/** A time as a clock on the wall shows it: month 1–12. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Wall clocks already read, by zone: a plan's windows ask for the same few instants again and again. */
const readings = new Map<string, Map<number, WallClock>>();
const KEPT_READINGS = 10_000;

/** The wall clock of `instant` (ms since the epoch) in `timeZone`; shared, not to be changed. */
export function wallClock(instant: number, timeZone: string): WallClock {
  let zone = readings.get(timeZone);
  if (zone === undefined) {
    zone = new Map();
    readings.set(timeZone, zone);
  }
  let w = zone.get(instant);
  if (w === undefined) {
    if (zone.size >= KEPT_READINGS) zone.clear();
    w = readWallClock(instant, timeZone);
    zone.set(instant, w);
  }
  return w;
}

/** `11/14/2023, 23:13:20`: how `formatter` writes a time (en-US, 24 hours). */
const US_NUMERIC = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The wall clock from the zone data: parsed from `format`, a third of the time of `formatToParts`,
 * which is still asked whenever the text is not of the usual shape (a year before 1000, another ICU).
 */
function readWallClock(instant: number, timeZone: string): WallClock {
  const millisecond = ((instant % 1000) + 1000) % 1000;
  const date = new Date(instant);
  const f = formatter(timeZone);
  const m = US_NUMERIC.exec(f.format(date));
  if (m !== null) {
    return {
      year: Number(m[3]),
      month: Number(m[1]),
      day: Number(m[2]),
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6]),
      millisecond,
    };
  }
  const parts: Record<string, number> = {};
  for (const part of f.formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond,
  };
}

/** The wall clock read as if it were UTC: ms since the epoch. Days and months past their end roll over. */
function asUtc(w: WallClock): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

/** How far `timeZone` is ahead of UTC at `instant`, in ms. */
export function offsetAt(instant: number, timeZone: string): number {
  return asUtc(wallClock(instant, timeZone)) - instant;
}

/**
 * The instant a wall clock in `timeZone` shows `w`. A time skipped by a daylight-saving change
 * (02:30 when clocks jump from 02:00 to 03:00) is read with the offset before the change, so it
 * lands an hour later; a time shown twice is the first of the two.
 */
export function instantOf(w: WallClock, timeZone: string): number {
  const local = asUtc(w);
  // The zone's offsets a day either side: a change of offset in between makes two candidates. Half
  // a day is not enough: offsets reach +14:00, and in Chatham (+12:45 in winter) or Auckland (+12)
  // 12 hours before 02:30 read as UTC is already after the change at 02:45 or 02:00.
  const before = local - offsetAt(local - 86_400_000, timeZone);
  const after = local - offsetAt(local + 86_400_000, timeZone);
  const shows = (t: number) => asUtc(wallClock(t, timeZone)) === local;
  const [early, late] = before <= after ? [before, after] : [after, before];
  if (shows(early)) return early;
  if (shows(late)) return late;
  return before;
}

/** `w` moved by whole days or months on the wall clock; a month's day past its end is its last day. */
export function addToWallClock(w: WallClock, unit: 'DAY' | 'MONTH', count: number): WallClock {
  if (unit === 'DAY') {
    const moved = new Date(Date.UTC(w.year, w.month - 1, w.day + count));
    return { ...w, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
  }
  const months = w.year * 12 + (w.month - 1) + count;
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { ...w, year, month, day: Math.min(w.day, lastDay) };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `2026-12-01 02:00` on the wall clock of `timeZone`. */
export function formatWallClock(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}

/** `+02:00`, `-03:30`: an offset from UTC in ms, as ISO 8601 writes it. */
function offsetText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * `2026-12-01 02:00–04:00 Europe/Berlin`; the end's date only when it is another day. When the
 * zone's offset changes in between, each time carries its offset: the night the clocks go back,
 * half an hour from the first 02:30 ends at the second 02:00 (`02:30+02:00–02:00+01:00`), which
 * would otherwise read as an end before the start.
 */
export function formatSpan(start: number, end: number, timeZone: string): string {
  let from = formatWallClock(start, timeZone);
  let to = formatWallClock(end, timeZone);
  const sameDay = from.slice(0, 10) === to.slice(0, 10);
  const [before, after] = [offsetAt(start, timeZone), offsetAt(end, timeZone)];
  if (before !== after) {
    from += offsetText(before);
    to += offsetText(after);
  }
  return `${from}–${sameDay ? to.slice(11) : to} ${timeZone}`;
}

/** `2026-12-01T02:00:00+01:00`: the instant as ISO 8601 with the zone's offset then. */
export function isoInZone(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}${offsetText(asUtc(w) - instant)}`;
}

/** The time zone the user's clock is in: `TZ`, else the system's. */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
