import { describe, expect, it } from 'vitest';
import { envelopeOf, writeFiles } from './support/harness.js';
import { projectsUnderTest } from './support/projects.js';

/**
 * Routing tests (issue 49 §3) end to end: `routingTests` in the config, judged by validate against
 * the code, by diff and deploy against the account once the plan is applied, and by
 * `monitor routes --test`; the built CLI against the emulator.
 */

const setup = projectsUnderTest();

const CONFIG = `import { defineConfig, expectRoutes } from '@monitor/constructs';

export default defineConfig({
  projectName: 'routing-tests',
  routingTests: [
    expectRoutes('payments-api', { failure: ['pagerduty-oncall'], recovery: ['pagerduty-oncall'] }),
    expectRoutes('search', { failure: { atLeast: ['slack-search'] } }),
    expectRoutes('payments-api', { failure: [], at: '2027-01-10T02:30:00Z' }), // silenced by the DB window
    expectRoutes('payments-api', { failure: ['pagerduty-oncall'], at: '2027-02-01T10:00:00Z' }),
  ],
});
`;

/** The project's groups, `payments` the channels of payments-api. */
const code = (
  payments: string,
) => `import { CheckGroup, MaintenanceWindow, PagerdutyAlertChannel, SlackAlertChannel } from '@monitor/constructs';
const oncall = new PagerdutyAlertChannel('pagerduty-oncall', { serviceKey: 'pd-key', serviceName: 'Payments' });
const slack = new SlackAlertChannel('slack-search', { url: 'https://hooks.slack.example/services/T0/B0/x', channel: '#search' });
new CheckGroup('payments-api', { name: 'Payments API', tags: ['payments'], alertChannels: [${payments}] });
new CheckGroup('search', { name: 'Search', alertChannels: [slack, oncall] });
new MaintenanceWindow('db-upgrade', {
  name: 'Database upgrade',
  startsAt: '2027-01-10T02:00:00Z',
  endsAt: '2027-01-10T04:00:00Z',
  silenceAlertsTags: ['payments'],
});
`;

const FAILURE_LINE =
  'monitor.config.ts:6:5  error  CheckGroup "payments-api"  failure: reaches Slack #search (slack-search); expected exactly pagerduty-oncall  [routing-test]';

describe('routing tests', () => {
  it('a routing test the code breaks fails validate at its line, diff and deploy refuse, and all pass once the code is fixed', async () => {
    const { h, dir, run } = await setup({
      'monitor.config.ts': CONFIG,
      'monitors/routes.monitor.ts': code('oncall'),
    });
    expect((await run('validate')).code).toBe(0);

    // Someone moves payments-api to the search channel.
    writeFiles(dir, { 'monitors/routes.monitor.ts': code('slack') });
    const broken = await run('validate');
    expect(broken.code).toBe(3);
    expect(broken.stdout).toContain(FAILURE_LINE);
    expect(broken.stdout).toContain(
      'monitor.config.ts:6:5  error  CheckGroup "payments-api"  recovery: reaches Slack #search (slack-search); expected exactly pagerduty-oncall  [routing-test]',
    );
    expect(broken.stdout).toContain(
      'monitor.config.ts:9:5  error  CheckGroup "payments-api"  failure: at 2027-02-01T10:00:00.000Z, reaches Slack #search (slack-search); expected exactly pagerduty-oncall  [routing-test]',
    );
    // The window's test still holds: nothing pages during it.
    expect(broken.stdout).not.toContain('monitor.config.ts:8:');
    const json = envelopeOf(await run('validate', '--json'));
    expect(
      json.diagnostics.filter((d) => d.policy === 'routing-test').map((d) => [d.file, d.line, d.path]),
    ).toEqual([
      ['monitor.config.ts', 6, 'failure'],
      ['monitor.config.ts', 6, 'recovery'],
      ['monitor.config.ts', 9, 'failure'],
    ]);

    const diff = await run('diff');
    expect(diff.code).toBe(3);
    // The plan lists them apart from the policies' findings, and counts them in its summary.
    expect(diff.stdout).toContain('Routing tests (3 errors): deploy refuses while an error stands:');
    expect(diff.stdout).toContain('error   CheckGroup payments-api  monitor.config.ts:6:5\n');
    expect(diff.stdout).toContain('3 routing tests failed.');
    const deploy = await run('deploy', '--yes');
    expect(deploy.code).toBe(3);
    expect(deploy.stderr).toContain(
      'error: 3 routing expectations not met: deploy refuses this plan; nothing was changed\nhint: each routing test above says who its group pages and what it expects: fix the code, or the test in the config if the route is right (monitor routes --test runs them alone)',
    );
    expect((await h.client.checkGroups.list()).items).toEqual([]);

    writeFiles(dir, { 'monitors/routes.monitor.ts': code('oncall') });
    expect((await run('validate')).code).toBe(0);
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await h.client.checkGroups.list()).items.map((g) => g.name).sort()).toEqual([
      'Payments API',
      'Search',
    ]);
  });

  it('routes --test runs only the routing tests, from the code without an account, and exits 3 on a failure', async () => {
    const { dir, run } = await setup({
      'monitor.config.ts': CONFIG,
      'monitors/routes.monitor.ts': code('oncall'),
    });
    // No account: the code alone.
    const offline = await run('routes', '--test');
    expect(offline.code).toBe(0);
    expect(offline.stdout.split('\n')).toEqual([
      'monitor.config.ts:6:5  ✓ payments-api failure: reaches PagerDuty (Payments) (pagerduty-oncall)',
      'monitor.config.ts:6:5  ✓ payments-api recovery: reaches PagerDuty (Payments) (pagerduty-oncall)',
      'monitor.config.ts:7:5  ✓ search failure: reaches Slack #search (slack-search), PagerDuty (Payments) (pagerduty-oncall)',
      'monitor.config.ts:8:5  ✓ payments-api failure: at 2027-01-10T02:30:00.000Z, reaches no one (silenced by “Database upgrade”)',
      'monitor.config.ts:9:5  ✓ payments-api failure: at 2027-02-01T10:00:00.000Z, reaches PagerDuty (Payments) (pagerduty-oncall)',
      '5 routing expectations against the code: 5 passed, 0 failed',
      '',
    ]);
    writeFiles(dir, { 'monitors/routes.monitor.ts': code('slack') });
    const failing = await run('routes', '--test', '--json');
    expect(failing.code).toBe(3);
    const envelope = envelopeOf(failing);
    expect(envelope.result.summary).toEqual({ passed: 2, failed: 3, unjudged: 0, invalid: 0 });
    expect(envelope.error?.code).toBe('routing_tests_failed');
    expect(envelope.result.tests[0]).toMatchObject({
      status: 'failed',
      group: 'payments-api',
      event: 'failure',
      expected: { match: 'exactly', channels: ['pagerduty-oncall'] },
      found: [{ channel: 'slack-search', label: 'Slack #search' }],
      file: 'monitor.config.ts',
      line: 6,
    });
    // Only the tests of the groups named.
    const search = await run('routes', '--test', 'search');
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('1 routing expectation against the code: 1 passed, 0 failed');
    // A picture is not a test result.
    const both = await run('routes', '--test', '--format', 'mermaid');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(
      "error: --test prints the tests' results, not a picture: it cannot be given with --format mermaid",
    );
    expect(both.stderr).toContain('hint: run monitor routes --format mermaid on its own for the picture');
  });

  it('diff, deploy and routes --test --live judge the account once the plan is applied: a window made in the UI counts', async () => {
    const { h, run } = await setup({
      'monitor.config.ts': CONFIG,
      'monitors/routes.monitor.ts': code('oncall'),
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    // A window someone made in the UI, owned by no project, silences every alert on 1 February.
    await h.client.maintenanceWindows.create({
      name: 'Office move',
      startsAt: '2027-02-01T09:00:00.000Z',
      endsAt: '2027-02-01T11:00:00.000Z',
      repeatUnit: null,
      silenceAllAlerts: true,
    });
    // The code alone does not know it.
    expect((await run('validate')).code).toBe(0);
    expect((await run('routes', '--test')).code).toBe(0);
    const live = await run('routes', '--test', '--live');
    expect(live.code).toBe(3);
    expect(live.stdout).toContain(
      'monitor.config.ts:9:5  ✗ payments-api failure: at 2027-02-01T10:00:00.000Z, reaches no one (silenced by “Office move”); expected exactly pagerduty-oncall',
    );
    expect(live.stdout).toContain(
      '5 routing expectations against the account once the code is deployed: 4 passed, 1 failed',
    );
    expect((await run('diff')).code).toBe(3);
  });

  it('a routing test written wrong is an error at its line with a hint, and an entry that is not one is a config error', async () => {
    const { dir, run } = await setup({
      'monitor.config.ts': CONFIG.replace(
        "expectRoutes('search', { failure: { atLeast: ['slack-search'] } }),",
        "expectRoutes('serch', { failures: ['slack-search'] } as never),",
      ),
      'monitors/routes.monitor.ts': code('oncall'),
    });
    const r = await run('validate');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      'monitor.config.ts:7:5  error  CheckGroup "serch"  routing test: failures is not an event routing knows: failure, degraded, recovery, sslExpiry  [routing-test]\n    hint: did you mean failure?',
    );
    writeFiles(dir, {
      'monitor.config.ts': CONFIG.replace(
        "expectRoutes('search', { failure: { atLeast: ['slack-search'] } }),",
        "expectRoutes('serch', { failure: ['slack-search'] }),",
      ),
    });
    const unknown = await run('validate');
    expect(unknown.stdout).toContain(
      'monitor.config.ts:7:5  error  CheckGroup "serch"  the project has no check group serch  [routing-test]\n    hint: did you mean search?',
    );
    writeFiles(dir, {
      'monitor.config.ts': CONFIG.replace(
        "expectRoutes('search', { failure: { atLeast: ['slack-search'] } }),",
        "{ group: 'search', failure: ['slack-search'] } as never,",
      ),
    });
    const notATest = await run('validate');
    expect(notATest.code).toBe(3);
    expect(notATest.stdout).toContain(
      "config routingTests[1]: is not a routing test: make each with expectRoutes(group, { failure: [...] }) from '@monitor/constructs'",
    );
  });
});
