import { describe, expect, it } from 'vitest';
import { formatSpan, isoInZone, offsetAt, wallClock } from './time-zone.js';

/** The wall clock as formatToParts reads it: what wallClock must agree with. */
const formats = new Map<string, Intl.DateTimeFormat>();
function fromParts(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  const f =
    formats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  formats.set(timeZone, f);
  for (const part of f.formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute, second } = parts;
  return { year, month, day, hour, minute, second, millisecond: ((instant % 1000) + 1000) % 1000 };
}

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Apia',
];

describe('wallClock', () => {
  it('reads what formatToParts reads, across daylight-saving changes and odd offsets', () => {
    // Every 97 minutes and 13.25 seconds through 2026: both sides of every change of these zones.
    const differ: string[] = [];
    for (const zone of ZONES) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 5_833_250) {
        const expected = JSON.stringify(fromParts(t, zone));
        if (JSON.stringify(wallClock(t, zone)) !== expected) differ.push(`${zone} ${t}: ${expected}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('reads midnight as hour 0, and a time at the epoch and before it', () => {
    expect(wallClock(Date.UTC(2026, 11, 1, 0, 0, 0), 'UTC')).toMatchObject({ day: 1, hour: 0, minute: 0 });
    expect(wallClock(-1, 'UTC')).toEqual(fromParts(-1, 'UTC'));
    expect(wallClock(-1, 'UTC')).toMatchObject({
      year: 1969,
      month: 12,
      day: 31,
      second: 59,
      millisecond: 999,
    });
  });

  it('reads years the usual text does not hold (before 1000) from the parts', () => {
    const t = Date.UTC(500, 5, 15, 12, 30);
    expect(wallClock(t, 'UTC')).toEqual(fromParts(t, 'UTC'));
    expect(wallClock(t, 'UTC')).toMatchObject({ year: 500, month: 6, day: 15, hour: 12, minute: 30 });
  });

  it('gives the same reading when asked again, in another zone another one', () => {
    const t = Date.UTC(2026, 2, 29, 1, 30);
    expect(wallClock(t, 'Europe/Berlin')).toBe(wallClock(t, 'Europe/Berlin'));
    expect(wallClock(t, 'Europe/Berlin').hour).toBe(3);
    expect(wallClock(t, 'UTC').hour).toBe(1);
  });
});

describe('isoInZone', () => {
  it('writes the offset of the zone at that instant', () => {
    expect(isoInZone(Date.UTC(2026, 2, 29, 0, 59), 'Europe/Berlin')).toBe('2026-03-29T01:59:00+01:00');
    expect(isoInZone(Date.UTC(2026, 2, 29, 1, 0), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(isoInZone(Date.UTC(2026, 0, 1), 'Asia/Kathmandu')).toBe('2026-01-01T05:45:00+05:45');
    expect(isoInZone(Date.UTC(2026, 0, 1), 'America/St_Johns')).toBe('2025-12-31T20:30:00-03:30');
    expect(offsetAt(Date.UTC(2026, 0, 1), 'America/St_Johns')).toBe(-210 * 60_000);
  });
});

describe('formatSpan', () => {
  it('gives each end its offset only when the offset changes in between', () => {
    const at = Date.parse;
    expect(formatSpan(at('2026-10-24T00:30:00Z'), at('2026-10-24T01:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-10-24 02:30–03:00 Europe/Berlin',
    );
    // Half an hour from the first 02:30 of the night the clocks go back ends at the second 02:00.
    expect(formatSpan(at('2026-10-25T00:30:00Z'), at('2026-10-25T01:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-10-25 02:30+02:00–02:00+01:00 Europe/Berlin',
    );
    expect(formatSpan(at('2026-03-28T23:00:00Z'), at('2026-03-29T05:00:00Z'), 'America/St_Johns')).toBe(
      '2026-03-28 20:30–2026-03-29 02:30 America/St_Johns',
    );
    expect(formatSpan(at('2026-03-08T06:00:00Z'), at('2026-03-08T08:00:00Z'), 'America/New_York')).toBe(
      '2026-03-08 01:00-05:00–04:00-04:00 America/New_York',
    );
  });
});
