import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ACCOUNT_ID, type Fixture } from '@monitor/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorForTests, envelopeOf, monitor } from './support/harness.js';

/** Analytics, private-location metrics, incidents and subscriptions from the CLI, against the emulator. */

const API = '11111111-1111-4111-8111-111111111111';
const PING = '55555555-5555-4555-8555-555555555555';
const LOCATION = '66666666-6666-4666-8666-666666666666';
const SERVICE = '77777777-7777-4777-8777-777777777777';

const fixture: Fixture = {
  checks: [
    {
      id: API,
      checkType: 'API',
      name: 'Payments API',
      tags: ['api', 'prod'],
      locations: ['eu-west-1', 'us-east-1'],
    },
    { id: PING, checkType: 'ICMP', name: 'Edge ping', tags: ['network'] },
  ],
  privateLocations: [{ id: LOCATION, name: 'Datacenter Amsterdam' }],
  services: [{ id: SERVICE, name: 'Checkout' }],
};

let h: Awaited<ReturnType<typeof emulatorForTests>>;
const dir = mkdtempSync(join(tmpdir(), 'monitor-ops-data-'));
let env: Record<string, string>;

beforeAll(async () => {
  h = await emulatorForTests({ fixture });
  env = { ...h.env, TZ: 'UTC' };
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => monitor(args, { cwd: dir, env });
const json = envelopeOf;

describe('analytics', () => {
  it('summary: one row per check, response times for API checks and latency and loss for ICMP', async () => {
    const result = await run('analytics', 'summary', '--range', 'last7Days');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^CHECK\s+TYPE\s+AVAILABILITY\s+AVG\s+P50\s+P95\s+P99\s+LOSS\n/);
    expect(result.stdout).toMatch(
      /Payments API\s+API\s+\d+\.\d\d %\s+\d+ ms\s+\d+ ms\s+\d+ ms\s+\d+ ms\s+-\n/,
    );
    expect(result.stdout).toMatch(/Edge ping\s+ICMP\s+\d+\.\d\d %(\s+\d+ ms){4}\s+\d+\.\d\d %\n/);
    expect((await run('analytics', 'summary', '--range', 'last30Days')).stderr).toContain('Invalid values');
    const csv = await run('analytics', 'summary', API, '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('checkId,name,checkType,availability,avg,p50,p95,p99,loss');
    expect(csv.stdout.split('\n')[1]).toMatch(new RegExp(`^${API},Payments API,API,\\d`));
  });

  it('api-check: a chart per metric above the table, one line per location with --group-by', async () => {
    const result = await run(
      'analytics',
      'api-check',
      API,
      '--metrics',
      'responseTime_p95',
      '--group-by',
      'runLocation',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Response Time p95: eu-west-1\n');
    expect(result.stdout).toContain('Response Time p95: us-east-1\n');
    expect(result.stdout).toMatch(/ ms ┤/);
    expect(result.stdout).toMatch(/TIME\s+LOCATION\s+RESPONSE TIME P95\n/);
    // 24 hours in points of 15 minutes: 96 per location, read over pages of 100.
    const data = json(await run('analytics', 'api-check', API, '--group-by', 'runLocation', '--json'));
    expect(data.result.aggregationInterval).toBe(15);
    expect(data.result.series.map((s: { data: unknown[] }) => s.data.length)).toEqual([96, 96]);
    const csv = await run('analytics', 'api-check', API, '--metrics', 'availability', '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('timestamp,availability');
  });

  it('refuses unknown metrics, two windows and a reversed window before any request', async () => {
    const before = h.emulator.requests.length;
    const metric = await run('analytics', 'api-check', API, '--metrics', 'speed');
    expect(metric.code).toBe(1);
    expect(metric.stderr).toContain('unknown metric: speed');
    expect(metric.stderr).toContain('responseTime_p95');
    expect(
      (await run('analytics', 'api-check', API, '--range', 'last7Days', '--from', '2h')).stderr,
    ).toContain('--range and --from/--to choose the window twice');
    expect((await run('analytics', 'api-check', API, '--from', '1h', '--to', '2h')).stderr).toContain(
      'must be before --to',
    );
    expect(h.emulator.requests.length).toBe(before);
    const notApi = json(await run('analytics', 'api-check', PING, '--json'));
    expect(notApi.error?.code).toBe('not_found');
  });
});

describe('private-locations metrics', () => {
  it('charts the queue, and refuses a window starting 15 days ago or more before asking', async () => {
    const result = await run('private-locations', 'metrics', LOCATION, '--from', '6h');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Queue size (check runs waiting)\n');
    expect(result.stdout).toMatch(/TIME\s+QUEUE\s+OLDEST SCHEDULED\n/);
    const before = h.emulator.requests.length;
    const old = await run('private-locations', 'metrics', LOCATION, '--from', '16d');
    expect(old.code).toBe(1);
    expect(old.stderr).toContain(
      '--from is 16.0 days ago; the service keeps private-location metrics for 15 days',
    );
    expect(h.emulator.requests.length).toBe(before);
    const missing = await run('private-locations', 'metrics', 'nowhere');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('hint: no private location nowhere');
  });

  it('says where private-location ids come from: without an id, on a wrong one, and in --help', async () => {
    const where = "a private location's id is on its page in the service's web app (Private locations)";
    const none = await run('private-locations', 'metrics');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: name the private location: monitor private-locations metrics <id>');
    expect(none.stderr).toContain(`hint: ${where}; the service API has no list of them`);
    const wrong = await run('private-locations', 'metrics', 'dc-ams');
    expect(wrong.stderr).toContain(`hint: no private location dc-ams in account ${DEV_ACCOUNT_ID}; ${where}`);
    const help = await run('private-locations', 'metrics', '--help');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`Where ids come from: ${where}`);
  });
});

describe('dashboard incidents', () => {
  it('open, post updates, change, resolve and delete one; the dashboard found by its dashboardId', async () => {
    const board = await h.client.dashboards.create({ header: 'Acme', customUrl: 'acme-ops-incidents' });
    const opened = json(
      await run(
        'incidents',
        'create',
        '--dashboard',
        board.dashboardId,
        '--name',
        'Checkout errors',
        '--impact',
        'MAJOR',
        '--message',
        'Looking into it',
        '--json',
      ),
    );
    const id = opened.result.incident.id as string;
    expect(opened.result.incident).toMatchObject({
      name: 'Checkout errors',
      impact: 'MAJOR',
      dashboardId: board.id,
    });
    const posted = await run(
      'incidents',
      'add-update',
      id,
      '--status',
      'IDENTIFIED',
      '--message',
      'A bad deploy',
    );
    expect(posted.stdout).toMatch(/IDENTIFIED\s+A bad deploy/);
    expect(posted.stdout).toMatch(/INVESTIGATING\s+Looking into it/);
    expect((await run('incidents', 'update', id, '--impact', 'MINOR')).stdout).toContain('impact:    MINOR');
    const resolved = await run('incidents', 'resolve', id);
    expect(resolved.stdout).toMatch(/RESOLVED\s+This incident has been resolved\./);
    expect(resolved.stdout).not.toContain('stopped:   ongoing');
    expect((await run('incidents', 'update', id)).stderr).toContain('nothing to change');
    expect((await run('incidents', 'delete', id)).stdout).toBe(`Deleted incident ${id}.\n`);
    const gone = await run('incidents', 'get', id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('the service has no list of dashboard incidents');
  });
});

describe('status pages', () => {
  it('incidents: open one on a service, post an update, resolve, list the open ones', async () => {
    const opened = json(
      await run(
        'status-pages',
        'incidents',
        'create',
        '--name',
        'Slow checkout',
        '--service',
        SERVICE,
        '--message',
        'Investigating',
        '--notify',
        '--json',
      ),
    );
    const id = opened.result.incident.id as string;
    expect(opened.result.incident.services).toMatchObject([
      { id: SERVICE, name: 'Checkout', accountId: DEV_ACCOUNT_ID },
    ]);
    expect((await run('status-pages', 'incidents', 'list', '--open')).stdout).toContain(id);
    await run(
      'status-pages',
      'incidents',
      'add-update',
      id,
      '--status',
      'MONITORING',
      '--message',
      'A fix is out',
    );
    const resolved = await run('status-pages', 'incidents', 'resolve', id);
    expect(resolved.stdout).toMatch(/RESOLVED\s+no\s+This incident has been resolved\./);
    expect(resolved.stdout).toMatch(/MONITORING\s+no\s+A fix is out/);
    expect(resolved.stdout).toMatch(/INVESTIGATING\s+yes\s+Investigating/);
    expect((await run('status-pages', 'incidents', 'list', '--open')).stdout).not.toContain(id);
    const renamed = await run(
      'status-pages',
      'incidents',
      'update',
      id,
      '--name',
      'Slow checkout in EU',
      '--severity',
      'MAJOR',
    );
    expect(renamed.stdout).toContain('name:     Slow checkout in EU');
    expect(renamed.stdout).toContain('severity: MAJOR');
    expect((await run('status-pages', 'incidents', 'get', id)).stdout).toContain('services: Checkout');
    expect((await run('status-pages', 'incidents', 'delete', id)).stdout).toBe(
      `Deleted status-page incident ${id}.\n`,
    );
    expect((await run('status-pages', 'incidents', 'get', id)).stderr).toContain(
      `hint: no status-page incident ${id}`,
    );
    const unknown = await run(
      'status-pages',
      'incidents',
      'create',
      '--name',
      'x',
      '--service',
      'nope',
      '--message',
      'y',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no status-page service nope');
  });

  it('subscriptions delete: 204 removes it; a second time says it is not there', async () => {
    const page = await h.client.statusPages.create({
      name: 'Acme status',
      url: 'acme-ops-subscriptions',
      cards: [{ name: 'Core', services: [{ id: SERVICE }] }],
    });
    const subscription = '88888888-8888-4888-8888-888888888888';
    await fetch(`${h.emulator.url}/_emulator/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        fixture: { statusPageSubscriptions: [{ id: subscription, statusPageId: page.id }] },
      }),
    });
    const removed = await run('status-pages', 'subscriptions', 'delete', page.id, subscription);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed subscription ${subscription} from status page ${page.id}.\n`);
    expect(h.emulator.requests.at(-1)).toMatchObject({ method: 'DELETE', status: 204 });
    const again = await run('status-pages', 'subscriptions', 'delete', page.id, subscription);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`hint: no subscription ${subscription} on status page ${page.id}`);
  });
});
