import { addToWallClock, formatSpan, formatWallClock, instantOf, wallClock } from './time-zone.js';

/** When a maintenance window is on: its first occurrence, and how it repeats, in its own time zone. */
export interface WindowSchedule {
  /** The first occurrence, ms since the epoch. */
  startsAt: number;
  endsAt: number;
  /** The window's IANA zone; `UTC` when it names none. */
  timeZone: string;
  repeat?: {
    unit: 'DAY' | 'WEEK' | 'MONTH';
    /** Every `interval` units. */
    interval: number;
    /** No occurrence starts after this. */
    endsAt?: number;
  };
}

/** One time a window is on: [start, end), ms since the epoch. */
export interface Occurrence {
  start: number;
  end: number;
}

const DAY_MS = 86_400_000;
/** At most this many occurrences are counted in one call: a daily window over years stays cheap. */
const MAX_STEPS = 20_000;

function instant(value: unknown): number | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The schedule of a maintenance window payload (desired or live); undefined when its dates are not
 * dates (the project would not validate, or the account holds something unreadable).
 */
export function scheduleOf(window: Record<string, unknown>): WindowSchedule | undefined {
  const startsAt = instant(window.startsAt);
  const endsAt = instant(window.endsAt);
  if (startsAt === undefined || endsAt === undefined || endsAt <= startsAt) return undefined;
  const timeZone = typeof window.timezone === 'string' && window.timezone !== '' ? window.timezone : 'UTC';
  const unit = window.repeatUnit;
  if (unit !== 'DAY' && unit !== 'WEEK' && unit !== 'MONTH') return { startsAt, endsAt, timeZone };
  const interval =
    typeof window.repeatInterval === 'number' && window.repeatInterval >= 1
      ? Math.floor(window.repeatInterval)
      : 1;
  const repeatEndsAt = instant(window.repeatEndsAt);
  return {
    startsAt,
    endsAt,
    timeZone,
    repeat: { unit, interval, ...(repeatEndsAt === undefined ? {} : { endsAt: repeatEndsAt }) },
  };
}

/**
 * The `k`th occurrence (0 is the first): its start moved on the wall clock of the window's zone,
 * its end as long after it as the first one's, as RFC 5545 repeats an event with a DTEND (§3.8.5.3).
 * A start the clocks skip (02:30 when they jump from 02:00 to 03:00) is read with the offset before
 * the change, an hour later (§3.3.5); a start shown twice (the change back) is the first of the two.
 * Moving the end on the wall clock as well would make a 02:30–03:00 window end before it starts on
 * the night of the jump, and last 90 minutes on the night the clocks go back.
 */
function occurrence(s: WindowSchedule, k: number): Occurrence {
  if (s.repeat === undefined || k === 0) return { start: s.startsAt, end: s.endsAt };
  const unit = s.repeat.unit === 'MONTH' ? 'MONTH' : 'DAY';
  const count = k * s.repeat.interval * (s.repeat.unit === 'WEEK' ? 7 : 1);
  const start = instantOf(addToWallClock(wallClock(s.startsAt, s.timeZone), unit, count), s.timeZone);
  return { start, end: start + (s.endsAt - s.startsAt) };
}

/** The longest a repeat step can be, with room for a daylight-saving hour: to skip steps safely. */
function longestStep(s: WindowSchedule): number {
  const days = s.repeat?.unit === 'MONTH' ? 31 : s.repeat?.unit === 'WEEK' ? 7 : 1;
  return (days * DAY_MS + 3_600_000) * (s.repeat?.interval ?? 1);
}

/** The occurrences that overlap [from, until), in order. */
export function occurrencesBetween(s: WindowSchedule, from: number, until: number): Occurrence[] {
  const out: Occurrence[] = [];
  // Steps that end before `from` need not be counted one by one.
  const skip = s.repeat === undefined ? 0 : Math.max(0, Math.floor((from - s.endsAt) / longestStep(s)) - 1);
  for (let k = skip; k < skip + MAX_STEPS; k++) {
    const o = occurrence(s, k);
    if (o.start >= until) break;
    if (s.repeat?.endsAt !== undefined && o.start > s.repeat.endsAt) break;
    if (o.end > from) out.push(o);
    if (s.repeat === undefined) break;
  }
  return out;
}

/** The occurrence on at `now` (if any) and the ones after it: at most `count`. */
export function nextOccurrences(s: WindowSchedule, now: number, count: number): Occurrence[] {
  const out: Occurrence[] = [];
  const skip = s.repeat === undefined ? 0 : Math.max(0, Math.floor((now - s.endsAt) / longestStep(s)) - 1);
  for (let k = skip; k < skip + MAX_STEPS && out.length < count; k++) {
    const o = occurrence(s, k);
    if (s.repeat?.endsAt !== undefined && o.start > s.repeat.endsAt) break;
    if (o.end > now) out.push(o);
    if (s.repeat === undefined) break;
  }
  return out;
}

const UNIT_NAMES = { DAY: ['day', 'days'], WEEK: ['week', 'weeks'], MONTH: ['month', 'months'] } as const;

/**
 * The schedule in one line, on the wall clock of the window's zone:
 * `2026-12-01 02:00–04:00 Europe/Berlin, every 2 weeks until 2027-03-01 00:00`.
 */
export function describeSchedule(s: WindowSchedule): string {
  const first = formatSpan(s.startsAt, s.endsAt, s.timeZone);
  if (s.repeat === undefined) return first;
  const [one, many] = UNIT_NAMES[s.repeat.unit];
  const every = s.repeat.interval === 1 ? `every ${one}` : `every ${s.repeat.interval} ${many}`;
  const until =
    s.repeat.endsAt === undefined ? ', no end' : ` until ${formatWallClock(s.repeat.endsAt, s.timeZone)}`;
  return `${first}, ${every}${until}`;
}
