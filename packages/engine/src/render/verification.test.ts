import { SENSITIVE_VALUE } from '@monitor/api';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { CheckRun, VerificationReport } from '../verify/report.js';
import { PLAIN } from './style.js';
import { renderVerificationMarkdown, renderVerificationText } from './verification.js';

/** The verification report as people read it: in the terminal, and in the pull-request comment. */

const run = (name: string, verdict: CheckRun['verdict'], failures: CheckRun['failures'] = []): CheckRun => ({
  checkId: `id-${name}`,
  name,
  groupKey: 'CheckGroup:payments',
  sessionId: `5e55${name.length}000-0000-4000-8000-000000000000`,
  sessionLink: 'https://app.example/sessions/1',
  checkType: 'API',
  locations: ['eu-west-1', 'ap-northeast-1'],
  elapsedMs: 3_000,
  status: verdict === 'passed' ? 'PASSED' : 'FAILED',
  verdict,
  failures,
});

const reportOf = (runs: CheckRun[], outcome: VerificationReport['outcome']): VerificationReport => {
  const summary = {
    passed: 0,
    fixed: 0,
    degraded: 0,
    broke: 0,
    'still-failing': 0,
    'first-run-failed': 0,
    running: 0,
  };
  for (const r of runs) summary[r.verdict]++;
  return {
    groups: [
      {
        key: 'CheckGroup:payments',
        logicalId: 'payments',
        id: 1,
        reason: 'changed',
        checks: runs.length,
        changes: [
          { path: 'locations', before: ['eu-west-1'], after: ['eu-west-1', 'ap-northeast-1'] },
          { path: 'concurrency', before: 1, after: 2 },
          {
            path: 'environmentVariables[TOKEN].value',
            before: SENSITIVE_VALUE,
            after: SENSITIVE_VALUE,
            sensitive: true,
          },
          { path: 'localSetupScript', before: null, after: 'const a = 1;\nconst b = 2;' },
        ],
      },
    ],
    runs,
    running: [],
    outcome,
    strict: false,
    context: 'deploy',
    summary,
    baselineAt: '2026-11-24T09:00:00.000Z',
    elapsedMs: 4_000,
  };
};

// A new failure behind an old one: failing before in eu-west-1 (error A), and now in the location
// the deploy added, with a new error group.
const broke = run('Pay API', 'broke', [
  {
    location: 'eu-west-1',
    resultId: 'r1',
    error: 'error A',
    errorGroup: { id: 'group-a', message: 'error A', new: false },
  },
  {
    location: 'ap-northeast-1',
    resultId: 'r2',
    link: 'https://app.example/results/r2',
    error: 'error B',
    newLocation: true,
    errorGroup: { id: 'group-b', message: 'error B', new: true },
  },
]);
const stillFailing = run('Search', 'still-failing', [
  {
    location: 'eu-west-1',
    resultId: 'r3',
    error: 'HTTP 500',
    errorGroup: { id: 'group-c', message: 'HTTP 500', new: false },
  },
]);
const passed = run('Refunds', 'passed');

describe('renderVerificationMarkdown (the pull-request comment)', () => {
  it('lists the rows that broke first, and their failures first', () => {
    const md = renderVerificationMarkdown(reportOf([passed, stillFailing, broke], 'failed'));
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !/^\| (outcome|---) /.test(l));
    expect(rows.map((r) => r.split(' | ')[1])).toEqual(['Pay API', 'Search', 'Refunds']);
    expect(rows[0]).toMatch(/^\| ✗ broke with this deploy \|/);
    expect(md.indexOf('<summary>✗ Pay API')).toBeLessThan(md.indexOf('<summary>✗ Search'));
  });

  it('its heading’s icon follows the rows: no ✅ above a failing check, even one not counted', () => {
    const lenient = renderVerificationMarkdown(reportOf([passed, stillFailing], 'passed'));
    expect(lenient).toMatch(
      /^#### ❌ Verification: 2 checks in 1 group: 1 failing before and after, 1 passed\n/,
    );
    expect(renderVerificationMarkdown(reportOf([passed], 'passed'))).toMatch(/^#### ✅ /);
    const degraded = run('Slow', 'degraded');
    expect(renderVerificationMarkdown(reportOf([passed, degraded], 'passed'))).toMatch(/^#### ⚠️ /);
  });

  it('each failure sits beside what the deploy changed in its group, as the plan shows it', () => {
    const md = renderVerificationMarkdown(reportOf([broke], 'failed'));
    // As GitHub shows it: the items of the expanded failure, as text.
    const html = micromark(md, {
      extensions: [gfm()],
      htmlExtensions: [gfmHtml()],
      allowDangerousHtml: true,
    });
    const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, item]) =>
      (item as string)
        .replace(/<[^>]+>/g, '')
        .replace(/\u200D/g, '')
        .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))),
    );
    expect(items).toEqual([
      'ap-northeast-1 (new location): error B (error group group-b, new) result',
      'eu-west-1: error A (error group group-a)',
      'changed by this deploy in CheckGroup:payments: locations: + ap-northeast-1; concurrency: 1 → 2; environmentVariables[TOKEN].value: (sensitive value changed); localSetupScript: changed',
    ]);
    expect(html).toContain('<a href="https://app.example/results/r2">result</a>');
    // A check that passed has nothing to expand.
    expect(renderVerificationMarkdown(reportOf([passed], 'passed'))).not.toContain('<details>');
  });
});

describe('renderVerificationText', () => {
  it('the same order, marks and changes in the terminal', () => {
    const text = renderVerificationText(reportOf([passed, stillFailing, broke], 'failed'), PLAIN);
    expect(text).toBe(
      [
        'Verification:',
        '  ✗ Pay API (CheckGroup:payments): broke with this deploy',
        '      ap-northeast-1 (new location): error B (error group group-b, new)',
        '      eu-west-1: error A (error group group-a)',
        '      changed by this deploy in CheckGroup:payments: locations: + ap-northeast-1; concurrency: 1 → 2; environmentVariables[TOKEN].value: (sensitive value changed); localSetupScript: changed',
        '  ✗ Search (CheckGroup:payments): failing before and after',
        '      eu-west-1: HTTP 500 (error group group-c)',
        '      changed by this deploy in CheckGroup:payments: locations: + ap-northeast-1; concurrency: 1 → 2; environmentVariables[TOKEN].value: (sensitive value changed); localSetupScript: changed',
        '  ✓ Refunds (CheckGroup:payments): passed',
        '✗ 3 checks in 1 group: 1 broke with this deploy, 1 failing before and after, 1 passed',
        '',
      ].join('\n'),
    );
    // Not counted without strict, but not a ✓ either.
    expect(renderVerificationText(reportOf([passed, stillFailing], 'passed'), PLAIN)).toMatch(
      /\n✗ 2 checks in 1 group: 1 failing before and after, 1 passed\n$/,
    );
  });
});
