import { KINDS } from '@monitor/api';
import type { PhysicalId } from '../identity.js';
import { type Occurrence, occurrencesBetween, scheduleOf } from './schedule.js';
import { type OccurrenceView, occurrenceView, windowNamed } from './silencing.js';
import { nameOf, type Resolver, resolverOf, type World, type WorldResource } from './world.js';

const DAY_MS = 86_400_000;

/** What a window does to a group: silences its alerts, pauses its checks, or names it in its tags. */
export type WindowEffect = 'silenced' | 'paused' | 'named';

export interface AffectedGroup {
  group: string;
  name: string;
  effects: WindowEffect[];
}

export interface UpcomingWindow {
  /** `MaintenanceWindow:logicalId`, or `MaintenanceWindow id 42`. */
  window: string;
  name: string;
  logicalId?: string;
  physicalId?: PhysicalId;
  timeZone: string;
  /** The schedule in one line, in the window's zone. */
  schedule: string;
  silenceAllAlerts: boolean;
  silenceAlertsTags: string[];
  pauseAllChecks: boolean;
  groups: AffectedGroup[];
  /** Status pages it shows on (when its status-page visibility is enabled). */
  statusPages: string[];
  occurrences: (OccurrenceView & { overlaps: string[] })[];
}

/** Two windows on at once. */
export interface Overlap {
  windows: [string, string];
  start: string;
  end: string;
}

export interface MaintenanceSchedule {
  from: string;
  until: string;
  timeZone: string;
  /** Windows with an occurrence in the period, by their first one. */
  windows: UpcomingWindow[];
  overlaps: Overlap[];
  /** Windows whose dates cannot be read: left out. */
  unreadable: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);

function groupsAffected(w: WorldResource, groups: readonly WorldResource[]): AffectedGroup[] {
  const silenceTags = strings(w.payload.silenceAlertsTags);
  const tags = strings(w.payload.tags);
  const out: AffectedGroup[] = [];
  for (const g of groups) {
    const groupTags = strings(g.payload.tags);
    const name = KINDS.CheckGroup.displayName(g.payload) ?? nameOf(g);
    const effects: WindowEffect[] = [];
    if (w.payload.silenceAllAlerts === true || silenceTags.some((t) => groupTags.includes(t)))
      effects.push('silenced');
    if (w.payload.pauseAllChecks === true) effects.push('paused');
    if (tags.includes(name) || tags.some((t) => groupTags.includes(t))) effects.push('named');
    if (effects.length > 0) out.push({ group: nameOf(g), name, effects });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function statusPagesShowing(w: WorldResource, resolver: Resolver): string[] {
  const visibility = (w.payload.statusPageVisibility ?? {}) as Record<string, unknown>;
  if (visibility.enabled !== true) return [];
  const pages = new Set<WorldResource>();
  for (const ref of Array.isArray(visibility.statusPageIds) ? visibility.statusPageIds : []) {
    const page = resolver.resolve('StatusPage', ref);
    if (page !== undefined) pages.add(page);
  }
  // A page that lists an affected service shows the window too.
  const services = new Set(
    (Array.isArray(visibility.serviceIds) ? visibility.serviceIds : [])
      .map((ref) => resolver.resolve('StatusPageService', ref))
      .filter((s) => s !== undefined),
  );
  for (const page of resolver.all('StatusPage')) {
    const cards = Array.isArray(page.payload.cards) ? (page.payload.cards as Record<string, unknown>[]) : [];
    const listed = cards.flatMap((c) =>
      Array.isArray(c.services) ? (c.services as Record<string, unknown>[]) : [],
    );
    if (listed.some((s) => services.has(resolver.resolve('StatusPageService', s.id) as WorldResource)))
      pages.add(page);
  }
  return [...pages].map((p) => (typeof p.payload.name === 'string' ? p.payload.name : nameOf(p))).sort();
}

interface Found {
  w: UpcomingWindow;
  spans: Occurrence[];
}

/**
 * Where the occurrences of two windows meet, by start; each occurrence names each window it meets
 * once, however many of that window's occurrences it meets (a month-long one-off beside a daily
 * window meets thirty of them). A window's occurrences come in order of start and of end alike
 * (each lasts as long as the first), so the ones of `b` that meet an occurrence of `a` are a run
 * that moves forward with it: a pass over both lists, not every pair (two daily windows over ten
 * years are 13 million pairs).
 */
function overlapsOf(found: readonly Found[]): Overlap[] {
  const overlaps: Overlap[] = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const a = found[i] as Found;
      const b = found[j] as Found;
      // The occurrences of b that name a already; one of a names b at most once, in its own turn.
      const bNamed = new Set<number>();
      let first = 0;
      a.spans.forEach((x, xi) => {
        while (first < b.spans.length && (b.spans[first] as Occurrence).end <= x.start) first++;
        let met = false;
        for (let yi = first; yi < b.spans.length; yi++) {
          const y = b.spans[yi] as Occurrence;
          if (y.start >= x.end) break;
          overlaps.push({
            windows: [a.w.window, b.w.window],
            start: new Date(Math.max(x.start, y.start)).toISOString(),
            end: new Date(Math.min(x.end, y.end)).toISOString(),
          });
          met = true;
          if (!bNamed.has(yi)) b.w.occurrences[yi]?.overlaps.push(a.w.name);
          bNamed.add(yi);
        }
        if (met) a.w.occurrences[xi]?.overlaps.push(b.w.name);
      });
    }
  }
  return overlaps.sort((x, y) => x.start.localeCompare(y.start));
}

/**
 * The maintenance windows on during `days` days from `from`, repeats expanded on the wall clock of
 * each window's zone; each with the groups and status pages it affects, and where two overlap.
 * Pure: the clock and the user's zone come in.
 */
export function maintenanceSchedule(
  world: World,
  options: { from: Date; days: number; timeZone: string },
): MaintenanceSchedule {
  const resolver = resolverOf(world);
  const from = options.from.getTime();
  const until = from + options.days * DAY_MS;
  const groups = resolver.all('CheckGroup');
  const found: Found[] = [];
  const unreadable: string[] = [];
  for (const w of resolver.all('MaintenanceWindow')) {
    const schedule = scheduleOf(w.payload);
    if (schedule === undefined) {
      unreadable.push(nameOf(w));
      continue;
    }
    const spans = occurrencesBetween(schedule, from, until);
    if (spans.length === 0) continue;
    found.push({
      spans,
      w: {
        ...windowNamed(w, schedule),
        silenceAllAlerts: w.payload.silenceAllAlerts === true,
        silenceAlertsTags: strings(w.payload.silenceAlertsTags),
        pauseAllChecks: w.payload.pauseAllChecks === true,
        groups: groupsAffected(w, groups),
        statusPages: statusPagesShowing(w, resolver),
        occurrences: spans.map((o) => ({
          ...occurrenceView(o, schedule.timeZone, options.timeZone),
          overlaps: [],
        })),
      },
    });
  }
  found.sort(
    (a, b) => (a.spans[0]?.start ?? 0) - (b.spans[0]?.start ?? 0) || a.w.name.localeCompare(b.w.name),
  );
  const overlaps = overlapsOf(found);
  return {
    from: new Date(from).toISOString(),
    until: new Date(until).toISOString(),
    timeZone: options.timeZone,
    windows: found.map((f) => f.w),
    overlaps,
    unreadable: unreadable.sort(),
  };
}
