import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../plan/plan.js';
import { planToJson } from '../plan/plan-json.js';
import type { RoutingChanges } from '../routing/changes.js';
import { planOf } from '../test-support/doubles.js';
import { expectLiteralText, HOSTILE_TEXT } from '../test-support/hostile-text.js';
import { renderPlanMarkdown } from './markdown.js';
import { renderPlanText } from './render.js';
import { PLAIN } from './style.js';

const OPTIONS = { project: 'acme', account: '00000000-0000-4000-8000-00000000de00' };
const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

const update: Operation = {
  kind: 'CheckGroup',
  logicalId: 'payments',
  name: 'Payments',
  construct: 'CheckGroup',
  action: 'update',
  physicalId: 7,
  drift: false,
  unchangedAttributes: 18,
  payload: {},
  dependsOn: [],
  desiredHash: 'h',
  protect: false,
  changes: [
    { path: 'alertChannelSubscriptions[AlertChannel:prod-oncall]', before: { activated: true }, after: null },
  ],
};

function routing(name = 'Payments'): RoutingChanges {
  return {
    changes: [
      {
        group: 'CheckGroup:payments',
        logicalId: 'payments',
        name,
        before: 'failures, recoveries → PagerDuty (prod-oncall), Slack #payments',
        after: 'failures, recoveries → Slack #payments',
        noFailureRoute: false,
      },
      {
        group: 'CheckGroup:search',
        logicalId: 'search',
        name: 'Search',
        before: null,
        after: 'failures → no one',
        noFailureRoute: true,
      },
    ],
    unrouted: ['CheckGroup:search'],
  };
}

describe('the routing section of a plan', () => {
  it('is in the text: the unrouted groups flagged first, each group before and after on a line each, above the details', () => {
    const text = renderPlanText(planOf([update], 3, { routing: routing() }), PLAIN);
    expect(text).toBe(
      [
        '! No route for failures: once this is deployed, no one is told when the checks of search (“Search”) fail.',
        '',
        'Routing: who gets paged changes for 2 groups:',
        '  payments "Payments"',
        '      before: failures, recoveries → PagerDuty (prod-oncall), Slack #payments',
        '      after:  failures, recoveries → Slack #payments',
        '  search "Search" (new) !',
        '      after:  failures → no one',
        '',
        'Changes from the code:',
        '  ~ CheckGroup payments "Payments" (id 7)',
        '      alertChannelSubscriptions[AlertChannel:prod-oncall]: {"activated":true} → null',
        '      (18 unchanged attributes hidden)',
        '',
        'Plan: 0 to create, 1 to update, 0 to delete, 0 to adopt, 3 unchanged.',
        '',
      ].join('\n'),
    );
  });

  it('names the built-in policy that finds the same groups, with its findings by severity', () => {
    const finding = (logicalId: string, waived?: boolean) => ({
      severity: waived === true ? ('info' as const) : ('warning' as const),
      construct: 'CheckGroup',
      logicalId,
      path: 'alertChannels',
      message: 'has no alert-channel subscription: no one is told when its checks fail',
      policy: 'group-without-alert-channel',
      ...(waived === true ? { waived: { severity: 'warning' as const, reason: 'a sandbox' } } : {}),
    });
    const flagged = planOf([update], 3, {
      routing: routing(),
      findings: [finding('search'), finding('other')],
    });
    expect(renderPlanText(flagged, PLAIN).split('\n')[0]).toBe(
      '! No route for failures: once this is deployed, no one is told when the checks of search (“Search”) fail. Policy group-without-alert-channel: 1 warning.',
    );
    const waived = planOf([update], 3, { routing: routing(), findings: [finding('search', true)] });
    expect(renderPlanMarkdown(waived, OPTIONS)).toContain(
      'Policy group-without-alert-channel: 1 warning, waived.',
    );
  });

  it('is absent when no route changes', () => {
    const text = renderPlanText(planOf([update], 3, { routing: { changes: [], unrouted: [] } }), PLAIN);
    expect(text).not.toContain('Routing');
    expect(text).not.toContain('No route');
  });

  it('is in --json as it is', () => {
    expect(planToJson(planOf([update], 3, { routing: routing() })).routing).toEqual(routing());
    expect(planToJson(planOf([update])).routing).toBeUndefined();
  });

  it('is in the markdown comment above the resource details, deterministically', () => {
    const md = renderPlanMarkdown(planOf([update], 3, { routing: routing() }), OPTIONS);
    expect(md).toMatchSnapshot();
    const html = toHtml(md);
    // The flag first, then the section, then the details.
    const flag = html.indexOf('<p>[!WARNING]');
    const section = html.indexOf('<h4>Routing: who gets paged changes for 2 groups</h4>');
    const details = html.indexOf('<details>');
    expect(flag).toBeGreaterThan(0);
    expect(flag).toBeLessThan(section);
    expect(section).toBeLessThan(details);
    expect(html).toContain(
      '<li><code>payments</code> “Payments”\n<ul>\n<li>before: failures, recoveries → PagerDuty (prod-oncall), Slack #\u200dpayments</li>\n<li>after: failures, recoveries → Slack #\u200dpayments</li>\n</ul>\n</li>',
    );
    expect(html).toContain(
      '<li><code>search</code> “Search” (new) ⚠️\n<ul>\n<li>after: failures → no one</li>',
    );
  });

  it('keeps a group renamed to hostile text literal', () => {
    for (const hostile of HOSTILE_TEXT) {
      const md = (name: string) =>
        renderPlanMarkdown(planOf([update], 3, { routing: routing(name) }), OPTIONS);
      expectLiteralText(md(hostile), md('benign'), hostile);
    }
  });

  it('counts the groups that do not fit its share of the comment, and names at most 20 in the flag', () => {
    const many: RoutingChanges = {
      changes: Array.from({ length: 2000 }, (_, i) => ({
        group: `CheckGroup:g${i}`,
        logicalId: `g${i}`,
        name: `Group ${i}`,
        before: 'failures → Slack #payments',
        after: 'failures → no one',
        noFailureRoute: true,
      })),
      unrouted: Array.from({ length: 2000 }, (_, i) => `CheckGroup:g${i}`),
    };
    const md = renderPlanMarkdown(planOf([update], 3, { routing: many }), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(65_536);
    // The flag names the first groups and counts the rest.
    expect(md).toContain('`g19` “Group 19” and 1980 more fail.');
    expect(renderPlanText(planOf([update], 3, { routing: many }), PLAIN)).toContain(
      'g19 (“Group 19”) and 1980 more fail.',
    );
    expect(md).toMatch(/_\d+ groups more not shown: see monitor diff --json\._/);
    expect(md).toContain('<details>');
  });
});
