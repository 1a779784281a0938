import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type Fixture } from '@monitor/emulator';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, emulatorForTests, envelopeOf, monitor } from './support/harness.js';

/**
 * The operational commands against the emulator on port 0 with a manual clock: sessions, results
 * and analyses move only when a test moves emulator time, so every outcome is exact.
 */

const API = '11111111-1111-4111-8111-111111111111';
const BROWSER = '22222222-2222-4222-8222-222222222222';
const SUITE = '33333333-3333-4333-8333-333333333333';
const BEAT = '44444444-4444-4444-8444-444444444444';
const ERRORS = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const READ_ONLY_KEY = 'mk_read_only';
const POOR_ACCOUNT = '00000000-0000-4000-8000-0000000000b0';

const fixture: Fixture = {
  checks: [
    {
      id: API,
      checkType: 'API',
      name: 'Payments API',
      tags: ['api', 'prod'],
      groupId: 5,
      locations: ['eu-west-1', 'us-east-1'],
      request: { method: 'GET', url: 'https://pay.example/health' },
    },
    {
      id: BROWSER,
      checkType: 'BROWSER',
      name: 'Login | flow <web>',
      tags: ['web', 'prod'],
      locations: ['eu-west-1'],
    },
    { id: SUITE, checkType: 'PLAYWRIGHT', name: 'E2E suite', tags: ['e2e'], locations: ['eu-west-1'] },
    { id: BEAT, checkType: 'HEARTBEAT', name: 'Nightly backup', tags: ['jobs'] },
  ],
  errorGroups: [
    {
      id: ERRORS,
      checkId: BROWSER,
      errorHash: 'h1',
      cleanedErrorMessage: 'Timeout waiting for selector "#login"',
      rawErrorMessage: 'Timeout 30000ms waiting for selector "#login"',
      firstSeen: '2026-11-01',
      lastSeen: '2026-11-20',
      archivedUntilNextEvent: false,
    },
  ],
  outcomes: { [BROWSER]: 'FAILED' },
};

let h: Awaited<ReturnType<typeof emulatorForTests>>;
const dir = mkdtempSync(join(tmpdir(), 'monitor-ops-'));
let env: Record<string, string>;

beforeAll(async () => {
  h = await emulatorForTests({
    fixture,
    clock: 'manual',
    agentHealthPort: 0,
    rcaDurationMs: 10_000,
    accounts: [
      { id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY], readOnlyKeys: [READ_ONLY_KEY] },
      { id: POOR_ACCOUNT, keys: ['mk_poor'], paymentRequired: ['rootCauseAnalyses.generateForErrorGroup'] },
    ],
  });
  env = { ...h.env, TZ: 'UTC' };
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => monitor(args, { cwd: dir, env });
const json = envelopeOf;

/** Run the CLI while emulator time moves 500 ms every 50 ms, so what it waits for happens. */
async function runWhileTimePasses(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  let child: ChildProcess | undefined;
  const ticking = setInterval(() => {
    if (child !== undefined) h.emulator.app.state.clock.advance(500);
  }, 50);
  try {
    return await monitor(args, {
      cwd: dir,
      env: { ...env, ...extraEnv },
      onSpawn: (c) => {
        child = c;
      },
    });
  } finally {
    clearInterval(ticking);
  }
}

const requestsTo = (operation: string) => h.emulator.requests.filter((r) => r.operation === operation);

describe('checks', () => {
  it('list: a table of the checks, filtered by tag (any of), type and group', async () => {
    const all = await run('checks', 'list');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^ID\s+NAME\s+TYPE\s+GROUP\s+EVERY\s+STATE\s+TAGS\n/);
    expect(all.stdout).toContain(`${API}  Payments API`);
    expect(all.stdout).toContain('4 checks');
    const prod = json(await run('checks', 'list', '--tag', 'prod', '--json'));
    expect(prod.result.checks.map((c: { id: string }) => c.id).sort()).toEqual([API, BROWSER]);
    const group = json(await run('checks', 'list', '--group', '5', '--json'));
    expect(group.result.checks.map((c: { id: string }) => c.id)).toEqual([API]);
    const none = await run('checks', 'list', '--type', 'DNS');
    expect(none.stdout).toBe('No checks match.\n');
  });

  it('get: one check; a malformed id is refused before any request, an unknown one says how to find it', async () => {
    const got = await run('checks', 'get', API, '--apply-group-settings');
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('request:   GET https://pay.example/health');
    expect(got.stdout).toContain('locations: eu-west-1, us-east-1');
    const before = h.emulator.requests.length;
    const bad = await run('checks', 'get', 'not-a-uuid');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: the check id must be a UUID');
    expect(h.emulator.requests.length).toBe(before);
    const unknown = json(await run('checks', 'get', '99999999-9999-4999-8999-999999999999', '--json'));
    expect(unknown.exitCode).toBe(1);
    expect(unknown.error).toMatchObject({
      code: 'not_found',
      hint: expect.stringContaining('monitor checks list'),
    });
  });
});

describe('trigger', () => {
  it('--wait: exit 0 when every check passed; heartbeats never run', async () => {
    const passed = await runWhileTimePasses(['trigger', '--tag', 'api', '--wait']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/passed\s+Payments API\s+API/);
    expect(passed.stdout).toContain('✓ 1 check: 1 passed, 0 failed');
    const everything = json(await runWhileTimePasses(['trigger', '--wait', '--json']));
    expect(everything.result.sessions.map((s: { name: string }) => s.name).sort()).toEqual([
      'E2E suite',
      'Login | flow <web>',
      'Payments API',
    ]);
  });

  it('selects with matchTags: AND inside one --tag, OR across them; --check and --group add checks', async () => {
    const both = json(await run('trigger', '--tag', 'api,prod', '--tag', 'e2e', '--json'));
    expect(both.result.triggered.map((s: { name: string }) => s.name).sort()).toEqual([
      'E2E suite',
      'Payments API',
    ]);
    const neither = await run('trigger', '--tag', 'api,web');
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('No matching checks were found.');
    expect(neither.stderr).toContain('hint: no activated check matches');
    const byGroup = json(await run('trigger', '--group', '5', '--json'));
    expect(byGroup.result.triggered.map((s: { checkId: string }) => s.checkId)).toEqual([API]);
    const started = await run('trigger', '--check', SUITE);
    expect(started.stdout).toMatch(
      /Started 1 check session; wait for them with: monitor sessions wait [0-9a-f-]{36}\n/,
    );
    const noGroup = await run('trigger', '--group', '77');
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toContain('check group 77 has no checks');
  });

  it('--wait --reporter junit: XML a CI test report reads, exit 1 when a check failed', async () => {
    const result = await runWhileTimePasses(['trigger', '--tag', 'prod', '--wait', '--reporter', 'junit']);
    expect(result.code).toBe(1);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(result.stdout);
    expect(xml.testsuites).toMatchObject({ name: 'monitor', tests: '2', failures: '1', errors: '0' });
    const cases = [xml.testsuites.testsuite.testcase].flat();
    const failed = cases.find((c: { name: string }) => c.name === 'Login | flow <web>');
    expect(failed.failure).toMatchObject({ type: 'FAILED', message: 'FAILED in eu-west-1' });
    expect(cases.find((c: { name: string }) => c.name === 'Payments API').failure).toBeUndefined();
    // Progress went to stderr, so stdout is the XML alone.
    expect(result.stderr).toContain('✗ Login | flow <web>: FAILED in eu-west-1');
  });

  it('--wait --reporter github: a markdown summary in $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(dir, 'summary.md');
    const result = await runWhileTimePasses(['trigger', '--tag', 'prod', '--wait', '--reporter', 'github'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(result.code).toBe(1);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### ❌ monitor: 2 checks: 1 passed, 1 failed');
    // The name is text: its pipe cannot end the cell, nor <web> become HTML.
    expect(md).toContain('| ❌ FAILED | Login &#124; flow &lt;web&gt; | BROWSER |');
    expect(md).toContain('| ✅ PASSED | Payments API | API |');
  });

  it('--wait --timeout: exit 7, the sessions named as still running, and the command that resumes', async () => {
    const result = await run('trigger', '--tag', 'api', '--wait', '--timeout', '1.5', '--reporter', 'junit');
    expect(result.code).toBe(7);
    const id = /monitor sessions wait ([0-9a-f-]{36})/.exec(result.stderr)?.[1];
    expect(result.stderr).toContain('error: timed out after 1.5 s: 1 session still running');
    expect(result.stdout).toContain(
      `<error type="TIMEOUT" message="still running after 1.5 s">session ${id}; resume with monitor sessions wait ${id}</error>`,
    );
    // The 408s of the completion long poll were honoured, not treated as errors.
    expect(requestsTo('checkSessions.completion').some((r) => r.status === 408)).toBe(true);

    const resumed = await runWhileTimePasses(['sessions', 'wait', id ?? '']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('1 check: 1 passed');
  });

  it('--reporter without --wait, or junit with --json, is a usage error', async () => {
    const result = await run('trigger', '--reporter', 'junit');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--reporter junit reports results: it needs --wait');
    const both = await run('trigger', '--wait', '--reporter', 'junit', '--json');
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('"message": "--reporter junit and --json both want stdout"');
  });

  it('a read-only key is refused with 403 and a hint', async () => {
    const result = await monitor(['trigger', '--tag', 'api'], {
      cwd: dir,
      env: { ...env, MONITOR_API_KEY: READ_ONLY_KEY },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/403/);
    expect(result.stderr).toContain('hint:');
  });
});

describe('sessions and results', () => {
  it('Ctrl-C while waiting leaves the session running and prints how to resume (exit 130)', async () => {
    const started = json(await run('trigger', '--tag', 'api', '--json'));
    const id = started.result.triggered[0].checkSessionId as string;
    // --debug logs each request as it leaves: SIGINT goes once the first long poll is in flight.
    const waiting = monitor(['sessions', 'wait', id, '--debug'], {
      cwd: dir,
      env,
      onSpawn: (child) => {
        let sent = false;
        child.stderr?.on('data', (d: Buffer) => {
          if (sent || !d.toString().includes('→ GET') || !d.toString().includes('/completion?')) return;
          sent = true;
          child.kill('SIGINT');
        });
      },
    });
    const result = await waiting;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('interrupted: 1 session still running (they go on in the service)');
    expect(result.stderr).toContain(`resume with: monitor sessions wait ${id}`);
  });

  it('sessions get shows each location, results get the request, response and assertions of an API run', async () => {
    const done = json(await runWhileTimePasses(['trigger', '--check', API, '--wait', '--json']));
    const session = done.result.sessions[0];
    const shown = await run('sessions', 'get', session.checkSessionId);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('status:  PASSED');
    expect(shown.stdout).toMatch(/eu-west-1\s+passed\s+FINAL/);
    expect(shown.stdout).toContain(`Details of a result: monitor results get ${API} `);
    const resultId = session.results[0].checkResultId;
    const result = await run('results', 'get', API, resultId);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Request\n    GET https://pay.example/health');
    expect(result.stdout).toContain('Response\n    status 200');
    expect(result.stdout).toContain('✓ STATUS_CODE EQUALS "200", got "200"');
    const missing = await run('sessions', 'get', '99999999-9999-4999-8999-999999999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('hint: no check session 99999999-9999-4999-8999-999999999999');
  });
});

describe('test-sessions cancel', () => {
  it('cancels the Playwright run of a test session; waiting then reports it CANCELLED (exit 1)', async () => {
    const started = json(await run('trigger', '--tag', 'e2e', '--json'));
    const session = started.result.triggered[0];
    const cancelled = await run('test-sessions', 'cancel', session.testSessionId);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain('Only Playwright check suites are cancelled');
    const waited = await runWhileTimePasses(['sessions', 'wait', session.checkSessionId]);
    expect(waited.code).toBe(1);
    expect(waited.stdout).toMatch(/cancelled\s+E2E suite/);
    const bad = await run('test-sessions', 'cancel', session.testSessionId, '--sequence-id', 'nope');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--sequence-id must be a UUID');
  });
});

describe('error groups and root cause analyses', () => {
  it('lists and shows error groups, with the next command to run', async () => {
    const listed = await run('error-groups', 'list');
    expect(listed.stdout).toMatch(
      new RegExp(`${ERRORS}\\s+Timeout waiting for selector "#login"\\s+2026-11-20\\s`),
    );
    const shown = await run('error-groups', 'get', ERRORS);
    expect(shown.stdout).toContain('raw message: Timeout 30000ms waiting for selector "#login"');
    expect(shown.stdout).toContain(`Ask for a root cause analysis: monitor rca generate ${ERRORS} --wait`);
  });

  it('rca generate --wait goes from PENDING to COMPLETED and shows the analysis', async () => {
    const result = await runWhileTimePasses([
      'rca',
      'generate',
      ERRORS,
      '--context',
      'after the 14:00 deploy',
      '--wait',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Requested root cause analysis \S+ \(PENDING\)/);
    expect(result.stdout).toContain('status:      COMPLETED');
    expect(result.stdout).toContain('Root cause\n    ');
    const id = /analysis:\s+(\S+)/.exec(result.stdout)?.[1] ?? '';
    expect((await run('rca', 'get', id)).stdout).toContain('Root cause');
  });

  it('rca get of a pending analysis says so; --wait --timeout gives up with exit 7 and how to read it later', async () => {
    const requested = json(await run('rca', 'generate', ERRORS, '--json'));
    const id = requested.result.requested.id as string;
    expect((await run('rca', 'get', id)).stdout).toContain(
      `analysis ${id}: PENDING; wait for it with monitor rca get ${id} --wait`,
    );
    const late = await run('rca', 'get', id, '--wait', '--timeout', '1');
    expect(late.code).toBe(7);
    expect(late.stderr).toContain(`hint: read it later with monitor rca get ${id} --wait`);
  });

  it('refuses a context over 256 characters before any request, and explains a 402', async () => {
    const before = requestsTo('rootCauseAnalyses.generateForErrorGroup').length;
    const long = await run('rca', 'generate', ERRORS, '--context', 'x'.repeat(257));
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('--context is 257 characters; the service takes at most 256');
    expect(requestsTo('rootCauseAnalyses.generateForErrorGroup').length).toBe(before);
    const poor = await monitor(['rca', 'generate', ERRORS], {
      cwd: dir,
      env: { ...env, MONITOR_API_KEY: 'mk_poor', MONITOR_ACCOUNT_ID: POOR_ACCOUNT },
    });
    expect(poor.code).toBe(1);
    expect(poor.stderr).toContain("hint: the account's plan does not include root cause analyses");
  });
});

describe('agent health', () => {
  const agentUrl = () => h.emulator.agentHealthUrl ?? '';

  it('exit 0 when live and ready; 1 with the reason when it shuts down; --wait-ready gives up with 7', async () => {
    const ok = await run('agent', 'health', '--url', agentUrl());
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/\/-\/readiness\s+200\s+yes/);
    await fetch(`${h.emulator.url}/_emulator/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ready":false}',
    });
    try {
      const down = await run('agent', 'health', '--url', agentUrl());
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('is not ready (503: shutting down)');
      const gate = await run(
        'agent',
        'health',
        '--url',
        agentUrl(),
        '--wait-ready',
        '--timeout',
        '1',
        '--interval',
        '0.2',
      );
      expect(gate.code).toBe(7);
      expect(gate.stderr).toContain('not ready yet: /-/readiness 503');
    } finally {
      await fetch(`${h.emulator.url}/_emulator/agent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ready":true}',
      });
    }
    const nobody = json(await run('agent', 'health', '--url', 'http://127.0.0.1:9', '--json'));
    expect(nobody.exitCode).toBe(1);
    expect(nobody.error?.message).toBe('nothing answers at http://127.0.0.1:9');
    const bad = await run('agent', 'health', '--url', 'ftp://x');
    expect(bad.stderr).toContain('--url must be http or https');
  });
});

describe('--local', () => {
  it("works against the embedded emulator's account with no credentials", async () => {
    const local = mkdtempSync(join(tmpdir(), 'monitor-ops-local-'));
    try {
      const result = await monitor(['checks', 'list', '--local', '--json'], {
        cwd: local,
        env: { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '', MONITOR_BASE_URL: '' },
      });
      expect(result.code).toBe(0);
      expect(json(result).result.checks.length).toBeGreaterThan(3);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });
});

describe('bad input', () => {
  it('an unknown option or action is a usage error naming it, and nothing is sent', async () => {
    const before = h.emulator.requests.length;
    const flag = await run('checks', 'list', '--colour');
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('Unknown argument: colour');
    const verb = await run('checks', 'delete');
    expect(verb.code).toBe(1);
    expect(verb.stderr).toMatch(/Unknown argument: delete|name what to do: list, get/);
    const noVerb = await run('rca');
    expect(noVerb.stderr).toContain('name what to do: generate, get');
    expect(h.emulator.requests.length).toBe(before);
  });
});
