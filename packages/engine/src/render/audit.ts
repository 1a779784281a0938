import { relative } from 'node:path';
import type { AuditCounts, AuditFinding, AuditReport } from '../audit/audit.js';
import type { AuditedResource } from '../audit/live-constructs.js';
import type { Ownership } from '../audit/ownership.js';
import { markdownCode as code, escapeTerminal as t, escapeMarkdown as text } from './escape.js';
import { GITHUB_COMMENT_LIMIT, type MarkdownOptions, markdownHeading } from './markdown.js';
import { maskPhones } from './phone.js';
import type { Style } from './style.js';

/** `error`, `warning`, `info`, or `waived` for a finding this project's code waives. */
const labelOf = (f: AuditFinding) => (f.waived === undefined ? f.severity : 'waived');

/** `1 error, 2 warnings, 1 waived`: the counts that are not zero. */
export function auditTotals(findings: readonly AuditFinding[]): string {
  const counts = { error: 0, warning: 0, info: 0, waived: 0 };
  for (const f of findings) counts[labelOf(f)]++;
  const parts: string[] = [];
  if (counts.error > 0) parts.push(`${counts.error} error${counts.error === 1 ? '' : 's'}`);
  if (counts.warning > 0) parts.push(`${counts.warning} warning${counts.warning === 1 ? '' : 's'}`);
  if (counts.info > 0) parts.push(`${counts.info} info`);
  if (counts.waived > 0) parts.push(`${counts.waived} waived`);
  return parts.join(', ');
}

/** `14 resources: 5 owned by this project, 2 by other projects, 7 by no one`. */
export function auditScope(counts: AuditCounts): string {
  const owners = [
    `${counts.here} owned by this project`,
    `${counts.elsewhere} by other projects`,
    `${counts.unowned} by no one`,
  ];
  return `${counts.total} resource${counts.total === 1 ? '' : 's'} of the account: ${owners.join(', ')}`;
}

/** `owned here as pay`, `owned by platform as oncall`, `owned by no one`. */
export function ownerPhrase(owner: Ownership): string {
  if (owner.owned === 'unowned') return 'owned by no one';
  const as = owner.logicalId === undefined ? '' : ` as ${owner.logicalId}`;
  return owner.owned === 'here' ? `owned here${as}` : `owned by ${owner.project}${as}`;
}

/** `CheckGroup “Made by hand” (id 42)`: the kind, the name and the id the account gave it. */
function subjectOf(r: AuditedResource): string {
  return `${r.kind}${r.name === undefined ? '' : ` “${r.name}”`} (id ${String(r.physicalId)})`;
}

function messageOf(f: AuditFinding): string {
  const message = f.path === '' ? f.message : `${f.path}: ${f.message}`;
  return f.waived === undefined ? message : `${message} (waived, ${f.waived.severity}: ${f.waived.reason})`;
}

/**
 * The audit for people: each finding, errors first, with the resource (kind, name, id), who owns
 * it, the policy, what it found, the hint and, for what no project owns, the command that takes it
 * over; then a summary line. Account text escaped for the terminal, phone numbers masked.
 */
export function renderAuditText(report: AuditReport, s: Style, cwd?: string): string {
  const out: string[] = [];
  for (const f of report.findings) {
    const label = labelOf(f);
    const paint = label === 'error' ? s.red : label === 'warning' ? s.yellow : s.dim;
    const subject = f.resource === undefined ? '' : ` ${s.bold(t(subjectOf(f.resource)))}`;
    const owner = f.resource === undefined ? '' : `  ${t(ownerPhrase(f.resource.owner))}`;
    const at = f.location === undefined ? '' : s.dim(`  ${t(placeOf(f, cwd))}`);
    out.push(`${paint(label.padEnd(7))}${subject}${owner}${at}  ${s.dim(`[${t(f.policy ?? '')}]`)}`);
    out.push(`    ${t(messageOf(f), { multiline: true })}`);
    if (f.hint !== undefined && f.waived === undefined) out.push(s.dim(`    hint: ${t(f.hint)}`));
    if (f.importCommand !== undefined) out.push(`    take it over: ${s.cyan(t(f.importCommand))}`);
  }
  if (report.unreadable.length > 0) {
    if (out.length > 0) out.push('');
    out.push(s.yellow(`Not checked (${report.unreadable.length}):`));
    for (const u of report.unreadable)
      out.push(`  ${t(subjectOf(u.resource))}  ${t(ownerPhrase(u.resource.owner))}: ${t(u.reason)}`);
  }
  if (out.length > 0) out.push('');
  out.push(summaryOf(report, s));
  return maskPhones(`${out.join('\n')}\n`, new Set(report.phoneNumbers));
}

function summaryOf(report: AuditReport, s: Style): string {
  const errors = report.findings.some((f) => labelOf(f) === 'error');
  const warnings = report.findings.some((f) => labelOf(f) === 'warning');
  const totals = auditTotals(report.findings);
  const scope = auditScope(report.resources);
  if (errors) return `${s.red('✗')} ${totals} in ${scope}`;
  if (warnings) return `${s.yellow('!')} ${totals} in ${scope}`;
  return `${s.green('✓')} No error or warning in ${scope}${totals === '' ? '' : ` (${totals})`}`;
}

function placeOf(f: AuditFinding, cwd: string | undefined): string {
  const l = f.location;
  if (l === undefined) return '';
  return `${cwd === undefined ? l.file : relative(cwd, l.file)}:${l.line}:${l.column}`;
}

/**
 * The audit as GitHub-flavoured markdown, for the audit issue or a job summary: a title, the
 * totals, and a table of the findings, errors first (resource, owner or the command that takes it
 * over, policy, finding and hint). Account text escaped as every comment's is; phone numbers
 * masked. It fits `maxLength`: findings that do not fit are counted at the end.
 */
export function renderAuditMarkdown(
  report: AuditReport,
  options: Omit<MarkdownOptions, 'fullPlanHint'>,
): string {
  const max = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const totals = auditTotals(report.findings);
  const scope = text(auditScope(report.resources));
  const clean = !report.findings.some((f) => labelOf(f) === 'error' || labelOf(f) === 'warning');
  let out = `${markdownHeading('audit', options)}\n\n`;
  out += clean
    ? `**No error or warning** in ${scope}${totals === '' ? '' : ` (${totals})`}.\n\n`
    : `**${totals}** in ${scope}.\n\n`;
  const unreadable = unreadableNote(report);
  if (report.findings.length > 0) {
    out += '| | resource | owner | policy | finding |\n| --- | --- | --- | --- | --- |\n';
    const footer = (left: number) =>
      `\n_${left} more finding${left === 1 ? '' : 's'} not shown: run monitor audit to see them all._\n`;
    const reserve = footer(report.findings.length).length + unreadable.length + 100;
    let shown = 0;
    for (const f of report.findings) {
      const row = `${findingRow(f)}\n`;
      if (out.length + row.length + reserve > max) break;
      out += row;
      shown++;
    }
    if (shown < report.findings.length) out += footer(report.findings.length - shown);
    out += '\n';
  }
  if (out.length + unreadable.length <= max) out += unreadable;
  return maskPhones(out, new Set(report.phoneNumbers));
}

function findingRow(f: AuditFinding): string {
  const label = labelOf(f);
  const severity = label === 'error' ? '**error**' : label;
  const r = f.resource;
  const resource =
    r === undefined
      ? ''
      : `${r.kind}${r.name === undefined ? '' : ` “${text(r.name)}”`} (id ${code(String(r.physicalId), { inTable: true })})`;
  const at =
    f.location === undefined ? '' : ` (${text(`${f.location.file.split('/').pop()}:${f.location.line}`)})`;
  const owner =
    r === undefined
      ? ''
      : f.importCommand === undefined
        ? `${text(ownerPhrase(r.owner))}${at}`
        : `${text(ownerPhrase(r.owner))}: take it over with ${code(f.importCommand, { inTable: true })}`;
  const hint = f.hint === undefined || f.waived !== undefined ? '' : `<br>hint: ${text(f.hint)}`;
  return `| ${severity} | ${resource} | ${owner} | ${code(f.policy ?? '', { inTable: true })} | ${text(messageOf(f))}${hint} |`;
}

function unreadableNote(report: AuditReport): string {
  if (report.unreadable.length === 0) return '';
  const shown = report.unreadable
    .slice(0, 20)
    .map((u) => `- ${text(subjectOf(u.resource))}: ${text(u.reason)}`);
  const more = report.unreadable.length - shown.length;
  return `**Not checked** (${report.unreadable.length}): the policies could not read ${report.unreadable.length === 1 ? 'it' : 'them'} as constructs.\n\n${shown.join('\n')}${more > 0 ? `\n- and ${more} more` : ''}\n`;
}
