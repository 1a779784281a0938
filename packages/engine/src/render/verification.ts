import type { CheckRun, VerificationReport } from '../verify/report.js';
import type { Verdict } from '../verify/verdict.js';
import { markdownCode as code, markdownLink, escapeTerminal as t, escapeMarkdown as text } from './escape.js';
import type { Style } from './style.js';

/** A verification report for people (text) and for a pull request (markdown): the same content. */

const VERDICT: Record<VerificationReport['context'], Record<Verdict, string>> = {
  deploy: {
    passed: 'passed',
    fixed: 'fixed by this deploy',
    degraded: 'degraded',
    broke: 'broke with this deploy',
    'still-failing': 'failing before and after',
  },
  verify: {
    passed: 'passed',
    fixed: 'fixed (failing before)',
    degraded: 'degraded',
    broke: 'newly failing (passing before)',
    'still-failing': 'still failing',
  },
};

const VERDICTS = Object.keys(VERDICT.deploy) as Verdict[];

const MARK: Record<Verdict, string> = {
  passed: '✓',
  fixed: '✓',
  degraded: '!',
  broke: '✗',
  'still-failing': '✗',
};

/** `3 checks: 2 passed, 1 broke with this deploy`, and what still ran. */
export function verificationSummary(report: VerificationReport): string {
  if (report.outcome === 'nothing') {
    return report.groups.length === 0
      ? 'nothing to verify: no check group changed in a way that affects its runs'
      : `nothing to verify: the ${report.groups.length === 1 ? 'group has' : 'groups have'} no activated checks`;
  }
  const n = report.runs.length + report.running.length;
  const parts = VERDICTS.filter((v) => report.summary[v] > 0).map(
    (v) => `${report.summary[v]} ${VERDICT[report.context][v]}`,
  );
  if (report.running.length > 0) parts.push(`${report.running.length} still running`);
  const groups = report.groups.filter((g) => g.checks > 0).length;
  return `${n} check${n === 1 ? '' : 's'} in ${groups} group${groups === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** What a failure says, in one line. */
function failureLine(f: CheckRun['failures'][number]): string {
  const group =
    f.errorGroup === undefined ? '' : ` (error group ${f.errorGroup.id}${f.errorGroup.new ? ', new' : ''})`;
  return `${f.location}: ${f.error}${group}`;
}

function rootCauseLine(f: CheckRun['failures'][number]): string | undefined {
  const rca = f.errorGroup?.rootCause;
  if (rca === undefined) return undefined;
  if (rca.status !== 'completed')
    return `root cause analysis ${rca.status}${rca.note === undefined ? '' : `: ${rca.note}`}`;
  return `root cause: ${rca.rootCause ?? ''}${rca.classification === undefined ? '' : ` [${rca.classification}]`}`;
}

/** The verification as text: one line per check, failures expanded, and how to look closer. */
export function renderVerificationText(report: VerificationReport, s: Style): string {
  const out = [s.bold('Verification:')];
  for (const run of report.runs) {
    const paint =
      run.verdict === 'broke' || run.verdict === 'still-failing'
        ? s.red
        : run.verdict === 'degraded'
          ? s.yellow
          : s.green;
    out.push(
      `  ${paint(MARK[run.verdict])} ${t(run.name)} ${s.dim(`(${t(run.groupKey)})`)}: ${VERDICT[report.context][run.verdict]}`,
    );
    for (const f of run.failures) {
      out.push(`      ${t(failureLine(f))}`);
      const rca = rootCauseLine(f);
      if (rca !== undefined) out.push(s.dim(`      ${t(rca)}`));
    }
  }
  for (const r of report.running)
    out.push(`  ${s.yellow('…')} ${t(r.name)} ${s.dim(`(${t(r.groupKey)})`)}: still running`);
  const ok = report.outcome === 'passed' || report.outcome === 'nothing';
  out.push(
    `${ok ? s.green('✓') : s.red('✗')} ${verificationSummary(report)}${report.strict ? ' (strict)' : ''}`,
  );
  return `${out.join('\n')}\n`;
}

/**
 * The verification as a section of the deploy's pull-request comment: a table, failures expanded,
 * within `maxLength` characters (rows past it are counted, not shown).
 */
export function renderVerificationMarkdown(
  report: VerificationReport,
  maxLength = Number.POSITIVE_INFINITY,
): string {
  const ok = report.outcome === 'passed' || report.outcome === 'nothing';
  const head = `#### ${ok ? '✅' : report.outcome === 'timeout' ? '⏳' : '❌'} Verification: ${text(verificationSummary(report))}${report.strict ? ' (strict)' : ''}\n`;
  if (report.runs.length === 0 && report.running.length === 0) return `${head}\n`;
  const rows = report.runs.map(
    (run) =>
      `| ${MARK[run.verdict]} ${text(VERDICT[report.context][run.verdict])} | ${text(run.name)} | ${code(run.groupKey, { inTable: true })} | ${markdownLink(run.sessionId.slice(0, 8), run.sessionLink)} |`,
  );
  for (const r of report.running)
    rows.push(
      `| … still running | ${text(r.name)} | ${code(r.groupKey, { inTable: true })} | ${code(r.sessionId, { inTable: true })} |`,
    );
  // Failures first: when the comment runs out of room, what broke is what must show.
  const failing = report.runs.filter((r) => r.failures.length > 0);
  const sections: string[] = [];
  for (const run of failing) {
    const lines = run.failures.flatMap((f) => {
      const rca = rootCauseLine(f);
      const link = f.link === undefined ? '' : ` ${markdownLink('result', f.link)}`;
      return [`- ${text(failureLine(f))}${link}`, ...(rca === undefined ? [] : [`  - ${text(rca)}`])];
    });
    sections.push(
      `\n<details>\n<summary>${MARK[run.verdict]} ${text(run.name)}: ${text(VERDICT[report.context][run.verdict])}</summary>\n\n${lines.join('\n')}\n\n</details>\n`,
    );
  }
  const table = '\n| outcome | check | group | session |\n| --- | --- | --- | --- |\n';
  let size = head.length + table.length + 100;
  const fit = (items: string[]) => {
    const shown: string[] = [];
    for (const item of items) {
      if (size + item.length + 1 > maxLength) break;
      shown.push(item);
      size += item.length + 1;
    }
    return shown;
  };
  const shownSections = fit(sections);
  const shownRows = fit(rows);
  const hidden = rows.length - shownRows.length + sections.length - shownSections.length;
  return `${head}${table}${shownRows.join('\n')}\n${shownSections.join('')}${hidden > 0 ? `\n_${hidden} more ${hidden === 1 ? 'entry' : 'entries'} not shown: see the job log._\n` : ''}`;
}
