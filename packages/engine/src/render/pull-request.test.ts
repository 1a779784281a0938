import { SENSITIVE_VALUE } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import type { PullResult } from '../flows/pull.js';
import type { Operation } from '../plan/plan.js';
import type { PropEdit, ResourcePull } from '../pull/types.js';
import { planOf } from '../test-support/doubles.js';
import { expectLiteralText, HOSTILE_TEXT } from '../test-support/hostile-text.js';
import { pullLeftMarkdown, renderPullRequestMarkdown } from './pull-request.js';

const OPTIONS = {
  project: 'acme',
  account: '00000000-0000-4000-8000-00000000de00',
  fileName: (file: string) => file.replace('/repo/', ''),
};
const FILE = '/repo/monitors/groups.monitor.ts';

function update(
  logicalId: string,
  changes: { path: string; before: unknown; after: unknown; sensitive?: boolean }[],
): Operation {
  return {
    kind: 'CheckGroup',
    logicalId,
    name: logicalId,
    action: 'update',
    physicalId: 1,
    drift: true,
    unchangedAttributes: 3,
    payload: {},
    changes: changes.map((c) => ({ ...c, cause: 'account' as const })),
    dependsOn: [],
    desiredHash: 'h',
    protect: false,
    construct: 'CheckGroup',
  };
}

const edit = (path: string, changes: string[]) => ({ path, changes }) as unknown as PropEdit;

function resource(logicalId: string, edits: PropEdit[]): ResourcePull {
  return { key: `CheckGroup:${logicalId}`, kind: 'CheckGroup', logicalId, construct: 'CheckGroup', edits };
}

/** A pull that wrote `name` and a keyed entry, left `locations` to people and a secret alone. */
function findings(
  name = 'Payments (prod)',
): Pick<PullResult, 'plan' | 'resources' | 'pulled' | 'manual' | 'notPulled'> {
  return {
    plan: planOf([
      update('payments', [
        { path: 'name', before: name, after: 'Payments' },
        {
          path: 'environmentVariables[API_URL].value',
          before: 'https://pay2.acme.example',
          after: 'https://pay.acme.example',
        },
        {
          path: 'environmentVariables[TOKEN].value',
          before: SENSITIVE_VALUE,
          after: SENSITIVE_VALUE,
          sensitive: true,
        },
      ]),
    ]),
    resources: [
      resource('payments', [
        edit('name', ['name']),
        edit('environmentVariables', ['environmentVariables[API_URL].value']),
      ]),
    ],
    pulled: [
      { key: 'CheckGroup:payments', path: 'name', line: 8, file: FILE },
      { key: 'CheckGroup:payments', path: 'environmentVariables', line: 11, file: FILE },
    ],
    manual: [
      {
        key: 'CheckGroup:checkout',
        path: 'locations',
        line: 13,
        file: FILE,
        reason: 'its value is computed, not written as a literal',
        value: ['ap-south-1', 'eu-west-1'],
      },
    ],
    notPulled: [
      {
        key: 'CheckGroup:payments',
        kind: 'CheckGroup',
        logicalId: 'payments',
        path: 'environmentVariables[TOKEN].value',
        reason: 'secret',
        file: FILE,
        line: 11,
      },
    ],
  };
}

describe('renderPullRequestMarkdown', () => {
  it("lists each field pulled with the code's value and the account's, what is left to change by hand and what is not pulled", () => {
    const md = renderPullRequestMarkdown(findings(), OPTIONS);
    expect(md).toContain('### monitor pull: acme → account `00000000-0000-4000-8000-00000000de00`');
    expect(md).toContain(
      [
        '#### Pulled into the code (2)',
        '',
        '- CheckGroup `payments` `name` at `monitors/groups.monitor.ts:8`: `"Payments"` → `"Payments (prod)"`',
        '- CheckGroup `payments` `environmentVariables` at `monitors/groups.monitor.ts:11`',
        '  - `environmentVariables[API_URL].value`: `"https://pay.acme.example"` → `"https://pay2.acme.example"`',
      ].join('\n'),
    );
    expect(md).toContain(
      '- CheckGroup `checkout` `locations` at `monitors/groups.monitor.ts:13`: its value is computed, not written as a literal; the account has `["ap-south-1","eu-west-1"]`',
    );
    expect(md).toContain(
      '#### Not pulled (1)\n\n- CheckGroup `payments` `environmentVariables[TOKEN].value` at `monitors/groups.monitor.ts:11`: a secret is never written into code',
    );
  });

  it('never shows a secret, even one a pulled prop holds', () => {
    const f = findings();
    f.resources = [
      resource('payments', [edit('environmentVariables', ['environmentVariables[TOKEN].value'])]),
    ];
    f.pulled = [{ key: 'CheckGroup:payments', path: 'environmentVariables', line: 11, file: FILE }];
    const md = renderPullRequestMarkdown(f, OPTIONS);
    expect(md).toContain('  - `environmentVariables[TOKEN].value`: a secret (not shown)');
    expect(md).not.toContain(String(SENSITIVE_VALUE));
  });

  it('shows account text as text: no link, mention, HTML or heading comes from a value', () => {
    for (const hostile of HOSTILE_TEXT) {
      const md = (name: string) => renderPullRequestMarkdown(findings(name), OPTIONS);
      expectLiteralText(md(hostile), md('benign'), JSON.stringify(hostile).slice(1, -1));
    }
  });

  it('fits the limit: every section keeps its heading, and says how many items it left out', () => {
    const f = findings();
    const many = Array.from({ length: 3000 }, (_, i) => ({
      key: `CheckGroup:g${i}`,
      path: 'name',
      line: i,
      file: FILE,
    }));
    f.pulled = many;
    f.manual = Array.from(
      { length: 2000 },
      (_, i) => ({ ...findings().manual[0], key: `CheckGroup:c${i}` }) as never,
    );
    for (const maxLength of [4_000, 65_536]) {
      const md = renderPullRequestMarkdown(f, { ...OPTIONS, maxLength });
      expect(md.length).toBeLessThanOrEqual(maxLength);
      expect(md).toMatch(
        /#### Pulled into the code \(3000\)[\s\S]*- … and \d+ more: the diff of this pull request has every edit/,
      );
      expect(md).toMatch(/#### To change by hand \(2000\)[\s\S]*- … and \d+ more/);
      expect(md).toContain('#### Not pulled (1)');
      expect(md).toContain('<sub>Kept by `monitor pull --pr`');
    }
  });

  it('masks phone numbers, as the plan comment does', () => {
    const f = findings();
    f.plan = planOf([
      {
        ...update('sms', [{ path: 'config.number', before: '+31612344821', after: '+31612340000' }]),
        kind: 'AlertChannel',
        payload: { type: 'SMS', config: { number: '+31612340000' } },
      } as Operation,
    ]);
    f.resources = [
      {
        ...resource('sms', [edit('number', ['config.number'])]),
        key: 'AlertChannel:sms',
        kind: 'AlertChannel',
      },
    ];
    f.pulled = [{ key: 'AlertChannel:sms', path: 'number', line: 3, file: FILE }];
    const md = renderPullRequestMarkdown(f, OPTIONS);
    expect(md).not.toContain('12344821');
    expect(md).toContain('+31••••4821');
  });
});

describe('pullLeftMarkdown', () => {
  it('is empty when pull left nothing to people', () => {
    expect(pullLeftMarkdown({ ...findings(), manual: [], notPulled: [] }, { maxLength: 10_000 })).toBe('');
  });
});
