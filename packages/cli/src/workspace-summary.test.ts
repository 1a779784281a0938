import { describe, expect, it } from 'vitest';
import { factsOfEnvelope, missingFacts, planLine, workspaceMarkdown } from './workspace-summary.js';

const envelope = (project: string, exitCode: number, extra: Record<string, unknown> = {}) => ({
  formatVersion: 2,
  command: 'diff',
  ok: exitCode === 0 || exitCode === 2,
  exitCode,
  project,
  plan: {
    summary: { create: 2, update: 1, delete: 0, adopt: 0, move: 0, replace: 0, resend: 0, unchanged: 4 },
    findings: [{ severity: 'error' }, { severity: 'warning' }, { severity: 'warning' }, { severity: 'info' }],
    routing: { changes: [{}, {}], unrouted: [] },
  },
  result: { comment: { status: 'updated', url: 'https://github.example/o/r/pull/1#issuecomment-9' } },
  error: null,
  ...extra,
});

describe('the workspace comment', () => {
  it('has a row per project in the order given: outcome, plan, findings, routing and its own comment', () => {
    const md = workspaceMarkdown('plan', [
      factsOfEnvelope('platform', envelope('platform', 2)),
      factsOfEnvelope('team-a', {
        ...envelope('team-a', 3),
        plan: null,
        error: { code: 'invalid_project', message: 'the project is invalid: 1 error' },
      }),
      missingFacts('team-b'),
    ]);
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(rows[1]).toBe(
      '| 📝 platform | changes | 2 to create, 1 to update | 1 error, 2 warnings | 2 groups | [plan](<https://github.example/o/r/pull/1#issuecomment-9>) |',
    );
    expect(rows[2]).toContain('| ❌ team-a | failed (exit 3) | the project is invalid: 1 error |');
    expect(rows[3]).toContain('| ❔ team-b | missing | its job left no answer');
    expect(md).toContain('3 projects, 1 with changes, 2 failed');
  });

  it('shows project names and messages as text, never as markdown or mentions', () => {
    const md = workspaceMarkdown('plan', [
      factsOfEnvelope('<img src=x>|@team', {
        ...envelope('x', 1),
        plan: null,
        error: { message: '**bold** @admin' },
      }),
    ]);
    expect(md).not.toContain('<img');
    expect(md).not.toContain('**bold**');
    expect(md).not.toMatch(/\| @team/);
    expect(
      md
        .split('\n')
        .filter((l) => l.startsWith('| '))
        .at(-1)
        ?.split(/(?<!\\)\|/).length,
    ).toBe(8);
  });

  it('stays within the length it is given, counting the rows left out', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      factsOfEnvelope(`team-${i}`, envelope(`team-${i}`, 0)),
    );
    const md = workspaceMarkdown('result', many, 4000);
    expect(md.length).toBeLessThanOrEqual(4000);
    expect(md).toMatch(/…and \d+ more projects \(the job log lists them all\)\.$/);
  });

  it('plan lines leave out what does not happen', () => {
    expect(planLine({ create: 0, update: 0, delete: 0 })).toBe('no changes');
    expect(planLine({ create: 0, update: 0, delete: 3, replace: 1 })).toBe('3 to delete, 1 to replace');
    expect(planLine(null)).toBeUndefined();
  });
});
