import { describe, expect, it } from 'vitest';
import { plan } from '../plan/plan.js';
import { planToJson } from '../plan/plan-json.js';
import { construct, entry, liveOf, stateOf } from '../test-support/planning.js';
import { renderPlanMarkdown } from './markdown.js';
import { renderPlanText } from './render.js';
import { PLAIN } from './style.js';

/** How a plan shows references to other projects' constructs, to people and to scripts. */

const NOW = new Date('2026-11-28T00:00:00Z');
const platform = stateOf([entry('AlertChannel', 'pagerduty-oncall', 42)]);
const live = liveOf({ AlertChannel: [{ id: 42, type: 'PAGERDUTY' }] });
const group = (logicalId: string) =>
  construct('CheckGroup', logicalId, {
    name: logicalId,
    alertChannelSubscriptions: [
      { alertChannelId: { $project: 'platform', $ref: 'AlertChannel:pagerduty-oncall' }, activated: true },
    ],
  });

describe('references to other projects in a plan', () => {
  const made = plan([group('payments-api')], live, stateOf([]), {
    now: NOW,
    projectStates: new Map([['platform', platform]]),
  });

  it('the text plan shows each reference of what it writes, with the id it resolved to', () => {
    const text = renderPlanText(made, PLAIN);
    expect(text).toContain(
      'References to other projects (their ids, never changed here):\n  CheckGroup payments-api → platform:pagerduty-oncall (id 42)\n',
    );
  });

  it('the markdown plan and the JSON plan show them too', () => {
    expect(renderPlanMarkdown(made, { project: 'team', account: 'a' })).toContain(
      '#### References to other projects\n\n- CheckGroup `payments-api` → platform:pagerduty-oncall (id 42)\n',
    );
    expect(planToJson(made).projectRefs).toEqual([
      {
        from: 'CheckGroup:payments-api',
        project: 'platform',
        ref: 'AlertChannel:pagerduty-oncall',
        physicalId: 42,
      },
    ]);
  });

  it('a plan that writes nothing that references another project says nothing of them', () => {
    const none = plan([construct('CheckGroup', 'x', { name: 'x' })], live, stateOf([]), { now: NOW });
    expect(renderPlanText(none, PLAIN)).not.toContain('References to other projects');
    expect(planToJson(none)).not.toHaveProperty('projectRefs');
  });

  it('what --force-orphan deletes is said, naming who references it', () => {
    const forced = plan([], live, platform, {
      now: NOW,
      referencedBy: new Map([['AlertChannel:pagerduty-oncall', ['team-payments/CheckGroup:payments-api']]]),
      forceOrphan: true,
    });
    expect(renderPlanText(forced, PLAIN)).toContain(
      '! AlertChannel:pagerduty-oncall goes although team-payments: CheckGroup:payments-api references it (--force-orphan): those references no longer resolve.',
    );
    expect(renderPlanMarkdown(forced, { project: 'platform', account: 'a' })).toContain(
      '> - `AlertChannel:pagerduty-oncall`, referenced by `team-payments: CheckGroup:payments-api`',
    );
    expect(planToJson(forced).orphaned).toEqual(forced.orphaned);
  });
});
