import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  emulatorForTests,
  envelopeOf,
  monitor,
  writeFiles,
  writeProject,
} from './support/harness.js';
import { IMPORTS } from './support/projects.js';

/**
 * `deploy --verify` and `monitor verify` end to end: the built CLI against the emulator, whose
 * checks run in real time (a passing run about a second, a failing one three one-second attempts)
 * and fail by rule per group and location.
 */

const PAY_API = '51111111-1111-4111-8111-111111111111';
const PAY_FLOW = '52222222-2222-4222-8222-222222222222';
const SEARCH_API = '53333333-3333-4333-8333-333333333333';

interface Layout {
  payments: string[];
  concurrency?: number;
  searchName?: string;
}

const project = ({ payments, concurrency = 1, searchName = 'Search' }: Layout) => `${IMPORTS}
const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
new CheckGroup('payments', {
  name: 'Payments',
  locations: ${JSON.stringify(payments)},
  concurrency: ${concurrency},
  alertChannels: [mail],
});
new CheckGroup('search', { name: '${searchName}', locations: ['eu-west-1'], alertChannels: [mail] });
`;

type Harness = Awaited<ReturnType<typeof emulatorForTests>>;

async function emulatorCall(h: Harness, method: string, path: string, body: unknown): Promise<void> {
  const r = await fetch(`${h.emulator.url}/_emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
}

/** A deployed project whose groups hold checks: payments two, search one. */
async function deployedProject(h: Harness) {
  const dir = writeProject({ 'monitors/groups.monitor.ts': project({ payments: ['eu-west-1'] }) });
  const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
  const first = await run('deploy', '--yes');
  expect(first.code, first.stderr).toBe(0);
  const outputs = envelopeOf(await run('output', '--json')).result.outputs as {
    key: string;
    physicalId: number;
  }[];
  const idOf = (key: string) => Number(outputs.find((o) => o.key === key)?.physicalId);
  const check = (id: string, name: string, checkType: string, group: string) => ({
    id,
    checkType,
    name,
    activated: true,
    muted: false,
    frequency: 5,
    locations: ['eu-west-1'],
    tags: [],
    groupId: idOf(group),
    request: { method: 'GET', url: 'https://api.example.com' },
  });
  await emulatorCall(h, 'POST', 'seed', {
    fixture: {
      checks: [
        check(PAY_API, 'Pay API', 'API', 'CheckGroup:payments'),
        check(PAY_FLOW, 'Checkout | flow', 'BROWSER', 'CheckGroup:payments'),
        check(SEARCH_API, 'Search API', 'API', 'CheckGroup:search'),
      ],
    },
  });
  const write = (layout: Layout) => writeFiles(dir, { 'monitors/groups.monitor.ts': project(layout) });
  return { dir, run, write, paymentsId: idOf('CheckGroup:payments') };
}

describe('deploy --verify and monitor verify', () => {
  let h: Harness;
  let p: Awaited<ReturnType<typeof deployedProject>>;
  beforeAll(async () => {
    h = await emulatorForTests({ rcaDurationMs: 200 });
    p = await deployedProject(h);
  });
  afterAll(async () => {
    cleanup(p.dir);
    await h.close();
  });

  it('runs the checks of the group the deploy changed in a way that affects runs: all pass', async () => {
    p.write({ payments: ['eu-west-1', 'us-east-1'] });
    const r = await p.run('deploy', '--yes', '--verify');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Verifying 1 check group (payments): running their checks…');
    expect(r.stdout).toContain('Verification:\n');
    expect(r.stdout).toContain('✓ Pay API (CheckGroup:payments): passed');
    expect(r.stdout).toContain('✓ Checkout | flow (CheckGroup:payments): passed');
    expect(r.stdout).not.toContain('Search API');
    expect(r.stdout).toContain('✓ 2 checks in 1 group: 2 passed');
  });

  it('a change that cannot affect a run (a name) runs nothing', async () => {
    p.write({ payments: ['eu-west-1', 'us-east-1'], searchName: 'Search (renamed)' });
    const before = h.emulator.requests.length;
    const r = await p.run('deploy', '--yes', '--verify');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ nothing to verify: no check group changed in a way that affects its runs');
    expect(h.emulator.requests.slice(before).some((q) => q.path.includes('/trigger'))).toBe(false);
  });

  it('a check that breaks with the deploy: exit 8, the deploy stays applied, and how to look closer', async () => {
    await emulatorCall(h, 'PUT', 'outcome-rules', {
      rules: [
        {
          groupId: p.paymentsId,
          location: 'ap-south-1',
          outcome: 'FAILED',
          error: 'Assertion failed: status 200 expected, got 503',
        },
      ],
    });
    p.write({ payments: ['eu-west-1', 'ap-south-1'], searchName: 'Search (renamed)' });
    const r = await p.run('deploy', '--yes', '--verify');
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toContain('✗ Pay API (CheckGroup:payments): broke with this deploy');
    expect(r.stdout).toMatch(
      /\n {6}ap-south-1 \(new location\): Assertion failed: status 200 expected, got 503 \(error group [\w-]+, new\)\n/,
    );
    // Beside the failure, what the deploy changed in its group.
    expect(r.stdout).toContain(
      '      changed by this deploy in CheckGroup:payments: locations: + ap-south-1, - us-east-1\n',
    );
    expect(r.stderr).toMatch(
      /error: verification failed: 2 checks in 1 group: 2 broke with this deploy\. The deploy stays applied: nothing is rolled back\./,
    );
    expect(r.stderr).toMatch(/see Pay API: monitor sessions get [\w-]+\n/);
    // Against the baseline the deploy kept: what broke with it is not "still failing" then.
    expect(r.stderr).toContain('verify again: monitor verify --since-deploy --target payments\n');
    // Applied: the account matches the code.
    expect((await p.run('diff', '--detailed-exitcode')).code).toBe(0);
  });

  it('a check that was failing before is told apart: not this deploy’s fault, unless strict', async () => {
    p.write({ payments: ['eu-west-1', 'ap-south-1'], concurrency: 2, searchName: 'Search (renamed)' });
    const r = await p.run('deploy', '--yes', '--verify');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✗ Pay API (CheckGroup:payments): failing before and after');
    // Not counted without strict (exit 0), but the summary's mark follows the rows: not a ✓.
    expect(r.stdout).toContain('✗ 2 checks in 1 group: 2 failing before and after');

    const again = await p.run('verify', '--target', 'payments');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('✗ Pay API (CheckGroup:payments): still failing');
    const strict = await p.run('verify', '--target', 'payments', '--strict');
    expect(strict.code).toBe(8);
    expect(strict.stdout).toContain('(strict)');
    expect(strict.stderr).not.toContain('rolled back');
    expect(strict.stderr).toContain('verify again: monitor verify --target payments --strict\n');
  });

  it('the same report as JUnit on stdout (the rest on stderr), and in the --json envelope', async () => {
    const junit = await p.run('verify', '--strict', '--reporter', 'junit');
    expect(junit.code).toBe(8);
    expect(junit.stderr).toContain('Verification:');
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit.stdout);
    const suite = xml.testsuites.testsuite;
    expect(suite.name).toBe('monitor verification');
    expect(Number(suite.tests)).toBe(3);
    expect(Number(suite.failures)).toBe(2);
    const cases = suite.testcase as { name: string; classname: string; failure?: { '#text': string } }[];
    expect(cases.find((c) => c.name === 'Pay API')?.failure?.['#text']).toContain(
      'ap-south-1: Assertion failed: status 200 expected, got 503',
    );
    expect(cases.find((c) => c.name === 'Search API')?.classname).toBe('monitor.verify.CheckGroup:search');

    // Without strict, a check failing before too is a skipped case, with its error.
    const lenient = await p.run('verify', '--target', 'payments', '--reporter', 'junit');
    expect(lenient.code).toBe(0);
    const skipped = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(lenient.stdout)
      .testsuites.testsuite;
    expect([skipped.failures, skipped.skipped]).toEqual(['0', '2']);
    expect(skipped.testcase[0].skipped['#text']).toContain('ap-south-1: Assertion failed');

    const json = envelopeOf(await p.run('verify', '--target', 'payments', '--strict', '--json'));
    expect(json.exitCode).toBe(8);
    expect(json.error?.code).toBe('verification_failed');
    const report = json.result.verification;
    expect(report).toMatchObject({ outcome: 'failed', strict: true, context: 'verify' });
    expect(report.runs.map((r: { name: string }) => r.name).sort()).toEqual(['Checkout | flow', 'Pay API']);
    expect(report.runs[0].failures[0]).toMatchObject({
      location: 'ap-south-1',
      error: 'Assertion failed: status 200 expected, got 503',
    });
  });

  it('with --rca, a new error group gets an analysis that completes, and one that does not is said to be pending', async () => {
    await emulatorCall(h, 'PUT', 'outcome-rules', {
      rules: [
        { groupId: p.paymentsId, location: 'sa-east-1', outcome: 'FAILED', error: 'TLS handshake timed out' },
      ],
    });
    p.write({ payments: ['eu-west-1', 'sa-east-1'], concurrency: 2, searchName: 'Search (renamed)' });
    const done = await p.run('deploy', '--yes', '--verify', '--rca');
    expect(done.code, done.stdout + done.stderr).toBe(8);
    expect(done.stdout).toMatch(
      /sa-east-1 \(new location\): TLS handshake timed out \(error group [\w-]+, new\)\n {6}root cause: /,
    );

    await emulatorCall(h, 'PUT', 'root-cause-analyses', { durationMs: 600_000 });
    await emulatorCall(h, 'PUT', 'outcome-rules', { rules: [] });
    expect((await p.run('verify', '--target', 'payments')).code).toBe(0);
    await emulatorCall(h, 'PUT', 'outcome-rules', {
      rules: [
        { groupId: p.paymentsId, location: 'us-west-2', outcome: 'FAILED', error: 'DNS lookup failed' },
      ],
    });
    p.write({ payments: ['eu-west-1', 'us-west-2'], concurrency: 2, searchName: 'Search (renamed)' });
    const pending = await p.run('deploy', '--yes', '--verify', '--rca', '--verify-timeout', '8');
    expect(pending.code, pending.stderr).toBe(8);
    expect(pending.stdout).toContain(
      'root cause analysis pending: still being generated at the verification deadline',
    );
    expect(pending.stderr).toContain('verify again: monitor verify --since-deploy --target payments --rca\n');
    await emulatorCall(h, 'PUT', 'root-cause-analyses', { durationMs: 200 });
  });

  it('runs still going at --verify-timeout: exit 7, and the command that waits for them', async () => {
    const r = await p.run('verify', '--target', 'payments', '--verify-timeout', '1');
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toContain('…');
    expect(r.stderr).toMatch(/error: verification timed out after 1 s: 2 sessions still running\./);
    expect(r.stderr).toMatch(/wait for them: monitor sessions wait [\w-]+ [\w-]+\n/);
  });

  it('Ctrl-C during the wait: exit 130, the sessions go on, and the command to verify again', async () => {
    const r = await monitor(['verify', '--target', 'payments', '--debug'], {
      cwd: p.dir,
      env: h.env,
      onSpawn: (child) => {
        let sent = false;
        child.stderr?.on('data', (d: Buffer) => {
          if (sent || !d.toString().includes('/completion?')) return;
          sent = true;
          child.kill('SIGINT');
        });
      },
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(
      'verification interrupted: 2 sessions still running (they go on in the service)',
    );
    expect(r.stderr).toContain('verify again: monitor verify --target payments\n');
  });

  it('--since-deploy verifies what the last deploy changed; what cannot be verified is refused, naming it', async () => {
    await emulatorCall(h, 'PUT', 'outcome-rules', { rules: [] });
    const since = await p.run('verify', '--since-deploy');
    expect(since.code, since.stderr).toBe(0);
    expect(since.stderr).toContain('Verifying 1 check group (payments)');

    const channel = await p.run('verify', '--target', 'mail');
    expect(channel.code).toBe(1);
    expect(channel.stderr).toContain(
      '--target AlertChannel:mail is a AlertChannel: verify runs the checks of check groups',
    );
    const unknown = await p.run('verify', '--target', 'paymnets');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('payments');

    const fresh = writeProject(
      { 'monitors/groups.monitor.ts': project({ payments: ['eu-west-1'] }) },
      'fresh',
    );
    try {
      const none = await monitor(['verify', '--since-deploy'], { cwd: fresh, env: h.env });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('records no deploy yet');
    } finally {
      cleanup(fresh);
    }
  });

  it('options about verification without --verify, or a --verify it does not know, are usage errors', async () => {
    const rca = await p.run('deploy', '--yes', '--rca');
    expect(rca.code).toBe(1);
    expect(rca.stderr).toContain('--rca is about verification: add --verify');
    const bad = await p.run('deploy', '--yes', '--verify', 'sometimes');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--verify.*sometimes/);
    const both = envelopeOf(await p.run('verify', '--reporter', 'junit', '--json'));
    expect(both.exitCode).toBe(1);
    expect(both.error).toMatchObject({
      code: 'usage',
      message: '--reporter junit and --json both want stdout',
    });
  });
});

describe('each run judged by location and error group, against the state before the deploy (issue 44 §2)', () => {
  const hs: Harness[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) cleanup(d);
    for (const h of hs) await h.close();
  });
  const start = async () => {
    const h = await emulatorForTests();
    hs.push(h);
    const p = await deployedProject(h);
    dirs.push(p.dir);
    return { h, p };
  };

  it('a new failure behind an old one broke with the deploy: exit 8, listed first, a JUnit <failure>', async () => {
    const { h, p } = await start();
    await emulatorCall(h, 'PUT', 'outcome-rules', {
      rules: [
        { checkId: PAY_API, location: 'eu-west-1', outcome: 'FAILED', error: 'error A' },
        { checkId: PAY_API, location: 'ap-northeast-1', outcome: 'FAILED', error: 'error B' },
      ],
    });
    // Before the deploy, Pay API fails in eu-west-1 with error A.
    const before = await p.run('verify', '--target', 'payments');
    expect(before.stdout).toMatch(/\n {6}eu-west-1: error A \(error group [\w-]+, new\)\n/);

    // The deploy adds ap-northeast-1, where it fails with error B: a new location, a new error group.
    p.write({ payments: ['eu-west-1', 'ap-northeast-1'] });
    const summaryFile = join(p.dir, 'summary.md');
    const r = await monitor(['deploy', '--yes', '--verify', '--reporter', 'github'], {
      cwd: p.dir,
      env: { ...h.env, GITHUB_STEP_SUMMARY: summaryFile },
    });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toContain('✗ Pay API (CheckGroup:payments): broke with this deploy\n');
    expect(r.stdout).toMatch(
      /broke with this deploy\n {6}ap-northeast-1 \(new location\): error B \(error group [\w-]+, new\)\n {6}eu-west-1: error A \(error group [\w-]+\)\n {6}changed by this deploy in CheckGroup:payments: locations: \+ ap-northeast-1\n/,
    );
    expect(r.stdout).toContain('✗ 2 checks in 1 group: 1 broke with this deploy, 1 passed');

    // The job summary (the markdown of the pull-request comment): the heading follows the rows, and
    // the row that broke comes first.
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain(
      '#### ❌ Verification: 2 checks in 1 group: 1 broke with this deploy, 1 passed',
    );
    const rows = summary.split('\n').filter((l) => /^\| [✓✗!]/.test(l));
    expect(rows[0]).toMatch(/^\| ✗ broke with this deploy \| Pay API \|/);
    expect(summary).toContain(
      'changed by this deploy in CheckGroup:\u200Dpayments: locations: + ap-northeast-1',
    );

    // Verified again since the deploy, against the baseline kept with it: the same verdict, counted.
    const junit = await p.run('verify', '--since-deploy', '--reporter', 'junit');
    expect(junit.code, junit.stderr).toBe(8);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit.stdout)
      .testsuites.testsuite;
    expect([suite.failures, suite.skipped]).toEqual(['1', '0']);
    const cases = suite.testcase as { name: string; failure?: { '#text': string } }[];
    expect(cases.find((c) => c.name === 'Pay API')?.failure?.['#text']).toMatch(
      /ap-northeast-1 \(new location\): error B \(error group [\w-]+, new\)/,
    );
  });

  it('a verification SIGKILLed during the wait does not turn green on retry: --since-deploy judges against the state before the deploy', async () => {
    const { h, p } = await start();
    // The error is one Pay API had long ago: only how it stood before the deploy tells it broke.
    await emulatorCall(h, 'POST', 'seed', {
      fixture: {
        errorGroups: [
          {
            id: 'e0000000-0000-4000-8000-00000000000a',
            checkId: PAY_API,
            errorHash: 'e000000000000000',
            cleanedErrorMessage: 'error A',
            rawErrorMessage: 'error A',
            firstSeen: '2020-01-01',
            lastSeen: '2020-01-02',
          },
        ],
      },
    });
    await emulatorCall(h, 'PUT', 'outcome-rules', {
      rules: [{ checkId: PAY_API, location: 'ap-northeast-1', outcome: 'FAILED', error: 'error A' }],
    });
    p.write({ payments: ['eu-west-1', 'ap-northeast-1'] });
    // A CI job cancelled while the checks run: the deploy is applied, its verification never ends.
    const killed = await monitor(['deploy', '--yes', '--verify', '--debug'], {
      cwd: p.dir,
      env: h.env,
      onSpawn: (child) => {
        child.stderr?.on('data', (d: Buffer) => {
          if (d.toString().includes('/completion?')) child.kill('SIGKILL');
        });
      },
    });
    expect(killed.code).toBeNull();
    expect((await p.run('diff', '--detailed-exitcode')).code).toBe(0);

    const retry = await p.run('verify', '--since-deploy');
    expect(retry.code, retry.stdout + retry.stderr).toBe(8);
    expect(retry.stdout).toContain('✗ Pay API (CheckGroup:payments): newly failing\n');
    expect(retry.stdout).toMatch(/\n {6}ap-northeast-1 \(new location\): error A \(error group [\w-]+\)\n/);
    expect(retry.stderr).toContain(
      'error: verification failed: 2 checks in 1 group: 1 newly failing, 1 passed.',
    );
    // And the command it gives to verify again keeps that baseline.
    expect(retry.stderr).toContain('verify again: monitor verify --since-deploy --target payments\n');
  });
});

describe('docs/emulator.md: the seed data a newcomer tries verification with', () => {
  it('its fixture example seeds a check in a group and an error group, as the docs say', async () => {
    const docs = readFileSync(new URL('../docs/emulator.md', import.meta.url), 'utf8');
    const block = /## Seed data: the fixture format[\s\S]*?```json\n([\s\S]*?)```/.exec(docs)?.[1] ?? '{}';
    const fixture = JSON.parse(block);
    const h = await emulatorForTests();
    try {
      await emulatorCall(h, 'POST', 'seed', { fixture });
      const check = (await h.client.checks.get('0c000000-0000-4000-8000-000000000001')) as Record<
        string,
        unknown
      >;
      expect(check).toMatchObject({ name: 'Charge card', groupId: 1, activated: true, frequency: 10 });
      const groups = (await h.client.errorGroups.list()).items;
      expect(groups).toMatchObject([{ id: 'e0000000-0000-4000-8000-00000000000a', firstSeen: '2026-10-01' }]);
    } finally {
      await h.close();
    }
  });
});

describe('verification under the rate limit', () => {
  it('waits for the window when the service answers 429, and still reports every run', async () => {
    const h = await emulatorForTests({
      rateLimits: { default: { limit: 8, windowMs: 1_000 }, routes: [] },
    });
    let p: Awaited<ReturnType<typeof deployedProject>> | undefined;
    try {
      p = await deployedProject(h);
      p.write({ payments: ['eu-west-1', 'us-east-1'] });
      const r = await p.run('deploy', '--yes', '--verify', 'all');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('✓ 3 checks in 2 groups: 3 passed');
      expect(h.emulator.requests.filter((q) => q.status === 429).length).toBeGreaterThan(0);
    } finally {
      if (p !== undefined) cleanup(p.dir);
      await h.close();
    }
  });
});
