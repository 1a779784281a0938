import { describe, expect, it } from 'vitest';
import { describeSchedule, nextOccurrences, occurrencesBetween, scheduleOf } from './schedule.js';
import { formatWallClock, instantOf, isoInZone } from './time-zone.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const spans = (list: { start: number; end: number }[]) => list.map((o) => `${iso(o.start)}/${iso(o.end)}`);

function schedule(window: Record<string, unknown>) {
  const s = scheduleOf({ repeatUnit: null, ...window });
  if (s === undefined) throw new Error('unreadable');
  return s;
}

describe('scheduleOf', () => {
  it.each([
    ['no dates', {}],
    ['an unparseable start', { startsAt: 'soon', endsAt: '2026-01-01T00:00:00Z' }],
    ['an end before the start', { startsAt: '2026-01-02T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' }],
  ])('reads %s as no schedule', (_, window) => {
    expect(scheduleOf(window)).toBeUndefined();
  });

  it('reads a missing zone as UTC and a missing interval as 1', () => {
    expect(
      scheduleOf({ startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T01:00:00Z', repeatUnit: 'DAY' }),
    ).toEqual({
      startsAt: at('2026-01-01T00:00:00Z'),
      endsAt: at('2026-01-01T01:00:00Z'),
      timeZone: 'UTC',
      repeat: { unit: 'DAY', interval: 1 },
    });
  });
});

describe('occurrences', () => {
  const oneOff = schedule({ startsAt: '2026-12-01T02:00:00Z', endsAt: '2026-12-01T04:00:00Z' });

  it.each([
    ['before it', '2026-11-01T00:00:00Z', ['2026-12-01T02:00:00.000Z/2026-12-01T04:00:00.000Z']],
    ['while it is on', '2026-12-01T03:00:00Z', ['2026-12-01T02:00:00.000Z/2026-12-01T04:00:00.000Z']],
    ['after it', '2026-12-01T04:00:00Z', []],
  ])('a one-off window, %s', (_, now, expected) => {
    expect(spans(nextOccurrences(oneOff, at(now), 3))).toEqual(expected);
  });

  it('keeps a daily window at its wall-clock time across the change to summer time', () => {
    // 01:00–02:00 in Berlin: UTC+1 until 2026-03-29 02:00, UTC+2 after.
    const daily = schedule({
      startsAt: '2026-03-27T00:00:00Z',
      endsAt: '2026-03-27T01:00:00Z',
      timezone: 'Europe/Berlin',
      repeatUnit: 'DAY',
    });
    const next = nextOccurrences(daily, at('2026-03-27T00:00:00Z'), 4);
    expect(spans(next)).toEqual([
      '2026-03-27T00:00:00.000Z/2026-03-27T01:00:00.000Z',
      '2026-03-28T00:00:00.000Z/2026-03-28T01:00:00.000Z',
      // Its end, 02:00 on the 29th, does not exist in Berlin: the clock jumps to 03:00 (01:00 UTC).
      '2026-03-29T00:00:00.000Z/2026-03-29T01:00:00.000Z',
      '2026-03-29T23:00:00.000Z/2026-03-30T00:00:00.000Z',
    ]);
    expect(next.map((o) => formatWallClock(o.start, 'Europe/Berlin'))).toEqual([
      '2026-03-27 01:00',
      '2026-03-28 01:00',
      '2026-03-29 01:00',
      '2026-03-30 01:00',
    ]);
  });

  it('repeats every 2 weeks until repeatEndsAt, and no further', () => {
    const fortnightly = schedule({
      startsAt: '2026-01-05T22:00:00Z',
      endsAt: '2026-01-05T23:30:00Z',
      repeatUnit: 'WEEK',
      repeatInterval: 2,
      repeatEndsAt: '2026-02-16T22:00:00Z',
    });
    expect(
      spans(occurrencesBetween(fortnightly, at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'))),
    ).toEqual([
      '2026-01-05T22:00:00.000Z/2026-01-05T23:30:00.000Z',
      '2026-01-19T22:00:00.000Z/2026-01-19T23:30:00.000Z',
      '2026-02-02T22:00:00.000Z/2026-02-02T23:30:00.000Z',
      '2026-02-16T22:00:00.000Z/2026-02-16T23:30:00.000Z',
    ]);
  });

  it('moves a monthly window on the 31st to the last day of shorter months', () => {
    const monthly = schedule({
      startsAt: '2026-01-31T10:00:00Z',
      endsAt: '2026-01-31T11:00:00Z',
      repeatUnit: 'MONTH',
    });
    expect(nextOccurrences(monthly, at('2026-01-01T00:00:00Z'), 4).map((o) => iso(o.start))).toEqual([
      '2026-01-31T10:00:00.000Z',
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
    ]);
  });

  it('finds the occurrences of a daily window that started years ago without counting every day', () => {
    const daily = schedule({
      startsAt: '2019-06-01T03:00:00Z',
      endsAt: '2019-06-01T03:30:00Z',
      timezone: 'America/New_York',
      repeatUnit: 'DAY',
    });
    const found = occurrencesBetween(daily, at('2026-07-01T00:00:00Z'), at('2026-07-04T00:00:00Z'));
    // 23:00 in New York (EDT, UTC-4) every day.
    expect(found.map((o) => isoInZone(o.start, 'America/New_York'))).toEqual([
      '2026-06-30T23:00:00-04:00',
      '2026-07-01T23:00:00-04:00',
      '2026-07-02T23:00:00-04:00',
    ]);
  });

  it('counts an occurrence that is on at the start of the period', () => {
    const daily = schedule({
      startsAt: '2026-01-01T23:00:00Z',
      endsAt: '2026-01-02T01:00:00Z',
      repeatUnit: 'DAY',
    });
    expect(spans(occurrencesBetween(daily, at('2026-01-03T00:00:00Z'), at('2026-01-03T12:00:00Z')))).toEqual([
      '2026-01-02T23:00:00.000Z/2026-01-03T01:00:00.000Z',
    ]);
  });
});

describe('describeSchedule', () => {
  it.each([
    [
      { startsAt: '2026-12-01T01:00:00Z', endsAt: '2026-12-01T03:00:00Z', timezone: 'Europe/Berlin' },
      '2026-12-01 02:00–04:00 Europe/Berlin',
    ],
    [
      {
        startsAt: '2026-12-01T22:00:00Z',
        endsAt: '2026-12-02T02:00:00Z',
        repeatUnit: 'WEEK',
        repeatInterval: 2,
      },
      '2026-12-01 22:00–2026-12-02 02:00 UTC, every 2 weeks, no end',
    ],
    [
      {
        startsAt: '2026-12-01T00:00:00Z',
        endsAt: '2026-12-01T01:00:00Z',
        repeatUnit: 'DAY',
        repeatEndsAt: '2027-01-01T00:00:00Z',
      },
      '2026-12-01 00:00–01:00 UTC, every day until 2027-01-01 00:00',
    ],
  ])('describes %j', (window, expected) => {
    expect(describeSchedule(schedule(window))).toBe(expected);
  });
});

describe('instantOf', () => {
  it('reads a wall-clock time skipped by the change to summer time an hour later', () => {
    const t = instantOf(
      { year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0, millisecond: 0 },
      'Europe/Berlin',
    );
    expect(formatWallClock(t, 'Europe/Berlin')).toBe('2026-03-29 03:30');
  });

  it('reads a wall-clock time shown twice (the change back) as the first of the two', () => {
    const t = instantOf(
      { year: 2026, month: 10, day: 25, hour: 2, minute: 30, second: 0, millisecond: 0 },
      'Europe/Berlin',
    );
    expect(iso(t)).toBe('2026-10-25T00:30:00.000Z');
  });

  it.each([
    // Auckland jumps from 02:00 (+12:00) to 03:00 (+13:00) on 2026-09-27, and back on 2026-04-05.
    ['Pacific/Auckland', [2026, 9, 27, 2, 30], '2026-09-26T14:30:00.000Z', '2026-09-27T03:30:00+13:00'],
    ['Pacific/Auckland', [2026, 4, 5, 2, 30], '2026-04-04T13:30:00.000Z', '2026-04-05T02:30:00+13:00'],
    // Chatham from 02:45 (+12:45) to 03:45 (+13:45), and back.
    ['Pacific/Chatham', [2026, 9, 27, 3, 15], '2026-09-26T14:30:00.000Z', '2026-09-27T04:15:00+13:45'],
    ['Pacific/Chatham', [2026, 4, 5, 3, 15], '2026-04-04T13:30:00.000Z', '2026-04-05T03:15:00+13:45'],
  ] as const)(
    'reads them so in %s too, where offsets pass +12:00: %j',
    (zone, [year, month, day, hour, minute], utc, local) => {
      const t = instantOf({ year, month, day, hour, minute, second: 0, millisecond: 0 }, zone);
      expect([iso(t), isoInZone(t, zone)]).toEqual([utc, local]);
    },
  );
});
