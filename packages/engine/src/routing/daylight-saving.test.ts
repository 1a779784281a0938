import { createSession, MaintenanceWindow, synth } from '@monitor/constructs';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { maintenanceCalendar } from './ics.js';
import { maintenanceSchedule } from './maintenance.js';
import { worldFromCode } from './world.js';

/**
 * Repeating windows that fall on a daylight-saving change, for every change of a few zones in
 * 2026–2028: Amsterdam and New York (an hour, either side of UTC), Lord Howe (30 minutes) and
 * Chatham (an hour, at 02:45 local, UTC+12:45). The changes are found, and what is expected is
 * read, with Intl alone (not with time-zone.ts), and the calendar file is read back with ical.js.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const ZONES = ['Europe/Amsterdam', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham'];
/** The windows last 30 minutes: all of Lord Howe's gap, half of the others'. */
const LENGTH = 30 * MINUTE;

const formats = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `instant` in `zone`, as Intl reads it, written as if it were UTC (ms). */
function wall(instant: number, zone: string): number {
  let f = formats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(instant))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day, p.hour, p.minute);
}
/** Minutes `zone` is ahead of UTC at `instant`. */
const offset = (instant: number, zone: string) => (wall(instant, zone) - instant) / MINUTE;

interface Transition {
  zone: string;
  /** The first minute of the new offset. */
  at: number;
  before: number;
  after: number;
}

/** Every change of offset of `zone` in [from, until): found every 6 hours, then to the minute. */
function transitions(zone: string, from: number, until: number): Transition[] {
  const out: Transition[] = [];
  const step = 6 * 3_600_000;
  for (let t = from; t < until; t += step) {
    const before = offset(t, zone);
    const after = offset(t + step, zone);
    if (before === after) continue;
    let [lo, hi] = [t, t + step];
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / MINUTE / 2) * MINUTE;
      if (offset(mid, zone) === before) lo = mid;
      else hi = mid;
    }
    out.push({ zone, at: hi, before, after });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ALL = ZONES.flatMap((zone) => transitions(zone, Date.UTC(2026, 0, 1), Date.UTC(2029, 0, 1)));

/**
 * A window repeating by `unit` whose occurrence on the day of the change starts in the middle of
 * the wall-clock times the change skips or shows twice; its first occurrence a step before, at
 * the same wall-clock time.
 */
function windowAcross(t: Transition, unit: 'DAY' | 'WEEK') {
  // Skipped (spring): [at + before, at + after) on the wall; shown twice (autumn): [at + after, at + before).
  const wallStart = t.at + ((t.before + t.after) / 2) * MINUTE;
  const firstWall = wallStart - (unit === 'WEEK' ? 7 : 1) * DAY;
  const startsAt = firstWall - t.before * MINUTE;
  // Two occurrences: the one a step before the change, and the one on its day.
  return { wallStart, startsAt, endsAt: startsAt + LENGTH, repeatEndsAt: t.at + 6 * 3_600_000 };
}

/**
 * Where RFC 5545 puts a wall-clock start: a time shown twice is the first of the two instants
 * that show it; a skipped one is read with the offset before the change (§3.3.5).
 */
function expectedStart(t: Transition, wallStart: number): number {
  const showing = [wallStart - t.before * MINUTE, wallStart - t.after * MINUTE].filter(
    (i) => wall(i, t.zone) === wallStart,
  );
  if (t.after > t.before) expect(showing).toEqual([]);
  else expect(showing).toHaveLength(2);
  return showing.length > 0 ? Math.min(...showing) : wallStart - t.before * MINUTE;
}

beforeEach(() => {
  createSession();
});

describe('a repeating window on the day of a daylight-saving change', () => {
  it('finds the changes of each zone in 2026–2028, Lord Howe’s of 30 minutes too', () => {
    expect(ZONES.map((z) => ALL.filter((t) => t.zone === z).length)).toEqual([6, 6, 6, 6]);
    const lordHowe = ALL.filter((t) => t.zone === 'Australia/Lord_Howe');
    expect(lordHowe.map((t) => Math.abs(t.after - t.before))).toEqual([30, 30, 30, 30, 30, 30]);
    // Chatham moves from 02:45 to 03:45 on the last Sunday of September 2026.
    expect(
      ALL.find((t) => t.zone === 'Pacific/Chatham' && t.after > t.before && t.at > Date.UTC(2026, 6)),
    ).toMatchObject({
      at: Date.UTC(2026, 8, 26, 14, 0),
      before: 765,
      after: 825,
    });
  });

  it.each(['DAY', 'WEEK'] as const)(
    'starts as RFC 5545 says and keeps its length, every %s, in the schedule and the calendar file',
    (unit) => {
      const cases = ALL.map((t, i) => {
        const w = windowAcross(t, unit);
        new MaintenanceWindow(`w${i}`, {
          name: `w${i}`,
          startsAt: iso(w.startsAt),
          endsAt: iso(w.endsAt),
          repeatUnit: unit,
          repeatEndsAt: iso(w.repeatEndsAt),
          timezone: t.zone,
        });
        return { t, w, id: `MaintenanceWindow:w${i}` };
      });
      const { resources } = synth();
      const from = new Date(Date.UTC(2025, 11, 20));
      const schedule = maintenanceSchedule(worldFromCode(resources), { from, days: 1120, timeZone: 'UTC' });
      expect(schedule.windows.map((w) => w.occurrences.length)).toEqual(ALL.map(() => 2));
      const calendar = new ICAL.Component(
        ICAL.parse(maintenanceCalendar(schedule, { now: from, name: 'transitions' })),
      );
      const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));

      const wrong: string[] = [];
      for (const { t, w, id } of cases) {
        const start = expectedStart(t, w.wallStart);
        const expected = `${iso(start)}/${iso(start + LENGTH)}`;
        // The second occurrence of each window is the one on the day of the change.
        const o = schedule.windows.find((x) => x.window === id)?.occurrences[1];
        const event = events
          .filter((e) => e.uid.startsWith(`${id}/`))
          .map((e) => `${iso(e.startDate.toJSDate().getTime())}/${iso(e.endDate.toJSDate().getTime())}`)
          .sort()[1];
        const got = o && `${o.start}/${o.end}`;
        // And shown on the wall clock Intl reads then.
        const shown = iso(wall(start, t.zone)).slice(0, 16);
        if (got !== expected || event !== expected || o?.window.start.slice(0, 16) !== shown)
          wrong.push(
            `${t.zone} ${iso(t.at)}: expected ${expected} at ${shown}, schedule ${got} at ${o?.window.start}, calendar ${event}`,
          );
      }
      expect(wrong).toEqual([]);
    },
  );

  it('shows a skipped start later by the change, a start shown twice as the first, never an end before the start', () => {
    const amsterdam = ALL.filter((t) => t.zone === 'Europe/Amsterdam');
    for (const [i, t] of amsterdam.entries()) {
      const w = windowAcross(t, 'WEEK');
      new MaintenanceWindow(`a${i}`, {
        name: `a${i}`,
        startsAt: iso(w.startsAt),
        endsAt: iso(w.endsAt),
        repeatUnit: 'WEEK',
        repeatEndsAt: iso(w.repeatEndsAt),
        timezone: t.zone,
      });
    }
    const { resources } = synth();
    const schedule = maintenanceSchedule(worldFromCode(resources), {
      from: new Date(Date.UTC(2026, 0, 1)),
      days: 1100,
      timeZone: 'Europe/Amsterdam',
    });
    const onTheDay = schedule.windows.map((w) => w.occurrences[1]);
    expect(onTheDay.map((o) => o?.text)).toEqual([
      '2026-03-29 03:30–04:00 Europe/Amsterdam',
      '2026-10-25 02:30+02:00–02:00+01:00 Europe/Amsterdam',
      '2027-03-28 03:30–04:00 Europe/Amsterdam',
      '2027-10-31 02:30+02:00–02:00+01:00 Europe/Amsterdam',
      '2028-03-26 03:30–04:00 Europe/Amsterdam',
      '2028-10-29 02:30+02:00–02:00+01:00 Europe/Amsterdam',
    ]);
    // In autumn: from the first 02:30 (summer time) for half an hour, to the second 02:00 (winter time).
    expect(onTheDay[1]?.window).toMatchObject({
      start: '2026-10-25T02:30:00+02:00',
      end: '2026-10-25T02:00:00+01:00',
    });
  });
});
