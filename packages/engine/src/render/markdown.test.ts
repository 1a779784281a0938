import { SENSITIVE_VALUE } from '@monitor/api';
import type { Diagnostic } from '@monitor/constructs';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { OperationResult } from '../apply/apply.js';
import type { ApplyOutcome } from '../flows/deploy.js';
import type { Conflict, Operation } from '../plan/plan.js';
import { planOf } from '../test-support/doubles.js';
import { expectLiteralText, HOSTILE_TEXT } from '../test-support/hostile-text.js';
import { GITHUB_COMMENT_LIMIT, renderApplyMarkdown, renderPlanMarkdown } from './markdown.js';
import { renderPlanText } from './render.js';
import { PLAIN } from './style.js';

const desired = { dependsOn: [], desiredHash: 'h', protect: false, construct: 'CheckGroup' };
const OPTIONS = { project: 'acme', account: '00000000-0000-4000-8000-00000000de00' };

/** Rendered as GitHub renders comments: GFM, with the HTML of `<details>` let through. */
const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

const update: Operation = {
  ...desired,
  kind: 'StatusPage',
  logicalId: 'status',
  name: 'Acme <status>',
  action: 'update',
  physicalId: 'sp-1',
  drift: false,
  unchangedAttributes: 9,
  payload: {},
  changes: [
    { path: 'name', before: 'Status', after: 'Acme <status>' },
    { path: 'description', before: 'one\ntwo\nthree', after: 'one\n2\nthree' },
    {
      path: 'environmentVariables[TOKEN].value',
      before: SENSITIVE_VALUE,
      after: SENSITIVE_VALUE,
      sensitive: true,
    },
  ],
};
const drift: Operation = {
  ...desired,
  kind: 'CheckGroup',
  logicalId: 'billing',
  name: 'Billing',
  action: 'update',
  physicalId: 7,
  drift: true,
  unchangedAttributes: 18,
  payload: {},
  changes: [{ path: 'muted', before: true, after: false }],
};
const deletion: Operation = {
  kind: 'CheckGroup',
  logicalId: 'legacy',
  dependsOn: [],
  name: 'Legacy',
  action: 'delete',
  physicalId: 17,
};
const create: Operation = {
  ...desired,
  kind: 'CheckGroup',
  logicalId: 'payments',
  name: 'Payments',
  action: 'create',
  recreate: false,
  payload: { name: 'Payments', environmentVariables: [{ key: 'TOKEN', value: 'hunter2', secret: true }] },
};

describe('renderPlanMarkdown', () => {
  it('renders a plan with an update, a deletion, drift and a create, deterministically', () => {
    const md = renderPlanMarkdown(planOf([create, update, drift, deletion]), OPTIONS);
    expect(md).toMatchSnapshot();
    expect(md).not.toContain('hunter2');
    expect(renderPlanMarkdown(planOf([create, update, drift, deletion]), OPTIONS)).toBe(md);
  });

  it('parses as intended with a GFM parser: the banner, one details per resource, diff fences, a table', () => {
    const conflict: Conflict = {
      reason: 'exists',
      kind: 'CheckGroup',
      logicalId: 'team-b',
      construct: 'CheckGroup',
      location: { file: '/repo/monitors/b.monitor.ts', line: 2, column: 1 },
      field: 'name',
      value: 'Shared | name',
      live: { id: 41, name: 'Shared | name' },
    };
    const out = toHtml(
      renderPlanMarkdown(planOf([create, update, drift, deletion], 3, { conflicts: [conflict] }), OPTIONS),
    );
    expect(out).toContain('<blockquote>\n<p>[!CAUTION]');
    expect(out).toContain('<li>CheckGroup <code>legacy</code> “Legacy”</li>');
    expect(out.match(/<details>/g)).toHaveLength(3);
    expect(out.match(/<pre><code class="language-diff">/g)).toHaveLength(3);
    expect(out).toContain(
      '<summary><code>~</code> StatusPage <b>status</b> “Acme &lt;status&gt;” (id sp-1): 3 changes</summary>',
    );
    expect(out).toContain('- name: &quot;Status&quot;\n+ name: &quot;Acme &lt;status&gt;&quot;');
    expect(out).toContain('! environmentVariables[TOKEN].value: (sensitive value changed)');
    // The conflict table has its four cells, the pipe in the value escaped.
    expect(out).toContain('<th>construct</th>');
    expect(out).toMatch(
      /<td>CheckGroup <code>team-b<\/code><\/td>\n<td>b\.monitor\.ts:2<\/td>\n<td>a check group with name &quot;Shared \| name&quot;/,
    );
  });

  it('shows the policy findings above the resource details, as a GFM table, errors first, waived ones with their reason', () => {
    const at = { file: '/repo/monitors/a.monitor.ts', line: 4, column: 3 };
    const findings: Diagnostic[] = [
      {
        severity: 'warning',
        construct: 'CheckGroup',
        logicalId: 'payments',
        location: at,
        path: 'alertChannels',
        message: 'has no alert-channel subscription | <b>no one</b> is told',
        hint: 'subscribe it to a channel',
        policy: 'group-without-alert-channel',
      },
      {
        severity: 'info',
        construct: 'CheckGroup',
        logicalId: 'search',
        location: at,
        path: 'tags',
        message: 'has no team:* tag',
        policy: 'acme/owner-tag',
        waived: { severity: 'error', reason: 'owned by @everyone' },
      },
      {
        severity: 'error',
        construct: 'CheckGroup',
        logicalId: 'legacy',
        path: '',
        message: 'deletes a group the on-call rota links to',
        policy: 'acme/keep-legacy',
      },
    ];
    const md = renderPlanMarkdown(planOf([create, update, drift, deletion], 3, { findings }), OPTIONS);
    expect(md).toMatchSnapshot();
    expect(
      md.indexOf('#### Policy findings (1 error, 1 warning, 1 waived): deploy refuses while an error stands'),
    ).toBeGreaterThan(md.indexOf('[!CAUTION]'));
    expect(md.indexOf('#### Policy findings')).toBeLessThan(md.indexOf('#### Changes from the code'));
    const out = toHtml(md);
    const table = out.match(/<table>[\s\S]*?<\/table>/)?.[0] ?? '';
    const rows = table.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    expect(rows.map((r) => (r.match(/<td>/g) ?? []).length)).toEqual([0, 5, 5, 5]);
    expect(rows[1]).toContain('<strong>error</strong>');
    expect(rows[1]).toContain('<code>acme/keep-legacy</code>');
    expect(rows[2]).toContain('a.monitor.ts:4');
    expect(rows[2]).toContain('has no alert-channel subscription | &lt;b&gt;no one&lt;/b&gt; is told');
    expect(rows[3]).toMatch(/<td>waived<\/td>[\s\S]*waived, error: owned by @\u200Deveryone/);
    expect(out).not.toContain('<b>no one</b>');
    expect(renderPlanText(planOf([create], 3, { findings }), PLAIN, { cwd: '/repo' })).toContain(
      '  error   CheckGroup legacy  [acme/keep-legacy]\n      deletes a group the on-call rota links to\n',
    );
  });

  it('fits a plan with 5,000 findings in a GitHub comment, counting the findings it leaves out', () => {
    const findings: Diagnostic[] = Array.from({ length: 5000 }, (_, i) => ({
      severity: 'warning',
      construct: 'CheckGroup',
      logicalId: `group-${i}`,
      path: 'alertChannels',
      message: 'has no alert-channel subscription: no one is told when its checks fail',
      policy: 'group-without-alert-channel',
    }));
    const md = renderPlanMarkdown(planOf([create, update], 3, { findings }), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toMatch(/_\d+ more findings not shown: run monitor diff to see them all\._/);
    expect(md).toContain('#### Changes from the code');
  });

  it('renders the group renamed in the account to a link and mentions (issue 24) as text, deterministically', () => {
    const renamed = '[Approve here](https://evil.example/x) @acme/admins #1 **`now`**';
    const md = renderPlanMarkdown(
      planOf(
        [
          { ...deletion, name: renamed },
          { ...drift, name: renamed },
        ],
        3,
        {
          conflicts: [
            {
              reason: 'exists',
              kind: 'CheckGroup',
              logicalId: 'team-b',
              construct: 'CheckGroup',
              field: 'name',
              value: renamed,
              live: { id: 41, name: renamed },
            },
          ],
        },
      ),
      OPTIONS,
    );
    expect(md).toMatchSnapshot();
  });

  it('says No changes for an empty plan', () => {
    const md = renderPlanMarkdown(planOf([], 40), OPTIONS);
    expect(md).toContain('**No changes.** 40 resources match the code.');
    expect(md).not.toContain('<details>');
  });

  it('fits a 3,000-resource plan in a GitHub comment, listing every deletion and counting what it leaves out', () => {
    const ops: Operation[] = [];
    for (let i = 0; i < 2000; i++)
      ops.push({ ...update, logicalId: `page-${i}`, physicalId: `sp-${i}` } as Operation);
    for (let i = 0; i < 1000; i++) ops.push({ ...deletion, logicalId: `legacy-${i}`, physicalId: i });
    const md = renderPlanMarkdown(planOf(ops), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    for (let i = 0; i < 1000; i++) expect(md).toContain(`legacy-${i}`);
    const shown = md.match(/<details>/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(10);
    expect(md).toContain(`_${2000 - shown} more resources not shown:`);
    expect(md).toContain('**Plan: 0 to create, 2000 to update, 1000 to delete');
  });
});

describe('renderApplyMarkdown', () => {
  const done = (
    logicalId: string,
    action: OperationResult['action'],
    physicalId: number,
  ): OperationResult => ({
    key: `CheckGroup:${logicalId}`,
    action,
    kind: 'CheckGroup',
    logicalId,
    status: 'done',
    physicalId,
    durationMs: 5,
  });
  const applied = (results: OperationResult[]) => ({
    status: 'applied' as const,
    plan: planOf([]),
    result: {
      ok: results.every((r) => r.status === 'done'),
      results,
      state: {} as never,
      oneTimeValues: [],
      elapsedMs: 2100,
      requests: 9,
    },
  });

  it('gives the totals of a deploy that succeeded, and what it did in a details block', () => {
    const md = renderApplyMarkdown(
      applied([done('payments', 'create', 12), done('legacy', 'delete', 3)]),
      OPTIONS,
    );
    expect(md).toContain('### monitor deploy: acme → account `00000000-0000-4000-8000-00000000de00`');
    expect(md).toContain(
      '**✓ Applied in 2.1 s:** 1 created, 0 updated, 1 deleted, 0 adopted, 0 moved; 9 API calls.',
    );
    const out = toHtml(md);
    expect(out).toContain('<summary>Done (2)</summary>');
    expect(out).toContain('<li><code>+</code> CheckGroup <code>payments</code> (id 12)</li>');
    expect(out).not.toContain('<table>');
  });

  it('lists every failure with its error and hint in a table, and says how to continue', () => {
    const failed: OperationResult = {
      key: 'CheckGroup:billing',
      action: 'update',
      kind: 'CheckGroup',
      logicalId: 'billing',
      status: 'failed',
      physicalId: 7,
      error: { code: 'forbidden', message: 'the key | may not write', hint: 'use a key with write access' },
      durationMs: 5,
    };
    const skipped: OperationResult = {
      ...failed,
      key: 'Dashboard:main',
      kind: 'Dashboard',
      logicalId: 'main',
      status: 'skipped',
      error: { code: 'dependency_failed', message: 'CheckGroup billing failed' },
    };
    const out = toHtml(
      renderApplyMarkdown(applied([done('payments', 'create', 12), failed, skipped]), OPTIONS),
    );
    expect(out).toContain('<strong>✗ Stopped after 2.1 s:</strong> 1 failed, 1 done');
    expect(out).toContain('[!WARNING]');
    expect(out).toMatch(
      /<td><code>~<\/code> CheckGroup <code>billing<\/code> \(id 7\)<\/td>\n<td>failed<\/td>\n<td>the key \| may not write<\/td>\n<td>use a key with write access<\/td>/,
    );
    expect(out).toContain('<td>skipped</td>');
  });

  it('says why nothing was applied', () => {
    expect(renderApplyMarkdown({ status: 'no-changes', plan: planOf([]) }, OPTIONS)).toContain(
      '**No changes.**',
    );
    expect(
      renderApplyMarkdown({ status: 'refused', plan: planOf([]), reason: 'needs --allow-deletes' }, OPTIONS),
    ).toContain('**Not applied: needs --allow-deletes**');
    expect(
      renderApplyMarkdown({ status: 'stale', plan: planOf([]), stale: ['CheckGroup a changed'] }, OPTIONS),
    ).toContain('- CheckGroup a changed');
    const error: Diagnostic = { severity: 'error', path: '', message: 'no owner', policy: 'owner' };
    expect(
      renderApplyMarkdown(
        { status: 'policy-errors', plan: planOf([], 3, { findings: [error] }), errors: [error] },
        OPTIONS,
      ),
    ).toContain('**Not applied: 1 policy error.** Nothing was changed.\n\n#### Policy findings (1 error)');
  });

  it('fits 5,000 failures in a GitHub comment and counts those it leaves out', () => {
    const results = Array.from({ length: 5000 }, (_, i) => ({
      ...done(`group-${i}`, 'create', i),
      status: 'failed' as const,
      error: { code: 'server_error', message: `the service answered 500 for group-${i}` },
    }));
    const md = renderApplyMarkdown(applied(results), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toMatch(/_\d+ more failures not shown: see the job log\._/);
  });
});

describe('text from the account or the code is text', () => {
  /** A plan where every string from the account or the code is `s`. */
  function planWith(s: string) {
    const base = { ...desired, kind: 'CheckGroup' as const, name: s, payload: {} };
    const operations: Operation[] = [
      {
        ...base,
        logicalId: 'team#1',
        action: 'create',
        recreate: false,
        payload: { name: s, tags: [s], environmentVariables: [{ key: s, value: s }] },
      },
      {
        ...base,
        kind: 'StatusPage',
        logicalId: 'page_one',
        action: 'update',
        physicalId: s,
        drift: false,
        unchangedAttributes: 2,
        changes: [
          { path: 'name', before: s, after: 'Status' },
          { path: `cards[${s}].description`, before: `${s}\nsecond line`, after: 'one\ntwo' },
        ],
      },
      {
        ...base,
        logicalId: 'moved',
        action: 'move',
        from: s,
        physicalId: 8,
        drift: false,
        unchangedAttributes: 0,
        changes: [],
      },
      {
        ...base,
        logicalId: 'adopted',
        action: 'adopt',
        physicalId: 9,
        drift: false,
        unchangedAttributes: 0,
        changes: [],
      },
      {
        ...base,
        logicalId: 'billing',
        action: 'update',
        physicalId: 7,
        drift: true,
        unchangedAttributes: 18,
        changes: [{ path: 'name', before: s, after: 'Billing' }],
      },
      { kind: 'CheckGroup', logicalId: 'legacy', name: s, action: 'delete', physicalId: s, dependsOn: [] },
    ];
    const conflict = (reason: Conflict['reason']): Conflict => ({
      reason,
      kind: 'CheckGroup',
      logicalId: `taken-${reason}`,
      construct: 'CheckGroup',
      location: { file: `/repo/monitors/${s}.monitor.ts`, line: 2, column: 1 },
      field: 'name',
      value: s,
      live: { id: s, name: s },
      holder: s,
    });
    return planOf(operations, 3, { conflicts: [conflict('exists'), conflict('rename'), conflict('owned')] });
  }
  const optionsWith = (s: string) => ({ ...OPTIONS, project: s, environment: s });

  it.each(HOSTILE_TEXT)(
    'a plan (creates, updates, drift, moves, deletes, conflicts) shows %j literally',
    (s) => {
      expectLiteralText(
        renderPlanMarkdown(planWith(s), optionsWith(s)),
        renderPlanMarkdown(planWith('plain'), optionsWith('plain')),
        s,
      );
    },
  );

  it.each(HOSTILE_TEXT)('an apply result (failures, hints, done, stale, refused) shows %j literally', (s) => {
    const failed: OperationResult = {
      key: 'CheckGroup:billing',
      action: 'update',
      kind: 'CheckGroup',
      logicalId: 'billing',
      status: 'failed',
      physicalId: s,
      error: { code: 'bad_request', message: `the service refused "${s}"`, hint: `rename ${s}` },
      durationMs: 5,
    };
    const outcomes = (x: string) => [
      {
        status: 'applied' as const,
        plan: planOf([]),
        result: {
          ok: false,
          results: [
            { ...failed, physicalId: x, error: { code: 'x', message: x, hint: x } },
            { ...failed, status: 'done' as const, physicalId: x, error: undefined, key: 'CheckGroup:ok' },
          ],
          state: {} as never,
          oneTimeValues: [],
          elapsedMs: 10,
          requests: 2,
        },
      },
      { status: 'stale' as const, plan: planOf([]), stale: [x] },
      { status: 'refused' as const, plan: planOf([]), reason: x },
      { status: 'conflicts' as const, plan: planWith(x) },
    ];
    const hostile = outcomes(s);
    outcomes('plain').forEach((benign, i) => {
      expectLiteralText(
        renderApplyMarkdown(hostile[i] as ApplyOutcome, optionsWith(s)),
        renderApplyMarkdown(benign, optionsWith('plain')),
        s,
      );
    });
  });

  it('measures the escaped text: a plan of hostile names still fits a GitHub comment', () => {
    const s = HOSTILE_TEXT.join(' ');
    const ops: Operation[] = [];
    for (let i = 0; i < 400; i++) {
      ops.push({
        ...update,
        logicalId: `page-${i}`,
        name: s,
        physicalId: s,
        changes: [{ path: 'name', before: s, after: 'x' }],
      });
      ops.push({ ...deletion, logicalId: `legacy-${i}`, name: s });
    }
    const md = renderPlanMarkdown(planOf(ops), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md).toMatch(/_\d+ more resources not shown:/);
  });
});
