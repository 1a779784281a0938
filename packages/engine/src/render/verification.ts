import type { Change } from '../plan/diff.js';
import type { CheckRun, Failure, GroupToVerify, VerificationReport } from '../verify/report.js';
import { VERDICTS, type Verdict } from '../verify/verdict.js';
import { markdownCode as code, markdownLink, escapeTerminal as t, escapeMarkdown as text } from './escape.js';
import { formatValue, sensitiveNote } from './render.js';
import type { Style } from './style.js';

/** A verification report for people (text) and for a pull request (markdown): the same content. */

const FIRST_RUN = 'failed on its first run (nothing before it to compare)';

const VERDICT: Record<VerificationReport['context'], Record<Verdict, string>> = {
  deploy: {
    passed: 'passed',
    fixed: 'fixed by this deploy',
    degraded: 'degraded',
    broke: 'broke with this deploy',
    'still-failing': 'failing before and after',
    'first-run-failed': FIRST_RUN,
  },
  verify: {
    passed: 'passed',
    fixed: 'fixed (failing before)',
    degraded: 'degraded',
    broke: 'newly failing',
    'still-failing': 'still failing',
    'first-run-failed': FIRST_RUN,
  },
};

type Mark = '✓' | '!' | '✗' | '…';

const MARK: Record<Verdict, Mark> = {
  passed: '✓',
  fixed: '✓',
  degraded: '!',
  broke: '✗',
  'still-failing': '✗',
  'first-run-failed': '✗',
};

/** The mark of a run's verdict: ✓ passed or fixed, ! degraded, ✗ failing. */
export function verdictMark(verdict: Verdict): '✓' | '!' | '✗' {
  return MARK[verdict] as '✓' | '!' | '✗';
}

/** Where a row goes: what broke first, then what fails or degrades, what still runs, what passed. */
const RANK: Record<Verdict | 'running', number> = {
  broke: 0,
  'still-failing': 1,
  'first-run-failed': 2,
  degraded: 3,
  running: 4,
  fixed: 5,
  passed: 6,
};

const byRank = (runs: readonly CheckRun[]) => [...runs].sort((a, b) => RANK[a.verdict] - RANK[b.verdict]);

/**
 * The mark of the whole verification, as its rows go: ✗ when it failed or a check fails, … when
 * some still run, ! when one degraded, ✓ only when every check passed.
 */
function reportMark(report: VerificationReport): Mark {
  const marks = new Set(report.runs.map((r) => MARK[r.verdict]));
  if (report.outcome === 'failed' || marks.has('✗')) return '✗';
  if (report.running.length > 0) return '…';
  return marks.has('!') ? '!' : '✓';
}

const HEADING_ICON: Record<Mark, string> = { '✗': '❌', '…': '⏳', '!': '⚠️', '✓': '✅' };

/** `3 checks: 2 passed, 1 broke with this deploy`, and what still ran. */
export function verificationSummary(report: VerificationReport): string {
  if (report.outcome === 'nothing') {
    return report.groups.length === 0
      ? 'nothing to verify: no check group changed in a way that affects its runs'
      : `nothing to verify: the ${report.groups.length === 1 ? 'group has' : 'groups have'} no activated checks`;
  }
  const n = report.runs.length + report.running.length;
  const parts = [...VERDICTS]
    .sort((a, b) => RANK[a] - RANK[b])
    .filter((v) => report.summary[v] > 0)
    .map((v) => `${report.summary[v]} ${VERDICT[report.context][v]}`);
  if (report.running.length > 0) parts.push(`${report.running.length} still running`);
  const groups = report.groups.filter((g) => g.checks > 0).length;
  return `${n} check${n === 1 ? '' : 's'} in ${groups} group${groups === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** What a failure says, in one line. */
function failureLine(f: Failure): string {
  const group =
    f.errorGroup === undefined ? '' : ` (error group ${f.errorGroup.id}${f.errorGroup.new ? ', new' : ''})`;
  return `${f.location}${f.newLocation === true ? ' (new location)' : ''}: ${f.error}${group}`;
}

function rootCauseLine(f: Failure): string | undefined {
  const rca = f.errorGroup?.rootCause;
  if (rca === undefined) return undefined;
  if (rca.status !== 'completed')
    return `root cause analysis ${rca.status}${rca.note === undefined ? '' : `: ${rca.note}`}`;
  return `root cause: ${rca.rootCause ?? ''}${rca.classification === undefined ? '' : ` [${rca.classification}]`}`;
}

/** Strings longer than this, or with a newline, are said to have changed, not shown. */
const LONG = 80;

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/** One change as a run's failures show it: a set's items added and removed, else before → after. */
function changeText(change: Change): string {
  const note = sensitiveNote(change);
  if (note !== undefined) return `${change.path}: ${note}`;
  const { before, after } = change;
  const list = (v: unknown) => (v === null || v === undefined ? [] : Array.isArray(v) ? v : undefined);
  const [was, now] = [list(before), list(after)];
  if (was !== undefined && now !== undefined && [...was, ...now].every(isScalar)) {
    const items = [
      ...now.filter((v) => !was.includes(v)).map((v) => `+ ${typeof v === 'string' ? v : formatValue(v)}`),
      ...was.filter((v) => !now.includes(v)).map((v) => `- ${typeof v === 'string' ? v : formatValue(v)}`),
    ];
    if (items.length > 0) return `${change.path}: ${items.join(', ')}`;
  }
  const long = (v: unknown) => typeof v === 'string' && (v.length > LONG || v.includes('\n'));
  if (long(before) || long(after)) return `${change.path}: changed`;
  return `${change.path}: ${formatValue(before)} → ${formatValue(after)}`;
}

/** What the deploy did to a run's group, beside its failures; undefined when it ran on its own. */
function deployLine(group: GroupToVerify | undefined): string | undefined {
  if (group === undefined) return undefined;
  if (group.reason === 'created' || group.reason === 'replaced')
    return `${group.reason} by this deploy: ${group.key}`;
  if (group.changes === undefined || group.changes.length === 0) return undefined;
  return `changed by this deploy in ${group.key}: ${group.changes.map(changeText).join('; ')}`;
}

/** A line under a run: a failure (with its result's link), its analysis (indented), or the deploy's change. */
interface DetailLine {
  line: string;
  indent?: boolean;
  link?: string | undefined;
}

/** What to say under a run: each failure (with its analysis), then what the deploy changed in its group. */
function detailLines(run: CheckRun, report: VerificationReport): DetailLine[] {
  const lines: DetailLine[] = [];
  // What fails only after the deploy first: a location it added, an error group that is new.
  const news = (f: Failure) => (f.newLocation === true || f.errorGroup?.new === true ? 0 : 1);
  for (const f of [...run.failures].sort((a, b) => news(a) - news(b))) {
    lines.push({ line: failureLine(f), link: f.link });
    const rca = rootCauseLine(f);
    if (rca !== undefined) lines.push({ line: rca, indent: true });
  }
  if (run.failures.length === 0) return lines;
  const deployed = deployLine(report.groups.find((g) => g.key === run.groupKey));
  if (deployed !== undefined) lines.push({ line: deployed });
  return lines;
}

/** The verification as text: one line per check (what broke first), failures expanded, and how to look closer. */
export function renderVerificationText(report: VerificationReport, s: Style): string {
  const paintOf = (mark: Mark) => (mark === '✗' ? s.red : mark === '✓' ? s.green : s.yellow);
  const out = [s.bold('Verification:')];
  const line = (run: CheckRun) =>
    `  ${paintOf(MARK[run.verdict])(MARK[run.verdict])} ${t(run.name)} ${s.dim(`(${t(run.groupKey)})`)}: ${VERDICT[report.context][run.verdict]}`;
  const runs = byRank(report.runs);
  const [first, rest] = [
    runs.filter((r) => RANK[r.verdict] < RANK.running),
    runs.filter((r) => RANK[r.verdict] > RANK.running),
  ];
  for (const run of first) {
    out.push(line(run));
    for (const d of detailLines(run, report))
      out.push(d.indent === true ? s.dim(`      ${t(d.line)}`) : `      ${t(d.line)}`);
  }
  for (const r of report.running)
    out.push(`  ${s.yellow('…')} ${t(r.name)} ${s.dim(`(${t(r.groupKey)})`)}: still running`);
  for (const run of rest) out.push(line(run));
  const mark = reportMark(report);
  out.push(`${paintOf(mark)(mark)} ${verificationSummary(report)}${report.strict ? ' (strict)' : ''}`);
  return `${out.join('\n')}\n`;
}

/**
 * The verification as a section of the deploy's pull-request comment: a table (what broke first),
 * failures expanded, within `maxLength` characters (rows past it are counted, not shown).
 */
export function renderVerificationMarkdown(
  report: VerificationReport,
  maxLength = Number.POSITIVE_INFINITY,
): string {
  const head = `#### ${HEADING_ICON[reportMark(report)]} Verification: ${text(verificationSummary(report))}${report.strict ? ' (strict)' : ''}\n`;
  if (report.runs.length === 0 && report.running.length === 0) return `${head}\n`;
  const runs = byRank(report.runs);
  const row = (run: CheckRun) =>
    `| ${MARK[run.verdict]} ${text(VERDICT[report.context][run.verdict])} | ${text(run.name)} | ${code(run.groupKey, { inTable: true })} | ${markdownLink(run.sessionId.slice(0, 8), run.sessionLink)} |`;
  const rows = [
    ...runs.filter((r) => RANK[r.verdict] < RANK.running).map(row),
    ...report.running.map(
      (r) =>
        `| … still running | ${text(r.name)} | ${code(r.groupKey, { inTable: true })} | ${code(r.sessionId, { inTable: true })} |`,
    ),
    ...runs.filter((r) => RANK[r.verdict] > RANK.running).map(row),
  ];
  // Failures first: when the comment runs out of room, what broke is what must show.
  const sections = runs
    .filter((r) => r.failures.length > 0)
    .map((run) => {
      const lines = detailLines(run, report).map(
        ({ line, indent, link }) =>
          `${indent === true ? '  ' : ''}- ${text(line)}${link === undefined ? '' : ` ${markdownLink('result', link)}`}`,
      );
      return `\n<details>\n<summary>${MARK[run.verdict]} ${text(run.name)}: ${text(VERDICT[report.context][run.verdict])}</summary>\n\n${lines.join('\n')}\n\n</details>\n`;
    });
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
