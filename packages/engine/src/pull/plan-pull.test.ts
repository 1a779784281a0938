import { CheckGroup, type CheckGroupProps, SlackAlertChannel } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { synthesized } from '../test-support/planning.js';
import { deployedOver, planOver, stored } from '../test-support/pull.js';
import { driftedCount, planPull } from './plan-pull.js';

/** Which of a plan's changes pull writes back, over a fake account deployed and then edited. */

const group = (props: Partial<CheckGroupProps> = {}) =>
  synthesized(
    () =>
      new CheckGroup('payments', {
        name: 'Payments',
        locations: ['eu-west-1'],
        environmentVariables: [
          { key: 'API_URL', value: 'https://pay.example' },
          { key: 'TOKEN', value: 'code-secret', secret: true },
        ],
        ...props,
      }),
  );

async function pullOf(
  code: ReturnType<typeof group>,
  edit: (g: Record<string, unknown>) => void,
  now = code,
) {
  const { account, backend } = await deployedOver(code);
  edit(stored(account, 'CheckGroup'));
  const { plan, live } = await planOver(account, backend, now);
  return { plan, pull: planPull(plan, live, now) };
}

describe('planPull', () => {
  it('writes back each field the account changed, with the account’s value as the construct takes it', async () => {
    const { plan, pull } = await pullOf(group(), (g) => {
      g.name = 'Payments (prod)';
      g.locations = ['eu-west-1', 'us-east-1'];
    });
    expect(driftedCount(plan)).toBe(1);
    expect(pull.notPulled).toEqual([]);
    expect(pull.resources).toHaveLength(1);
    const [resource] = pull.resources;
    expect(resource).toMatchObject({ key: 'CheckGroup:payments', construct: 'CheckGroup' });
    expect(resource?.edits.map((e) => [e.path, e.value])).toEqual([
      ['name', 'Payments (prod)'],
      ['locations', ['eu-west-1', 'us-east-1']],
    ]);
    expect(resource?.location?.file).toMatch(/plan-pull\.test\.ts$/);
  });

  it('edits an entry of a keyed list by its key', async () => {
    const { pull } = await pullOf(group(), (g) => {
      g.environmentVariables = (g.environmentVariables as { key: string }[]).map((v) =>
        v.key === 'API_URL' ? { ...v, value: 'https://pay2.example' } : v,
      );
    });
    expect(pull.resources[0]?.edits).toMatchObject([
      {
        path: 'environmentVariables[API_URL].value',
        steps: [
          { field: 'environmentVariables', entry: { key: 'API_URL', keyField: 'key' } },
          { field: 'value' },
        ],
        value: 'https://pay2.example',
      },
    ]);
  });

  it('leaves what the code changed to the deploy, and lists nothing of it', async () => {
    const { plan, pull } = await pullOf(group(), () => {}, group({ concurrency: 7 }));
    expect(plan.operations).toHaveLength(1);
    expect(driftedCount(plan)).toBe(0);
    expect(pull).toEqual({ resources: [], notPulled: [] });
  });

  it('a field changed in both the code and the account keeps the code’s value, and is listed', async () => {
    const { pull } = await pullOf(
      group(),
      (g) => {
        g.name = 'Payments (UI)';
        g.locations = ['eu-west-1', 'us-east-1'];
      },
      group({ name: 'Payments (code)' }),
    );
    expect(pull.notPulled).toEqual([
      expect.objectContaining({ key: 'CheckGroup:payments', path: 'name', reason: 'code-changed' }),
    ]);
    expect(pull.resources.flatMap((r) => r.edits.map((e) => e.path))).toEqual(['locations']);
  });

  it('a secret is never an edit: a changed credential, or an entry added that holds one', async () => {
    const code = synthesized(() => new SlackAlertChannel('ops-slack', { url: 'https://hooks.slack.com/a' }));
    const { account, backend } = await deployedOver(code);
    const channel = stored(account, 'AlertChannel');
    channel.config = { ...(channel.config as object), url: 'https://hooks.slack.com/b' };
    const slack = await planOver(account, backend, code);
    expect(slack.plan.operations).toHaveLength(1);
    const pulled = planPull(slack.plan, slack.live, code);
    expect(pulled.resources).toEqual([]);
    expect(pulled.notPulled).toEqual([
      expect.objectContaining({ key: 'AlertChannel:ops-slack', path: 'config.url', reason: 'secret' }),
    ]);

    const { pull } = await pullOf(group(), (g) => {
      g.environmentVariables = [
        ...(g.environmentVariables as object[]),
        { key: 'NEW_TOKEN', value: 'from-the-ui', secret: true },
      ];
    });
    expect(pull.resources).toEqual([]);
    expect(pull.notPulled).toEqual([
      expect.objectContaining({ path: 'environmentVariables[NEW_TOKEN]', reason: 'secret' }),
    ]);
  });
});
