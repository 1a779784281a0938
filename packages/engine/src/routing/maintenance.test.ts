import {
  CheckGroup,
  createSession,
  MaintenanceWindow,
  StatusPage,
  StatusPageService,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { maintenanceCalendar } from './ics.js';
import { maintenanceSchedule } from './maintenance.js';
import { worldFromCode } from './world.js';

const FROM = new Date('2026-11-24T00:00:00Z');

function schedule(days = 30, timeZone = 'UTC') {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return maintenanceSchedule(worldFromCode(resources), { from: FROM, days, timeZone });
}

beforeEach(() => {
  createSession();
});

describe('maintenanceSchedule', () => {
  it('expands repeats over the period, in the order they start, leaving out windows off in it', () => {
    new MaintenanceWindow('weekly', {
      name: 'Weekly',
      startsAt: '2026-11-02T01:00:00Z',
      endsAt: '2026-11-02T02:00:00Z',
      repeatUnit: 'WEEK',
      timezone: 'Europe/Amsterdam',
    });
    new MaintenanceWindow('soon', {
      name: 'Soon',
      startsAt: '2026-11-25T00:00:00Z',
      endsAt: '2026-11-25T01:00:00Z',
    });
    new MaintenanceWindow('later', {
      name: 'Later',
      startsAt: '2027-06-01T00:00:00Z',
      endsAt: '2027-06-01T01:00:00Z',
    });
    new MaintenanceWindow('past', {
      name: 'Past',
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2026-01-01T01:00:00Z',
    });
    const s = schedule(30, 'America/New_York');
    expect(s.windows.map((w) => [w.name, w.occurrences.length])).toEqual([
      ['Soon', 1],
      ['Weekly', 4],
    ]);
    const weekly = s.windows[1];
    expect(weekly?.schedule).toBe('2026-11-02 02:00–03:00 Europe/Amsterdam, every week, no end');
    expect(weekly?.occurrences[0]?.text).toBe(
      '2026-11-30 02:00–03:00 Europe/Amsterdam (2026-11-29 20:00–21:00 America/New_York)',
    );
    expect(s).toMatchObject({ from: '2026-11-24T00:00:00.000Z', until: '2026-12-24T00:00:00.000Z' });
  });

  it('finds overlaps, and the groups and status pages each window affects', () => {
    new CheckGroup('payments', { name: 'Payments', tags: ['prod'] });
    new CheckGroup('search', { name: 'Search', tags: ['staging'] });
    const api = new StatusPageService('api', { name: 'API' });
    const other = new StatusPageService('other', { name: 'Other' });
    const page = new StatusPage('status', {
      name: 'Acme status',
      url: 'acme-status',
      cards: [{ name: 'APIs', services: [api] }],
    });
    new StatusPage('quiet', { name: 'Quiet', url: 'acme-quiet', cards: [{ name: 'x', services: [other] }] });
    new MaintenanceWindow('db', {
      name: 'DB',
      startsAt: '2026-12-01T01:00:00Z',
      endsAt: '2026-12-01T03:00:00Z',
      silenceAlertsTags: ['prod'],
      tags: ['Search'],
      statusPageVisibility: { enabled: true, services: [api] },
    });
    new MaintenanceWindow('network', {
      name: 'Network',
      startsAt: '2026-12-01T02:00:00Z',
      endsAt: '2026-12-01T04:00:00Z',
      pauseAllChecks: true,
      statusPageVisibility: { enabled: false, statusPages: [page] },
    });
    const s = schedule();
    expect(s.windows.map((w) => [w.name, w.groups, w.statusPages])).toEqual([
      [
        'DB',
        [
          { group: 'CheckGroup:payments', name: 'Payments', effects: ['silenced'] },
          { group: 'CheckGroup:search', name: 'Search', effects: ['named'] },
        ],
        ['Acme status'],
      ],
      [
        'Network',
        [
          { group: 'CheckGroup:payments', name: 'Payments', effects: ['paused'] },
          { group: 'CheckGroup:search', name: 'Search', effects: ['paused'] },
        ],
        [],
      ],
    ]);
    expect(s.overlaps).toEqual([
      {
        windows: ['MaintenanceWindow:db', 'MaintenanceWindow:network'],
        start: '2026-12-01T02:00:00.000Z',
        end: '2026-12-01T03:00:00.000Z',
      },
    ]);
    expect(s.windows.map((w) => w.occurrences[0]?.overlaps)).toEqual([['Network'], ['DB']]);
  });

  it('names each window an occurrence overlaps once, however many of its occurrences it meets', () => {
    new MaintenanceWindow('daily', {
      name: 'Daily',
      startsAt: '2026-11-01T01:00:00Z',
      endsAt: '2026-11-01T02:00:00Z',
      repeatUnit: 'DAY',
    });
    new MaintenanceWindow('freeze', {
      name: 'Freeze',
      startsAt: '2026-11-24T00:00:00Z',
      endsAt: '2027-09-20T00:00:00Z',
    });
    const s = schedule(300);
    const [freeze, daily] = s.windows;
    expect(daily?.occurrences).toHaveLength(300);
    expect(freeze?.occurrences.map((o) => o.overlaps)).toEqual([['Daily']]);
    expect(daily?.occurrences.every((o) => o.overlaps.length === 1 && o.overlaps[0] === 'Freeze')).toBe(true);
    // The list at the end still has each time they are on together.
    expect(s.overlaps).toHaveLength(300);
    expect(s.overlaps[299]).toEqual({
      windows: ['MaintenanceWindow:freeze', 'MaintenanceWindow:daily'],
      start: '2027-09-19T01:00:00.000Z',
      end: '2027-09-19T02:00:00.000Z',
    });
    const ics = maintenanceCalendar(s, { now: FROM, name: 'acme' }).replace(/\r\n /g, '');
    expect(ics).toContain('\\nOverlaps: Daily\r\n');
  });
});

describe('maintenanceCalendar', () => {
  it('writes one event per occurrence in UTC, text escaped and lines folded at 75 octets with CRLF', () => {
    new MaintenanceWindow('nightly', {
      name: 'Nightly; deploys, with a very long name that goes on and on — past the fold',
      startsAt: '2026-11-24T23:00:00Z',
      endsAt: '2026-11-25T00:30:00Z',
      repeatUnit: 'DAY',
      repeatEndsAt: '2026-11-26T23:00:00Z',
    });
    const ics = maintenanceCalendar(schedule(), { now: FROM, name: 'acme maintenance' });
    const lines = ics.split('\r\n');
    expect(lines.every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    expect(unfolded).toContain('DTSTART:20261124T230000Z\r\nDTEND:20261125T003000Z');
    expect(unfolded).toContain('UID:MaintenanceWindow:nightly/20261125T230000Z@monitor');
    expect(unfolded).toContain('SUMMARY:Maintenance: Nightly\\; deploys\\, with a very long name');
  });

  it('keeps a weekly 02:30–03:00 window in Amsterdam 30 minutes long on the nights the clocks change (issue 45)', () => {
    new MaintenanceWindow('weekly', {
      name: 'Weekly',
      startsAt: '2027-03-07T01:30:00Z',
      endsAt: '2027-03-07T02:00:00Z',
      repeatUnit: 'WEEK',
      timezone: 'Europe/Amsterdam',
    });
    const { resources } = synth();
    const world = worldFromCode(resources);
    const spring = maintenanceSchedule(world, { from: new Date('2027-03-01'), days: 60, timeZone: 'UTC' });
    const texts = spring.windows[0]?.occurrences.map((o) => o.text.split(' (')[0]);
    // 02:30 does not exist on the 28th (02:00 → 03:00): it is read with the offset before, as 03:30.
    expect(texts?.slice(2, 5)).toEqual([
      '2027-03-21 02:30–03:00 Europe/Amsterdam',
      '2027-03-28 03:30–04:00 Europe/Amsterdam',
      '2027-04-04 02:30–03:00 Europe/Amsterdam',
    ]);
    const unfolded = maintenanceCalendar(spring, { now: FROM, name: 'acme' }).replace(/\r\n /g, '');
    expect(unfolded).toContain('DTSTART:20270328T013000Z\r\nDTEND:20270328T020000Z');
    const utc = (v = '') =>
      Date.parse(v.replace(/(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/, '$1-$2-$3T$4:$5:$6Z'));
    const minutes = [...unfolded.matchAll(/DTSTART:(\w+)\r\nDTEND:(\w+)/g)].map(
      ([, start, end]) => (utc(end) - utc(start)) / 60_000,
    );
    expect(minutes).toEqual(Array(8).fill(30));
    // 02:30 comes twice on 31 October (03:00 → 02:00): the first, for 30 minutes, not 90.
    const autumn = maintenanceSchedule(world, { from: new Date('2027-10-30'), days: 2, timeZone: 'UTC' });
    expect(autumn.windows[0]?.occurrences.map((o) => [o.start, o.end, o.text])).toEqual([
      [
        '2027-10-31T00:30:00.000Z',
        '2027-10-31T01:00:00.000Z',
        '2027-10-31 02:30+02:00–02:00+01:00 Europe/Amsterdam (2027-10-31 00:30–01:00 UTC)',
      ],
    ]);
  });
});
