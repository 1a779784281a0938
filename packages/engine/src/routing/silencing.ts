import type { PhysicalId } from '../identity.js';
import { describeSchedule, nextOccurrences, type Occurrence, scheduleOf } from './schedule.js';
import { formatSpan, isoInZone } from './time-zone.js';
import { nameOf, type WorldResource } from './world.js';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);

/** One time a window is on, in UTC, in its own zone and in the user's. */
export interface OccurrenceView {
  start: string;
  end: string;
  window: { timeZone: string; start: string; end: string };
  user: { timeZone: string; start: string; end: string };
  /** `2026-12-01 02:00–04:00 Europe/Berlin (01:00–03:00 UTC)`. */
  text: string;
}

/** A maintenance window that silences a group's alerts while it is on. */
export interface Silencing {
  window: string;
  name: string;
  logicalId?: string;
  physicalId?: PhysicalId;
  /** `silenceAllAlerts`, or the `silenceAlertsTags` that the group's tags meet. */
  reason: 'silenceAllAlerts' | 'silenceAlertsTags';
  tags: string[];
  timeZone: string;
  /** The schedule in one line, in the window's zone. */
  schedule: string;
  next: OccurrenceView[];
}

/** An occurrence in UTC, in the window's zone and in the user's. */
export function occurrenceView(o: Occurrence, windowZone: string, userZone: string): OccurrenceView {
  const inWindow = formatSpan(o.start, o.end, windowZone);
  return {
    start: new Date(o.start).toISOString(),
    end: new Date(o.end).toISOString(),
    window: {
      timeZone: windowZone,
      start: isoInZone(o.start, windowZone),
      end: isoInZone(o.end, windowZone),
    },
    user: { timeZone: userZone, start: isoInZone(o.start, userZone), end: isoInZone(o.end, userZone) },
    text: windowZone === userZone ? inWindow : `${inWindow} (${formatSpan(o.start, o.end, userZone)})`,
  };
}

/** A window that silences alerts and is on now or will be: what every group it silences shows of it. */
export interface SilencingWindow {
  all: boolean;
  tags: string[];
  /** Its entry in a route, less the reason and tags, which depend on the group. */
  shown: Omit<Silencing, 'reason' | 'tags'>;
}

/** How a window is named where it is shown: its names, ids, zone and schedule. */
export function windowNamed(w: WorldResource, schedule: NonNullable<ReturnType<typeof scheduleOf>>) {
  return {
    window: nameOf(w),
    name: typeof w.payload.name === 'string' ? w.payload.name : nameOf(w),
    ...(w.logicalId === undefined ? {} : { logicalId: w.logicalId }),
    ...(w.physicalId === undefined ? {} : { physicalId: w.physicalId }),
    timeZone: schedule.timeZone,
    schedule: describeSchedule(schedule),
  };
}

/**
 * The windows that silence anything, with an occurrence now or to come: worked out once per
 * window, not once per group (occurrences need the time-zone database; 10,000 groups share them).
 */
export function silencingWindows(
  windows: readonly WorldResource[],
  options: { now: Date; timeZone: string; occurrences?: number },
): SilencingWindow[] {
  const out: SilencingWindow[] = [];
  for (const w of windows) {
    const all = w.payload.silenceAllAlerts === true;
    const tags = strings(w.payload.silenceAlertsTags);
    if (!all && tags.length === 0) continue;
    const schedule = scheduleOf(w.payload);
    if (schedule === undefined) continue;
    const next = nextOccurrences(schedule, options.now.getTime(), options.occurrences ?? 3);
    if (next.length === 0) continue;
    out.push({
      all,
      tags,
      shown: {
        ...windowNamed(w, schedule),
        next: next.map((o) => occurrenceView(o, schedule.timeZone, options.timeZone)),
      },
    });
  }
  return out.sort((a, b) => a.shown.name.localeCompare(b.shown.name));
}

/**
 * What silences the groups of a project: `of(tags)` gives the windows that silence a group with
 * these tags (`silenceAllAlerts`, or `silenceAlertsTags` it meets), in the windows' order. The
 * windows that silence everything are one list that every group shares, not a copy each: 5,000
 * groups and 5,000 such windows would otherwise make 25 million entries.
 */
export function silencer(windows: readonly SilencingWindow[]): { of(tags: readonly string[]): Silencing[] } {
  const everything: Silencing[] = windows
    .filter((w) => w.all)
    .map((w) => ({ ...w.shown, reason: 'silenceAllAlerts', tags: [] }));
  const byTags = windows.filter((w) => !w.all);
  return {
    of(tags) {
      const met: Silencing[] = [];
      for (const w of byTags) {
        const meets = w.tags.filter((t) => tags.includes(t));
        if (meets.length > 0) met.push({ ...w.shown, reason: 'silenceAlertsTags', tags: meets });
      }
      if (met.length === 0) return everything;
      return [...everything, ...met].sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}

/** The windows that silence a group with these tags (`silencer` shares what it can across groups). */
export function silencingOf(tags: readonly string[], windows: readonly SilencingWindow[]): Silencing[] {
  return silencer(windows).of(tags);
}
