import type { CheckSession } from '@monitor/api';
import { isPassing, type WaitOutcome } from '@monitor/engine/checks';
import { escapeMarkdown, escapeTerminal, markdownCode, markdownLink } from '@monitor/engine/escape';
import type { Io, Paint } from './io.js';
import { duration, painted, renderTable } from './tables.js';

export const REPORTERS = ['text', 'json', 'junit', 'github'] as const;
export type Reporter = (typeof REPORTERS)[number];

export interface SessionSummary {
  total: number;
  passed: number;
  degraded: number;
  failed: number;
  running: number;
  ok: boolean;
}

export function summarize(outcome: WaitOutcome): SessionSummary {
  const count = (status: string) => outcome.finished.filter((s) => s.status === status).length;
  const passed = count('PASSED');
  const degraded = count('DEGRADED');
  const failed = outcome.finished.length - passed - degraded;
  return {
    total: outcome.finished.length + outcome.running.length,
    passed,
    degraded,
    failed,
    running: outcome.running.length,
    ok: failed === 0 && outcome.running.length === 0,
  };
}

export function summaryLine(summary: SessionSummary): string {
  const parts = [`${summary.passed} passed`];
  if (summary.degraded > 0) parts.push(`${summary.degraded} degraded`);
  parts.push(`${summary.failed} failed`);
  if (summary.running > 0) parts.push(`${summary.running} still running`);
  return `${summary.total} check${summary.total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** The run locations whose final result failed. */
export function failedLocations(session: CheckSession): string[] {
  return session.results
    .filter((r) => r.resultType === 'FINAL' && (r.hasFailures || r.hasErrors || r.isCancelled === true))
    .map((r) => r.runLocation);
}

function statusOf(session: CheckSession, p: Paint): string {
  if (session.status === 'PASSED') return p.green('passed');
  if (session.status === 'DEGRADED') return p.yellow('degraded');
  return p.red(escapeTerminal(session.status.toLowerCase().replace(/_/g, ' ')));
}

/** The finished sessions as a table, the ones still running below it. */
export function renderSessionsText(outcome: WaitOutcome, io: Pick<Io, 'columns'>, p: Paint): string {
  let out = '';
  if (outcome.finished.length > 0) {
    out += renderTable(
      outcome.finished,
      [
        { header: 'RESULT', value: (s) => painted(statusOf(s, p)) },
        { header: 'CHECK', value: (s) => s.name, shrink: true },
        { header: 'TYPE', value: (s) => s.checkType },
        { header: 'TOOK', value: (s) => duration(s.timeElapsed), align: 'right' },
        {
          header: 'LOCATIONS',
          value: (s) => {
            const failed = failedLocations(s);
            return failed.length === 0 ? s.runLocations.join(',') : `failed in ${failed.join(',')}`;
          },
          shrink: true,
        },
        { header: 'SESSION', value: (s) => s.checkSessionId },
      ],
      io,
      p,
    );
  }
  for (const id of outcome.running) out += `${p.yellow('running')}  session ${escapeTerminal(id)}\n`;
  return out;
}

const xml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 cannot hold at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** One test case of a JUnit report: a check's run. */
export interface JunitCase {
  classname: string;
  name: string;
  seconds: number;
  /** What a CI report shows under the case. */
  output: string;
  /** `failure`: it ran and did not pass; `error`: it did not finish; `skipped`: not counted. */
  outcome?: { kind: 'failure' | 'error' | 'skipped'; type?: string; message: string; text?: string };
}

/**
 * JUnit XML as CI test reports read it (GitHub, GitLab, Jenkins): one test case per check run.
 * Written as text rather than with an XML library: the document has one fixed shape of a few
 * elements, every value goes through `xml` (the five escapes, and the characters XML 1.0 cannot
 * hold removed), and the e2e tests parse it with a real XML parser; a builder would be a runtime
 * dependency of every install for these twenty lines.
 */
export function junitDocument(suite: string, cases: readonly JunitCase[]): string {
  const count = (kind: string) => cases.filter((c) => c.outcome?.kind === kind).length;
  const total = cases.reduce((sum, c) => sum + c.seconds, 0);
  const body = cases.map((c) => {
    const lines = [
      `    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}" time="${c.seconds.toFixed(3)}">`,
    ];
    const o = c.outcome;
    if (o !== undefined) {
      const type = o.type === undefined ? '' : ` type="${xml(o.type)}"`;
      lines.push(
        o.text === undefined
          ? `      <${o.kind}${type} message="${xml(o.message)}"/>`
          : `      <${o.kind}${type} message="${xml(o.message)}">${xml(o.text)}</${o.kind}>`,
      );
    }
    lines.push(`      <system-out>${xml(c.output)}</system-out>`, '    </testcase>');
    return lines.join('\n');
  });
  const attrs = `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${total.toFixed(3)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="monitor" ${attrs}>\n  <testsuite name="${xml(suite)}" ${attrs}>\n${body.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** The sessions of a wait as JUnit: a `<failure>` for a session that did not pass, an `<error>` for one still running at the timeout. */
export function renderJunit(
  outcome: WaitOutcome,
  names: Map<string, string>,
  timeoutSeconds: number,
): string {
  const cases: JunitCase[] = outcome.finished.map((s) => {
    const output = `session ${s.checkSessionId} (${s.checkSessionLink}), check ${s.checkId}, locations ${s.runLocations.join(', ')}`;
    const base = { classname: `monitor.${s.checkType}`, name: s.name, seconds: s.timeElapsed / 1000, output };
    if (isPassing(s)) return base;
    const failed = failedLocations(s);
    const message = `${s.status}${failed.length > 0 ? ` in ${failed.join(', ')}` : ''}`;
    return {
      ...base,
      outcome: {
        kind: 'failure',
        type: s.status,
        message,
        text: `${s.name}: ${message}; details with monitor sessions get ${s.checkSessionId}`,
      },
    };
  });
  for (const id of outcome.running) {
    cases.push({
      classname: 'monitor',
      name: names.get(id) ?? id,
      seconds: timeoutSeconds,
      output: `session ${id}`,
      outcome: {
        kind: 'error',
        type: 'TIMEOUT',
        message: `still running after ${timeoutSeconds} s`,
        text: `session ${id}; resume with monitor sessions wait ${id}`,
      },
    });
  }
  return junitDocument('monitor check sessions', cases);
}

const EMOJI: Record<string, string> = { PASSED: '✅', DEGRADED: '⚠️' };

/** Markdown for `$GITHUB_STEP_SUMMARY`: the totals, then one row per check. */
export function renderGithubSummary(outcome: WaitOutcome, names: Map<string, string>): string {
  const summary = summarize(outcome);
  const text = escapeMarkdown;
  const rows = outcome.finished.map((s) => {
    const failed = failedLocations(s);
    const where = failed.length > 0 ? `failed in ${failed.join(', ')}` : s.runLocations.join(', ');
    return `| ${EMOJI[s.status] ?? '❌'} ${text(s.status)} | ${text(s.name)} | ${text(s.checkType)} | ${duration(s.timeElapsed)} | ${text(where)} | ${markdownLink(s.checkSessionId.slice(0, 8), s.checkSessionLink)} |`;
  });
  for (const id of outcome.running)
    rows.push(`| ⏳ RUNNING | ${text(names.get(id) ?? id)} | | | | ${markdownCode(id, { inTable: true })} |`);
  return `### ${summary.ok ? '✅' : '❌'} monitor: ${summaryLine(summary)}\n\n| result | check | type | took | locations | session |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}

/** `--json` form of a session: as the service sends it, plus `passed`. */
export function sessionJson(session: CheckSession) {
  return { ...session, passed: isPassing(session) };
}
