import type { MaintenanceSchedule } from './maintenance.js';

/**
 * Maintenance windows as an iCalendar file (RFC 5545) a team can subscribe to: one event per
 * occurrence in the period, in UTC (no time-zone definitions needed), each with a stable UID so a
 * calendar that reads the file again updates its events instead of adding them twice.
 */

/** A TEXT value: backslash, semicolon, comma and line breaks escaped; other control characters dropped. */
function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\p{Cc}/gu, '');
}

/** A content line folded at 75 octets, never inside a character (RFC 5545 §3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = Buffer.byteLength(char);
    // The first line holds 75 octets; the others 74 after their leading space.
    if (size + bytes > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** `20261201T010000Z`. */
function utc(iso: string): string {
  return `${iso
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
    .slice(0, 15)}Z`;
}

export function maintenanceCalendar(
  schedule: MaintenanceSchedule,
  options: { now: Date; name: string },
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//monitor//maintenance windows//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
  ];
  const stamp = utc(options.now.toISOString());
  for (const w of schedule.windows) {
    const silences = w.silenceAllAlerts
      ? 'all alerts'
      : w.silenceAlertsTags.length > 0
        ? `alerts of tags ${w.silenceAlertsTags.join(', ')}`
        : 'no alerts';
    for (const o of w.occurrences) {
      const description = [
        `Schedule: ${w.schedule}`,
        `In ${w.timeZone}: ${o.window.start} to ${o.window.end}`,
        `Silences: ${silences}${w.pauseAllChecks ? '; pauses all checks' : ''}`,
        `Groups: ${w.groups.map((g) => `${g.name} (${g.effects.join(', ')})`).join(', ') || 'none'}`,
        `Status pages: ${w.statusPages.join(', ') || 'none'}`,
        ...(o.overlaps.length > 0 ? [`Overlaps: ${o.overlaps.join(', ')}`] : []),
      ].join('\n');
      lines.push(
        'BEGIN:VEVENT',
        `UID:${escapeText(`${w.window}/${utc(o.start)}`.replace(/\s+/g, '-'))}@monitor`,
        `DTSTAMP:${stamp}`,
        `DTSTART:${utc(o.start)}`,
        `DTEND:${utc(o.end)}`,
        `SUMMARY:${escapeText(`Maintenance: ${w.name}`)}`,
        `DESCRIPTION:${escapeText(description)}`,
        'TRANSP:OPAQUE',
        'END:VEVENT',
      );
    }
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
