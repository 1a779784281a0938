import { describe, expect, it } from 'vitest';
import type { AuditFinding, AuditReport } from '../audit/audit.js';
import { expectLiteralText, HOSTILE_TEXT } from '../test-support/hostile-text.js';
import { renderAuditMarkdown, renderAuditText } from './audit.js';
import { GITHUB_COMMENT_LIMIT } from './markdown.js';
import { PLAIN } from './style.js';

const OPTIONS = { project: 'acme', account: '00000000-0000-4000-8000-00000000de00' };

function byHand(name: string, id: number | string = 42): AuditFinding {
  return {
    severity: 'error',
    policy: 'group-without-alert-channel',
    path: 'alertChannels',
    message: 'has no alert-channel subscription: no one is told when its checks fail',
    hint: 'subscribe it to a channel: alertChannels: [oncall]',
    resource: {
      kind: 'CheckGroup',
      construct: 'CheckGroup',
      physicalId: id,
      name,
      owner: { owned: 'unowned' },
    },
    importCommand: `monitor import --kind CheckGroup --id ${id}`,
  };
}

const muted: AuditFinding = {
  severity: 'warning',
  policy: 'group-activated-but-muted',
  path: 'muted',
  message: 'is activated but muted: its checks run and no one is alerted when they fail',
  resource: {
    kind: 'CheckGroup',
    construct: 'CheckGroup',
    physicalId: 7,
    name: 'Search',
    owner: { owned: 'elsewhere', project: 'search', logicalId: 'search-api' },
  },
};

function report(findings: AuditFinding[], phoneNumbers: string[] = []): AuditReport {
  return {
    resources: { total: 5, here: 2, elsewhere: 1, unowned: 2 },
    findings,
    unreadable: [],
    phoneNumbers,
  };
}

describe('renderAuditText', () => {
  it('names each resource by kind, name and id, says who owns it, and how to take over what no one owns', () => {
    expect(renderAuditText(report([byHand('Made by hand'), muted]), PLAIN)).toBe(
      [
        'error   CheckGroup “Made by hand” (id 42)  owned by no one  [group-without-alert-channel]',
        '    alertChannels: has no alert-channel subscription: no one is told when its checks fail',
        '    hint: subscribe it to a channel: alertChannels: [oncall]',
        '    take it over: monitor import --kind CheckGroup --id 42',
        'warning CheckGroup “Search” (id 7)  owned by search as search-api  [group-activated-but-muted]',
        '    muted: is activated but muted: its checks run and no one is alerted when they fail',
        '',
        '✗ 1 error, 1 warning in 5 resources of the account: 2 owned by this project, 1 by other projects, 2 by no one',
        '',
      ].join('\n'),
    );
    expect(renderAuditText(report([]), PLAIN)).toBe(
      '✓ No error or warning in 5 resources of the account: 2 owned by this project, 1 by other projects, 2 by no one\n',
    );
  });

  it('shows control characters of account text as escapes and masks phone numbers', () => {
    const out = renderAuditText(
      report([byHand('\u001b[2Jevil\u0007 +31612345678')], ['+31612345678']),
      PLAIN,
    );
    expect(out).toContain('“\\x1b[2Jevil\\x07 +31••••5678”');
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('+31612345678');
  });
});

describe('renderAuditMarkdown', () => {
  it('is a table of the findings under a heading and the totals, and says clean when it is', () => {
    const md = renderAuditMarkdown(report([byHand('Made by hand')]), OPTIONS);
    expect(md).toContain('### monitor audit: acme → account `00000000-0000-4000-8000-00000000de00`');
    expect(md).toContain(
      '**1 error** in 5 resources of the account: 2 owned by this project, 1 by other projects, 2 by no one.',
    );
    expect(md).toContain(
      '| **error** | CheckGroup “Made by hand” (id `42`) | owned by no one: take it over with `monitor import --kind CheckGroup --id 42` | `group-without-alert-channel` |',
    );
    expect(renderAuditMarkdown(report([]), OPTIONS)).toContain('**No error or warning** in 5 resources');
  });

  it('keeps every hostile name literal', () => {
    for (const hostile of HOSTILE_TEXT) {
      const md = (name: string) => renderAuditMarkdown(report([byHand(name)]), OPTIONS);
      expectLiteralText(md(hostile), md('benign'), hostile);
    }
  });

  it("fits GitHub's comment limit, counting the findings left out, and masks phone numbers", () => {
    const many = Array.from({ length: 3_000 }, (_, i) => byHand(`Group ${i} +31612345678`, i));
    const md = renderAuditMarkdown(report(many, ['+31612345678']), OPTIONS);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    const shown = md.split('\n').filter((l) => l.startsWith('| **error**')).length;
    expect(shown).toBeGreaterThan(100);
    expect(md).toContain(`_${3_000 - shown} more findings not shown: run monitor audit to see them all._`);
    expect(md).not.toContain('+31612345678');
    const small = renderAuditMarkdown(report(many), { ...OPTIONS, maxLength: 5_000 });
    expect(small.length).toBeLessThanOrEqual(5_000);
  });
});
