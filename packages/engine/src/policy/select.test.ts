import { definePolicy } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_POLICIES } from './builtins.js';
import { selectPolicies } from './select.js';

const mine = definePolicy({
  name: 'acme/owner-tag',
  description: 'Every group names its team.',
  severity: 'error',
  check: () => undefined,
});

describe('selectPolicies', () => {
  it('runs every built-in at its own severity by default, and the config’s own after them', () => {
    const { set, problems } = selectPolicies([mine], {});
    expect(problems).toEqual([]);
    expect(set.active.map((a) => a.policy.name)).toEqual([
      ...BUILT_IN_POLICIES.map((p) => p.name),
      'acme/owner-tag',
    ]);
    expect(set.active.every((a) => a.severity === a.policy.severity)).toBe(true);
  });

  it('turns a policy off or gives it another severity; one turned off is still known (an exception may name it)', () => {
    const { set } = selectPolicies([mine], {
      'maintenance-silences-all-alerts': 'off',
      'group-without-alert-channel': 'error',
      'acme/owner-tag': 'warning',
    });
    const severity = (name: string) => set.active.find((a) => a.policy.name === name)?.severity;
    expect(severity('maintenance-silences-all-alerts')).toBeUndefined();
    expect(set.known.has('maintenance-silences-all-alerts')).toBe(true);
    expect(severity('group-without-alert-channel')).toBe('error');
    expect(severity('acme/owner-tag')).toBe('warning');
  });

  it('an unknown policy name in policySeverity is a problem with the nearest name', () => {
    const { problems } = selectPolicies([], {
      'group-without-alert-chanel': 'off',
      'no-such-thing-at-all': 'error',
    });
    expect(problems).toEqual([
      {
        path: 'policySeverity.group-without-alert-chanel',
        message:
          'there is no policy "group-without-alert-chanel"; did you mean "group-without-alert-channel"?',
      },
      { path: 'policySeverity.no-such-thing-at-all', message: 'there is no policy "no-such-thing-at-all"' },
    ]);
  });

  it('names what is wrong with each thing given as a policy, and takes none of them', () => {
    const { set, problems } = selectPolicies(
      [
        null,
        'owner-tag',
        { description: 'd', severity: 'error', check: () => undefined },
        { name: 'x', severity: 'error', check: () => undefined },
        { name: 'x', description: 'd', severity: 'fatal', check: () => undefined },
        { name: 'x', description: 'd', severity: 'error' },
        { name: 'x', description: 'd', severity: 'error', scope: 'resource', check: () => undefined },
        { name: 'x', description: 'd', severity: 'error', kinds: ['Checkgroup'], check: () => undefined },
        { ...mine, name: 'group-without-alert-channel' },
        mine,
        mine,
      ],
      {},
    );
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'policies[0]: is null, not a policy: make it with definePolicy({ name, description, severity, check }) from @monitor/constructs',
      'policies[1]: is string, not a policy: make it with definePolicy({ name, description, severity, check }) from @monitor/constructs',
      'policies[2]: needs a name of letters, digits and - _ . / @ : (got none): make it with definePolicy({ name, description, severity, check }) from @monitor/constructs',
      'policies[3]: policy "x" needs a description: one sentence saying what it asks for',
      `policies[4]: policy "x" has severity "fatal": use 'error', 'warning' or 'info'`,
      'policies[5]: policy "x" has no check function',
      `policies[6]: policy "x" has scope "resource": use 'construct' (the default) or 'plan'`,
      'policies[7]: policy "x": "Checkgroup" is not a kind; did you mean "CheckGroup"?',
      'policies[8]: policy "group-without-alert-channel" is a built-in policy: each policy needs a name of its own',
      'policies[10]: policy "acme/owner-tag" is listed twice: each policy needs a name of its own',
    ]);
    expect(set.active.filter((a) => !a.builtIn).map((a) => a.policy.name)).toEqual(['acme/owner-tag']);
  });
});
