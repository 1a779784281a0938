import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertChannel, CheckGroup, createSession, SlackAlertChannel } from './index.js';
import { expectRoutes, isRoutingTest } from './routing-tests.js';

// As location.test.ts: plain Node runs the built package, so no test transform moves the lines.
const DIST = new URL('../dist/index.js', import.meta.url).href;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('expectRoutes', () => {
  it('remembers the line it was called at, and in a helper the user’s call too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'monitor-routing-test-'));
    dirs.push(dir);
    const file = join(dir, 'config.mjs');
    writeFileSync(
      file,
      [
        `import { expectRoutes } from ${JSON.stringify(DIST)};`,
        "const pages = (group) => expectRoutes(group, { failure: ['oncall'] });", // line 2
        'const tests = [',
        "  expectRoutes('payments', { failure: [] }),", // line 4
        "  pages('search'),", // line 5
        '];',
        'console.log(JSON.stringify(tests.map((t) => [t.location.line, t.location.column, t.location.callers.map((c) => c.line)])));',
      ].join('\n'),
    );
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', env });
    expect(run.stderr).toBe('');
    const [direct, viaHelper] = JSON.parse(run.stdout) as [number, number, number[]][];
    expect(direct?.slice(0, 2)).toEqual([4, 3]);
    expect(viaHelper?.[0]).toBe(2);
    expect(viaHelper?.[2][0]).toBe(5);
  });

  it('names groups and channels by logical id, from ids, constructs and fromId, and normalises at', () => {
    createSession();
    const slack = new SlackAlertChannel('slack-ops', { url: 'https://hooks.example/x' });
    const group = new CheckGroup('payments-api', { name: 'Payments API' });
    const test = expectRoutes(group, {
      failure: [slack, 'AlertChannel:pagerduty-oncall', AlertChannel.fromId(42)],
      recovery: { atLeast: ['slack-ops'] },
      at: '2027-01-10T03:30:00+01:00',
    });
    expect(isRoutingTest(test)).toBe(true);
    expect(isRoutingTest({ group: 'x' })).toBe(false);
    expect({ group: test.group, assertions: test.assertions, at: test.at, problems: test.problems }).toEqual({
      group: 'payments-api',
      assertions: [
        {
          event: 'failure',
          match: 'exactly',
          channels: [{ logicalId: 'slack-ops' }, { logicalId: 'pagerduty-oncall' }, { physicalId: 42 }],
        },
        { event: 'recovery', match: 'atLeast', channels: [{ logicalId: 'slack-ops' }] },
      ],
      at: '2027-01-10T02:30:00.000Z',
      problems: [],
    });
    expect(expectRoutes('CheckGroup:search', { failure: [] }).group).toBe('search');
  });

  it('keeps every problem of a test written wrong, each with a hint', () => {
    const bad = expectRoutes(CheckGroup.fromId(7) as never, [] as never);
    expect(bad.problems.map((p) => p.message)).toEqual([
      "CheckGroup.fromId(7) is not a check group of the project: routing tests judge the project's groups",
      'the expectations are a list, not an object',
    ]);
    expect(bad.problems.every((p) => p.hint.length > 0)).toBe(true);
    expect(expectRoutes('g', { failure: [], at: '2027-01-10' }).problems[0]?.message).toBe(
      'at is "2027-01-10": expected an ISO 8601 instant with its zone',
    );
  });
});
