import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collect } from '@monitor/api';
import ICAL from 'ical.js';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { envelopeOf, monitor, writeFiles } from './support/harness.js';
import { projectsUnderTest } from './support/projects.js';

/**
 * Who gets paged (issue 26 §2) end to end: `monitor routes`, the routing section of every plan and
 * `monitor maintenance`, the built CLI against the emulator.
 */

const underTest = projectsUnderTest();
/** A project and an emulator; `run` with the user's clock in New York, so that times are fixed. */
async function setup(files: Record<string, string>) {
  const made = await underTest(files);
  const run = (...args: string[]) =>
    monitor(args, { cwd: made.dir, env: { ...made.h.env, TZ: 'America/New_York' } });
  return { ...made, run };
}
const SLACK_HOOK = 'https://hooks.slack.example.com/services/T000/B000/canary-slack-hook';
const PD_KEY = 'canary-pagerduty-key';

const HEADER = `import { CheckGroup, MaintenanceWindow, PagerdutyAlertChannel, SlackAlertChannel, StatusPage, StatusPageService } from '@monitor/constructs';
const pd = new PagerdutyAlertChannel('prod-oncall', { serviceKey: '${PD_KEY}', serviceName: 'prod-oncall' });
const slack = new SlackAlertChannel('payments-slack', { url: '${SLACK_HOOK}', channel: '#payments', sendDegraded: true });
`;

interface Version {
  channels?: string;
  muted?: boolean;
  window?: string;
  extra?: string;
}

const project = ({ channels = 'pd, slack', muted = false, window = '', extra = '' }: Version = {}) =>
  `${HEADER}
new CheckGroup('payments', { name: 'Payments', tags: ['prod'], muted: ${muted}, alertChannels: [${channels}] });
new CheckGroup('search', { name: 'Search', tags: ['search'], alertChannels: [slack], alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 }, reminders: { amount: 2, interval: 15 } } });
${window}
${extra}
`;

const NIGHTLY = `new MaintenanceWindow('nightly', {
  name: 'Nightly deploys',
  startsAt: '2027-03-01T01:00:00Z',
  endsAt: '2027-03-01T02:00:00Z',
  repeatUnit: 'DAY',
  repeatEndsAt: '2027-03-31T01:00:00Z',
  timezone: 'Europe/Berlin',
  silenceAlertsTags: ['prod'],
});`;

const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

function expectNoSecret(text: string): void {
  expect(text).not.toContain('canary');
  expect(text).not.toContain('hooks.slack.example.com');
}

describe('monitor routes', () => {
  it('shows where each group’s alerts go, from the code: channels masked, what each sends, escalation, silencing windows', async () => {
    const { run } = await setup({ 'a.monitor.ts': project({ window: NIGHTLY }) });
    const text = await run('routes');
    expect(text.code).toBe(0);
    expectNoSecret(text.stdout);
    expect(text.stdout).toContain('payments "Payments"');
    expect(text.stdout).toContain(
      '  alerts:       failures, recoveries → PagerDuty (prod-oncall), Slack #payments; degraded → Slack #payments; silenced by “Nightly deploys” (2027-03-01 02:00–03:00 Europe/Berlin, every day until 2027-03-31 03:00)',
    );
    expect(text.stdout).toMatch(
      /✓ on +PagerDuty \(prod-oncall\) +AlertChannel:prod-oncall +sends: failure, recovery/,
    );
    expect(text.stdout).toContain(
      '  escalation:   after 10 minutes failing, then 2 reminders every 15 minutes',
    );
    expect(text.stdout).toContain('"Nightly deploys" (silenceAlertsTags: prod)');
  });

  it('gives the same with --json, and reads the account with --live once deployed', async () => {
    const { run } = await setup({ 'a.monitor.ts': project({ window: NIGHTLY }) });
    const json = await run('routes', 'payments', '--json');
    expect(json.code).toBe(0);
    expectNoSecret(json.stdout);
    const { result } = envelopeOf(json);
    expect(result.source).toBe('code');
    expect(result.timeZone).toBe('America/New_York');
    expect(result.groups).toHaveLength(1);
    const [payments] = result.groups;
    expect(payments.reaches.failure).toEqual(['PagerDuty (prod-oncall)', 'Slack #payments']);
    expect(payments.silencedBy[0].next[0]).toMatchObject({
      start: '2027-03-01T01:00:00.000Z',
      window: { timeZone: 'Europe/Berlin', start: '2027-03-01T02:00:00+01:00' },
      user: { timeZone: 'America/New_York', start: '2027-02-28T20:00:00-05:00' },
    });

    expect((await run('deploy', '--yes')).code).toBe(0);
    const live = envelopeOf(await run('routes', '--live', '--json'));
    expect(live.result.source).toBe('live');
    expect(live.result.groups.map((g: { group: string }) => g.group)).toEqual([
      'CheckGroup:payments',
      'CheckGroup:search',
    ]);
    expect(live.result.groups[0].physicalId).toEqual(expect.any(Number));
    // From the account as from the code: the same routes.
    expect(live.result.groups[0].reaches).toEqual(payments.reaches);
  });

  it('refuses an unknown group with the nearest name, and another kind plainly', async () => {
    const { run } = await setup({ 'a.monitor.ts': project() });
    const typo = await run('routes', 'paymnets');
    expect(typo.code).toBe(1);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('error: paymnets: the project has no check group of that name');
    expect(typo.stderr).toContain('hint: did you mean payments?');
    const undeployed = await run('routes', '--live', 'payments');
    expect(undeployed.code).toBe(1);
    expect(undeployed.stderr).toContain(
      'error: payments: the check group is in the code but not in the account yet',
    );
    expect(undeployed.stderr).toContain(
      'hint: deploy it first, or leave out --live to see its route from the code',
    );
    const json = await run('routes', 'AlertChannel:payments-slack', '--json');
    expect(json.code).toBe(1);
    expect(envelopeOf(json).error).toEqual({
      code: 'unknown_group',
      message: 'AlertChannel:payments-slack is a AlertChannel: routes are of check groups',
      hint: 'name a check group: its logical id or CheckGroup:logicalId',
    });
  });
});

describe('the routing section of a plan', () => {
  it('shows before and after for each group whose route changes, in diff text, --json and the markdown comment', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': project() });
    expect((await run('deploy', '--yes')).code).toBe(0);
    // PagerDuty dropped from payments, a window that silences it, a new group with no channel.
    writeFiles(dir, {
      'a.monitor.ts': project({
        channels: 'slack',
        window: NIGHTLY,
        extra: "new CheckGroup('orphans', { name: 'Orphans' });",
      }),
    });
    const text = await run('diff');
    expect(text.code).toBe(0);
    expectNoSecret(text.stdout);
    const lines = text.stdout.split('\n');
    const flag = lines.findIndex((l) => l.startsWith('! No route for failures'));
    const section = lines.indexOf('Routing: who gets paged changes for 2 groups:');
    const details = lines.indexOf('Changes from the code:');
    expect(flag).toBeGreaterThan(0);
    expect(lines[flag]).toBe(
      // With what the built-in policy found of the group.
      '! No route for failures: once this is deployed, no one is told when the checks of orphans (“Orphans”) fail. Policy group-without-alert-channel: 1 warning.',
    );
    expect(section).toBeGreaterThan(flag);
    expect(details).toBeGreaterThan(section);
    expect(lines.slice(section + 1, details - 1)).toEqual([
      '  orphans "Orphans" (new) !',
      '      after:  failures → no one',
      '  payments "Payments"',
      '      before: failures, recoveries → PagerDuty (prod-oncall), Slack #payments; degraded → Slack #payments',
      '      after:  failures, degraded, recoveries → Slack #payments; silenced by “Nightly deploys” (2027-03-01 02:00–03:00 Europe/Berlin, every day until 2027-03-31 03:00)',
    ]);

    const json = envelopeOf(await run('diff', '--json'));
    expect(json.result.changes).toBe(true);
    // biome-ignore lint/suspicious/noExplicitAny: the envelope's plan is read as JSON.
    const routing = (json as any).plan.routing;
    expect(routing.unrouted).toEqual(['CheckGroup:orphans']);
    expect(
      routing.changes.map((c: { logicalId: string; before: string | null }) => [
        c.logicalId,
        c.before === null,
      ]),
    ).toEqual([
      ['orphans', true],
      ['payments', false],
    ]);

    const md = await run('diff', '--format', 'markdown');
    expectNoSecret(md.stdout);
    const html = toHtml(md.stdout);
    const warning = html.indexOf('<p>[!WARNING]');
    const heading = html.indexOf('<h4>Routing: who gets paged changes for 2 groups</h4>');
    const resources = html.indexOf('<h4>Changes from the code</h4>');
    expect(warning).toBeGreaterThan(0);
    expect(heading).toBeGreaterThan(warning);
    expect(resources).toBeGreaterThan(heading);
    expect(html).toContain(
      '<li>before: failures, recoveries → PagerDuty (prod-oncall), Slack #\u200dpayments; degraded → Slack #\u200dpayments</li>',
    );
  });

  it.each([
    [
      'a channel deleted with its subscription',
      (source: string) =>
        source.replace(/const pd = .*\n/, '').replace('alertChannels: [pd]', 'alertChannels: []'),
      'failures → no one',
    ],
    ['muting', (source: string) => source.replace('muted: false', 'muted: true'), 'muted: nothing is sent'],
  ])('follows %s, and says nothing once it is deployed', async (_, change, after) => {
    const { dir, run } = await setup({ 'a.monitor.ts': project({ channels: 'pd' }) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, { 'a.monitor.ts': change(project({ channels: 'pd' })) });
    const diff = envelopeOf(await run('diff', '--json'));
    // biome-ignore lint/suspicious/noExplicitAny: the envelope's plan is read as JSON.
    expect((diff as any).plan.routing).toEqual({
      changes: [
        {
          group: 'CheckGroup:payments',
          logicalId: 'payments',
          name: 'Payments',
          before: 'failures, recoveries → PagerDuty (prod-oncall)',
          after,
          noFailureRoute: true,
        },
      ],
      unrouted: ['CheckGroup:payments'],
    });
    expect((await run('deploy', '--yes', '--allow-deletes')).code).toBe(0);
    const settled = await run('diff');
    expect(settled.stdout).not.toContain('Routing');
    expect(settled.stdout).toContain('No changes.');
  });
});

describe('monitor maintenance', () => {
  const WINDOWS = `${NIGHTLY}
const api = new StatusPageService('api', { name: 'Public API' });
new StatusPage('status', { name: 'Acme status', url: 'acme-routing-status', cards: [{ name: 'APIs', services: [api] }] });
new MaintenanceWindow('db', {
  name: 'DB upgrade',
  startsAt: '2027-03-03T00:30:00Z',
  endsAt: '2027-03-03T03:00:00Z',
  silenceAllAlerts: true,
  tags: ['Search'],
  statusPageVisibility: { enabled: true, services: [api] },
});`;

  it('lists the windows of the period with repeats expanded, zones, overlaps, groups and status pages', async () => {
    const { run } = await setup({ 'a.monitor.ts': project({ window: WINDOWS }) });
    const text = await run('maintenance', '--from', '2027-03-01T00:00:00Z', '--days', '3');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'Maintenance from 2027-03-01 00:00 to 2027-03-04 00:00 UTC: 2 windows, 4 occurrences',
    );
    expect(text.stdout).toContain('  groups:       Payments (silenced)');
    expect(text.stdout).toContain('  groups:       Payments (silenced), Search (silenced, named)');
    expect(text.stdout).toContain('  status pages: Acme status');
    expect(text.stdout).toContain(
      '    2027-03-03 02:00–03:00 Europe/Berlin (2027-03-02 20:00–21:00 America/New_York)  overlaps DB upgrade',
    );
    expect(text.stdout).toContain(
      '1 overlap:\n  "Nightly deploys" and "DB upgrade": 2027-03-03 01:00–2027-03-03 02:00 UTC',
    );

    const json = envelopeOf(
      await run('maintenance', '--from', '2027-03-01T00:00:00Z', '--days', '3', '--json'),
    );
    expect(
      json.result.windows.map((w: { name: string; occurrences: unknown[] }) => [
        w.name,
        w.occurrences.length,
      ]),
    ).toEqual([
      ['Nightly deploys', 3],
      ['DB upgrade', 1],
    ]);
    expect(json.result.overlaps).toHaveLength(1);
  });

  it('writes an iCalendar file that a real parser reads back: one event per occurrence, in UTC', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': project({ window: WINDOWS }) });
    const r = await run(
      'maintenance',
      '--from',
      '2027-03-01T00:00:00Z',
      '--days',
      '40',
      '--ics',
      'out/maintenance.ics',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote 32 events to out/maintenance.ics');
    const text = readFileSync(join(dir, 'out/maintenance.ics'), 'utf8');
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events).toHaveLength(32);
    const uids = new Set(events.map((e) => e.uid));
    expect(uids.size).toBe(32);
    const first = events[0];
    expect(first?.summary).toBe('Maintenance: Nightly deploys');
    expect(first?.startDate.toJSDate().toISOString()).toBe('2027-03-01T01:00:00.000Z');
    expect(first?.endDate.toJSDate().toISOString()).toBe('2027-03-01T02:00:00.000Z');
    // Summer time in Berlin from 2027-03-28: the window stays at 02:00 there, an hour earlier in UTC.
    const last = events.filter((e) => e.summary === 'Maintenance: Nightly deploys').at(-1);
    expect(last?.startDate.toJSDate().toISOString()).toBe('2027-03-31T00:00:00.000Z');
    expect(first?.description).toContain('Silences: alerts of tags prod');
    expect(first?.description).toContain('Groups: Payments (silenced)');
  });

  it('keeps a weekly 02:30–03:00 Amsterdam window 30 minutes long across the spring change (issue 45)', async () => {
    const WEEKLY = `new MaintenanceWindow('weekly', {
  name: 'Weekly',
  startsAt: '2027-02-28T01:30:00Z',
  endsAt: '2027-02-28T02:00:00Z',
  repeatUnit: 'WEEK',
  timezone: 'Europe/Amsterdam',
  silenceAlertsTags: ['prod'],
});`;
    const { dir, run } = await setup({ 'a.monitor.ts': project({ window: WEEKLY }) });
    const r = await run('maintenance', '--from', '2027-03-01', '--days', '60', '--ics', 'x.ics');
    expect(r.code).toBe(0);
    // 02:30 does not exist on 28 March (02:00 → 03:00): read with the offset before the change.
    expect(r.stdout).toContain(
      '    2027-03-28 03:30–04:00 Europe/Amsterdam (2027-03-27 21:30–22:00 America/New_York)\n',
    );
    const calendar = new ICAL.Component(ICAL.parse(readFileSync(join(dir, 'x.ics'), 'utf8')));
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events).toHaveLength(8);
    const spans = events.map((e) => [e.startDate.toJSDate().getTime(), e.endDate.toJSDate().getTime()]);
    expect(spans.map(([start = 0, end = 0]) => (end - start) / 60_000)).toEqual(Array(8).fill(30));
    expect(spans.map(([start = 0]) => new Date(start).toISOString()).slice(2, 5)).toEqual([
      '2027-03-21T01:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-04-04T00:30:00.000Z',
    ]);
  });

  it('writes the calendar to stdout with --ics and no file, or --ics -, and the listing to stderr', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': project({ window: WINDOWS }) });
    for (const ics of [['--ics'], ['--ics', '-']]) {
      const r = await run('maintenance', '--from', '2027-03-01T00:00:00Z', '--days', '3', ...ics);
      expect([r.code, r.stderr.split('\n').filter((l) => l.startsWith('error'))]).toEqual([0, []]);
      expect(r.stdout.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
      const calendar = new ICAL.Component(ICAL.parse(r.stdout));
      expect(calendar.getAllSubcomponents('vevent')).toHaveLength(4);
      expect(r.stderr).toContain('Maintenance from 2027-03-01 00:00 to 2027-03-04 00:00 UTC: 2 windows');
      expect(r.stderr).toContain('Wrote 4 events to stdout');
    }
    // No file written (before, it tried to write the calendar onto the project's directory: EISDIR).
    expect(readdirSync(dir).filter((f) => f.endsWith('.ics'))).toEqual([]);
    const json = await run('maintenance', '--ics', '--json');
    expect(json.code).toBe(1);
    expect(envelopeOf(json).error).toMatchObject({
      message: '--ics with no file writes the calendar to stdout, where --json writes its envelope',
      hint: 'name a file for the calendar, e.g. --ics maintenance.ics',
    });
  });

  it('reads the account with --live', async () => {
    const { run } = await setup({ 'a.monitor.ts': project({ window: WINDOWS }) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const live = envelopeOf(
      await run('maintenance', '--live', '--from', '2027-03-01T00:00:00Z', '--days', '3', '--json'),
    );
    expect(live.result.source).toBe('live');
    expect(live.result.windows.map((w: { window: string }) => w.window)).toEqual([
      'MaintenanceWindow:nightly',
      'MaintenanceWindow:db',
    ]);
    expect(live.result.windows[1].statusPages).toEqual(['Acme status']);
  });

  it.each([
    [['--days', '0'], '--days must be a whole number of days from 1 to 3660, got "0"'],
    [['--days', 'soon'], '--days must be a whole number of days from 1 to 3660, got "soon"'],
    [['--days', '1.5'], '--days must be a whole number of days from 1 to 3660, got "1.5"'],
    [['--days', '99999'], '--days must be a whole number of days from 1 to 3660, got "99999"'],
    [['--from', 'tomorrow'], '--from must be a date, got "tomorrow"'],
  ])('refuses %j with a clear error', async (args, message) => {
    const { run } = await setup({ 'a.monitor.ts': project() });
    const r = await run('maintenance', ...args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: ${message}`);
  });

  it('says plainly when the --ics path cannot be written, and leaves what is there alone', async () => {
    const { dir, run } = await setup({ 'a.monitor.ts': project({ window: WINDOWS }) });
    const r = await run(
      'maintenance',
      '--from',
      '2027-03-01',
      '--ics',
      'a.monitor.ts/maintenance.ics',
      '--json',
    );
    expect(r.code).toBe(1);
    const envelope = envelopeOf(r);
    expect(envelope.error?.code).toBe('cannot_write');
    expect(envelope.error?.message).toContain(
      `cannot write the calendar to ${join(dir, 'a.monitor.ts/maintenance.ics')}`,
    );
    expect(envelope.error?.hint).toBe(
      'name a file in a directory you can write to, e.g. --ics maintenance.ics',
    );
    // The schedule is still in the envelope, and the file in the way is untouched.
    expect(envelope.result.windows).toHaveLength(2);
    expect(readFileSync(join(dir, 'a.monitor.ts'), 'utf8')).toContain("new CheckGroup('payments'");
    expect(existsSync(join(dir, 'maintenance.ics'))).toBe(false);
  });
});

describe('text from the account', () => {
  const HOSTILE =
    '\u001b[2J\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007\r\nBEGIN:VEVENT\r\nSUMMARY:injected\u202e';
  /** What a terminal acts on: a control character (C0 but the line break, DEL, C1) or a format character. */
  const TERMINAL_CONTROL = /(?!\n)[\p{Cc}\p{Cf}]/u;

  it('is shown as text by routes and maintenance, and cannot add events to the calendar file', async () => {
    const { h, dir, run } = await setup({ 'a.monitor.ts': project({ window: NIGHTLY }) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    for (const g of await collect(h.client.checkGroups.all()))
      await h.client.checkGroups.update(g.id, { name: `${HOSTILE} ${g.name}` });
    for (const w of await collect(h.client.maintenanceWindows.all()))
      await h.client.maintenanceWindows.update(w.id, { name: HOSTILE });

    const routes = await run('routes', '--live');
    expect(routes.code).toBe(0);
    expect(routes.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(routes.stdout).toContain('\\x1b[2J');

    const maintenance = await run(
      'maintenance',
      '--live',
      '--from',
      '2027-03-01',
      '--days',
      '2',
      '--ics',
      'm.ics',
    );
    expect(maintenance.code).toBe(0);
    expect(maintenance.stdout).not.toMatch(TERMINAL_CONTROL);
    const calendar = new ICAL.Component(ICAL.parse(readFileSync(join(dir, 'm.ics'), 'utf8')));
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    // Two nights, two events: the name's line breaks stay inside its text.
    expect(events).toHaveLength(2);
    expect(events[0]?.summary).toContain('BEGIN:VEVENT');
    expect(events[0]?.summary).not.toContain('\r');
    expect(events[0]?.summary).not.toContain('\u001b');
  });
});
