import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from '@monitor/api';
import type { Fixture } from '@monitor/emulator';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { afterEach, describe, expect, it } from 'vitest';
import { ciProjects, gitHubEnv } from './support/ci.js';
import { type FakeCodeHost, fakeGitHub } from './support/code-hosts.js';
import { type CliResult, emulatorForTests, monitor, writeFiles } from './support/harness.js';
import { IMPORTS } from './support/projects.js';

/**
 * Text from the account is text (issue 24): names renamed in the account to links, mentions, HTML,
 * markdown and escape sequences, through the built CLI, as they reach a pull request, an issue, a
 * job summary and a terminal.
 */

const HOSTILE = [
  '[Approve here](https://evil.example/x) @acme/admins #1',
  '![pixel](https://evil.example/p.png) <https://evil.example/auto> www.evil.example ops@evil.example',
  '<img src=x onerror=alert(1)> </summary></details><details open><summary>x',
  '**bold** _em_ ~~strike~~ `tick` ``` fence',
  'a | b\n# heading\n- item\n> quote',
  '&lt;b&gt; &amp; @\u200bacme #\u200d2 GH-3 :smile:',
  '\u001b[2J\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007\r\u009b31m\u202eevil',
];

/** What a terminal acts on: a control character (C0 but the line break, DEL, C1) or a format character (bidi, zero-width). */
const TERMINAL_CONTROL = /(?!\n)[\p{Cc}\p{Cf}]/u;
/** A control character as monitor shows it, e.g. `\x1b`. */
const visible = (s: string) =>
  s.replace(/(?!\n)[\p{Cc}\p{Cf}]|\n/gu, (c) => {
    const code = c.codePointAt(0) ?? 0;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });

/** GFM as GitHub renders comments, with the HTML of `<details>` let through. */
const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
const elements = (html: string) => html.match(/<\/?[a-z][a-z0-9]*/gi) ?? [];
/** The text a reader sees: tags dropped, character references decoded. */
const readable = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** What GitHub makes a mention, an issue reference, a link or an emoji of, outside code. */
const GITHUB_ACTIVE = /@[\p{L}\p{N}]|#\d|\bGH-\d|[a-z]+:\/\/|\bwww\.|:[a-z0-9_+-]+:/iu;
const outsideCode = (html: string) =>
  readable(html.replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, ''));

function expectLiteral(markdown: string, benign: string) {
  const html = toHtml(markdown);
  expect(elements(html)).toEqual(elements(toHtml(benign)));
  expect(outsideCode(html)).not.toMatch(GITHUB_ACTIVE);
  const seen = readable(html).replaceAll('\u200d', '');
  for (const name of HOSTILE) expect(seen).toContain(visible(name));
}

const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});
const ciProject = ciProjects();

describe('groups renamed in the account', () => {
  it('are text in the pull-request comment, the drift issue and the plan on the terminal', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const groups = (prefix: string) =>
      HOSTILE.map((_, i) => `new CheckGroup('${prefix}${i}', { name: '${prefix} ${i}' });\n`).join('');
    // Dashboards leave the code: deletions, shown by their header (their identity is their URL).
    const dashboards = HOSTILE.map(
      (_, i) => `new Dashboard('old${i}', { header: 'old ${i}', customUrl: 'acme-text-old-${i}' });\n`,
    ).join('');
    const { h, dir, run, useCi } = await ciProject({
      'a.monitor.ts': `import { Dashboard } from '@monitor/constructs';\n${IMPORTS}${groups('kept')}${dashboards}`,
    });
    useCi(gitHubEnv(dir, github));
    expect((await run('deploy', '--yes')).code).toBe(0);
    // The dashboards go from the code: deletions; every group and dashboard is renamed in the account.
    writeFiles(dir, { 'a.monitor.ts': IMPORTS + groups('kept') });
    const live = await collect(h.client.checkGroups.all());
    const boards = await collect(h.client.dashboards.all());
    const renameAll = async (name: (i: number) => string) => {
      for (const g of live) {
        const i = Number(/\d+$/.exec(g.name)?.[0]);
        await h.client.checkGroups.update(g.id, { name: `${name(i)} (${g.name})` });
      }
      for (const d of boards) {
        const i = Number(/\d+$/.exec(d.header ?? '')?.[0]);
        await h.client.dashboards.update(d.dashboardId, { header: `${name(i)} (${d.header})` });
      }
    };
    const bodies = () => ({
      comment: github.threads.get('pr:12')?.[0]?.body ?? '',
      issue: github.issues.find((i) => i.labels.includes('monitor-drift'))?.body ?? '',
    });

    await renameAll((i) => `Renamed ${i}`);
    expect((await run('diff', '--comment', '--issue')).code).toBe(0);
    const benign = bodies();
    expect(benign.comment).toContain('will be deleted from the account');
    expect(benign.comment).toContain('#### Drift');

    await renameAll((i) => HOSTILE[i] ?? '');
    const diff = await run('diff', '--comment', '--issue');
    expect(diff.code).toBe(0);
    const hostile = bodies();
    expectLiteral(hostile.comment, benign.comment);
    expectLiteral(hostile.issue, benign.issue);
    expect(diff.stdout + diff.stderr).not.toMatch(TERMINAL_CONTROL);
    // Names are quoted as JSON there (\u001b); what JSON leaves, escapeTerminal shows (\x9b).
    expect(diff.stdout).toContain(
      '\\u001b]8;;https://evil.example\\u0007link\\u001b]8;;\\u0007\\r\\x9b31m\\u202eevil',
    );
  });
});

describe('operational commands', () => {
  const CHECK = '11111111-1111-4111-8111-111111111111';
  const FAILING = '22222222-2222-4222-8222-222222222222';
  const ERRORS = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
  const INCIDENT = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
  const name = HOSTILE.join(' ');
  const fixture: Fixture = {
    checks: [
      {
        id: CHECK,
        checkType: 'API',
        name,
        tags: ['t', name],
        locations: ['eu-west-1'],
        request: { method: 'GET', url: `https://x.example/${name}` },
      },
      { id: FAILING, checkType: 'BROWSER', name: `${name} 2`, tags: ['t'], locations: ['eu-west-1'] },
    ],
    errorGroups: [
      {
        id: ERRORS,
        checkId: FAILING,
        errorHash: 'h1',
        cleanedErrorMessage: name,
        rawErrorMessage: `${name}\n    at step (test.ts:1)`,
        firstSeen: '2026-11-01',
        lastSeen: '2026-11-20',
        archivedUntilNextEvent: false,
      },
    ],
    services: [{ id: 'd8b9c0d1-e2f3-4a47-9869-b0c1d2e3f4a5', name }],
    statusPageIncidents: [
      {
        id: INCIDENT,
        name,
        severity: 'MINOR',
        services: [{ id: 'd8b9c0d1-e2f3-4a47-9869-b0c1d2e3f4a5', name }],
        incidentUpdates: [{ description: name, status: 'INVESTIGATING' }],
      },
    ],
    outcomes: { [FAILING]: 'FAILED' },
  };

  it('print names, messages and tags with control characters shown, and the trigger summary as text', async () => {
    const h = await emulatorForTests({ fixture, clock: 'manual' });
    const dir = mkdtempSync(join(tmpdir(), 'monitor-text-'));
    try {
      const env = { ...h.env, TZ: 'UTC', GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
      const run = (args: string[]): Promise<CliResult> => {
        let child: ChildProcess | undefined;
        // Emulator time moves while the CLI waits, so that sessions finish.
        const ticking = setInterval(() => {
          if (child !== undefined) h.emulator.app.state.clock.advance(500);
        }, 50);
        return monitor(args, {
          cwd: dir,
          env,
          onSpawn: (c) => {
            child = c;
          },
        }).finally(() => clearInterval(ticking));
      };
      const shown = visible('\u001b[2J\u001b]8;;https://evil.example\u0007link');
      for (const args of [
        ['checks', 'list'],
        ['checks', 'get', CHECK],
        ['error-groups', 'list'],
        ['error-groups', 'get', ERRORS],
        ['status-pages', 'incidents', 'list'],
        ['status-pages', 'incidents', 'get', INCIDENT],
        ['trigger', '--tag', 't', '--wait', '--reporter', 'github'],
      ]) {
        const result = await run(args);
        expect(result.stdout + result.stderr, args.join(' ')).not.toMatch(TERMINAL_CONTROL);
        expect(result.stdout, args.join(' ')).toContain(shown);
      }

      const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
      const html = toHtml(summary);
      // The only links are the two sessions', to the service.
      expect(html.match(/<a href="[^"]*"/g)).toEqual([
        expect.stringMatching(new RegExp(`^<a href="${h.emulator.url}/`)),
        expect.stringMatching(new RegExp(`^<a href="${h.emulator.url}/`)),
      ]);
      expect(html).not.toMatch(/<(img|em|strong|del|details|h[1245])\b/);
      expect(outsideCode(html).replace(/https?:\/\/127\.0\.0\.1:\d+\/\S*/g, '')).not.toMatch(GITHUB_ACTIVE);
      expect(readable(html).replaceAll('\u200d', '')).toContain(visible(name));
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
