import {
  CheckGroup,
  type DesiredResource,
  EmailAlertChannel,
  PagerdutyAlertChannel,
  SlackAlertChannel,
} from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { emptyLive, readLive } from '../live/read-live.js';
import { plan } from '../plan/plan.js';
import { planToJson } from '../plan/plan-json.js';
import type { Live, Plan } from '../plan/types.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { toHtml } from '../test-support/hostile-text.js';
import { synthesized as code } from '../test-support/planning.js';
import { planRouting } from './routes.js';

const NOW = { now: new Date('2026-11-24T12:00:00Z'), secretKey: 'team-state-secret' };
const OPTIONS = { project: 'acme', account: '00000000-0000-4000-8000-00000000de00' };

async function deployed(resources: DesiredResource[]): Promise<{ live: Live; state: State }> {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const result = await apply(plan(resources, emptyLive(), await backend.read(), NOW), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  return { live: await readLive(account), state: result.state };
}

/** The plan from `before` to `after`, with its routing section as diff makes it. */
async function planned(before: () => void, after: () => void): Promise<Plan> {
  const account = await deployed(code(before));
  const made = plan(code(after), account.live, account.state, NOW);
  return { ...made, routing: planRouting(made, account) };
}

const pd = () => new PagerdutyAlertChannel('pagerduty-oncall', { serviceKey: 'k', serviceName: 'Payments' });
const slack = (name = '#payments') =>
  new SlackAlertChannel('payments-slack', { url: 'https://hooks.example/x', channel: name });

/** The ```mermaid block of some markdown, its lines. */
function mermaidOf(md: string): string[] | undefined {
  const block = /^```mermaid\n([\s\S]*?)\n```$/m.exec(md);
  return block?.[1]?.split('\n');
}

describe('the picture of a routing change in the pull-request comment', () => {
  it('draws the changed groups before and after: new edges thick and green, gone ones dotted and red; the text stays', async () => {
    const made = await planned(
      () => new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [pd(), slack()] }),
      () => {
        const mail = new EmailAlertChannel('payments-mail', { address: 'payments@acme.example' });
        pd();
        new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [slack(), mail] });
      },
    );
    const md = renderPlanMarkdown(made, OPTIONS);
    expect(md).toContain('#### Routing: who gets paged changes for 1 group');
    expect(md).toContain('  - before: failures, recoveries → PagerDuty (Payments), Slack &#35;‍payments');
    const lines = mermaidOf(md);
    expect(lines?.[0]).toBe('flowchart LR');
    expect(lines?.filter((l) => l.includes('-->') || l.includes('==>') || l.includes('-.->'))).toEqual([
      '  g0 --> g0e0',
      '  g0e0 -.-> c0',
      '  g0e0 --> c1',
      '  g0e0 ==> c2',
    ]);
    expect(lines).toContain('  c0("PagerDuty (Payments)<br/>pagerduty-oncall"):::channel');
    expect(lines).toContain('  c2("Email payments#64;acme.example<br/>payments-mail"):::channel');
    expect(lines).toContain('  linkStyle 3 stroke:#1a7f37,stroke-width:3px');
    expect(lines).toContain('  linkStyle 1 stroke:#cf222e,stroke-width:2px,stroke-dasharray:6 4');
    expect(md).toContain('_thick green: new with this plan; dotted red: gone with it._');
    // GFM shows it as a code block of its own (what GitHub hands to Mermaid), the list before it.
    const html = toHtml(md);
    expect(html).toContain('<pre><code class="language-mermaid">flowchart LR');
    expect(html.indexOf('before: failures')).toBeLessThan(html.indexOf('language-mermaid'));
    // The JSON of the plan says the same as data, without the picture.
    expect(planToJson(made).routing).toEqual({ changes: made.routing?.changes, unrouted: [] });
  });

  it('has no picture when the plan changes no route', async () => {
    const made = await planned(
      () => new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [slack()] }),
      () => new CheckGroup('payments-api', { name: 'Payments API v2', alertChannels: [slack()] }),
    );
    expect(made.routing).toEqual({ changes: [], unrouted: [] });
    expect(mermaidOf(renderPlanMarkdown(made, OPTIONS))).toBeUndefined();
  });

  it('stays bounded for a plan of many new groups: at most 40 nodes, the rest counted; every group in the text', async () => {
    const made = await planned(
      () => undefined,
      () => {
        const channel = slack();
        for (let i = 0; i < 60; i++)
          new CheckGroup(`group-${String(i).padStart(2, '0')}`, {
            name: `Group ${i}`,
            alertChannels: [channel],
          });
      },
    );
    const lines = mermaidOf(renderPlanMarkdown(made, OPTIONS)) ?? [];
    const nodes = lines.filter((l) => /^ {2}\w+[[({]/.test(l));
    expect(nodes.length).toBeLessThanOrEqual(40);
    expect(lines).toContain('  more["and 41 more groups"]:::more');
    expect(made.routing?.changes).toHaveLength(60);
  });

  it('keeps account text in the picture as text: a name cannot close the block or become HTML', async () => {
    const hostile = '```\n</pre><script>alert(1)</script> "]) %% x';
    const made = await planned(
      () => undefined,
      () => new CheckGroup('payments-api', { name: hostile, alertChannels: [slack(hostile)] }),
    );
    const md = renderPlanMarkdown(made, OPTIONS);
    const lines = mermaidOf(md) ?? [];
    expect(lines.length).toBeGreaterThan(8);
    expect(lines.join('\n')).not.toMatch(/<script|`|%%/);
    expect(toHtml(md)).not.toContain('<script');
  });
});
