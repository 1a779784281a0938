import { relative } from 'node:path';
import type { Diagnostic } from '@monitor/constructs';
import { ROUTING_TEST } from '../routing-tests/findings.js';
import { markdownCode as code, escapeTerminal as t, escapeMarkdown as text } from './escape.js';
import type { Style } from './style.js';

/** How many findings of each kind: errors block a deploy, waived ones are listed apart. */
export function findingCounts(findings: readonly Diagnostic[]): {
  error: number;
  warning: number;
  info: number;
  waived: number;
} {
  const counts = { error: 0, warning: 0, info: 0, waived: 0 };
  for (const f of findings) {
    if (f.waived !== undefined) counts.waived++;
    else counts[f.severity]++;
  }
  return counts;
}

/** `2 errors, 1 warning, 1 waived`: the counts that are not zero. */
export function findingTotals(findings: readonly Diagnostic[]): string {
  const counts = findingCounts(findings);
  const parts: string[] = [];
  for (const [label, n] of [
    ['error', counts.error],
    ['warning', counts.warning],
    ['info', counts.info],
  ] as const) {
    if (n > 0) parts.push(`${n} ${label}${n === 1 || label === 'info' ? '' : 's'}`);
  }
  if (counts.waived > 0) parts.push(`${counts.waived} waived`);
  return parts.join(', ');
}

/** `error`, `warning`, `info`, or `waived` for a finding an exception waives. */
export function findingLabel(f: Diagnostic): string {
  return f.waived === undefined ? f.severity : 'waived';
}

/** What a finding says: its prop path, message and, when waived, the reason. */
function findingMessage(f: Diagnostic): string {
  const message = f.path === '' ? f.message : `${f.path}: ${f.message}`;
  return f.waived === undefined ? message : `${message} (waived, ${f.waived.severity}: ${f.waived.reason})`;
}

/** Whether a finding is a routing test's (`routingTests` in the config), not a policy's. */
const isRoutingTest = (f: Diagnostic) => f.policy === ROUTING_TEST;

/** The two sections of findings: the policies', and the routing tests' (`Routing tests`). */
function sections(findings: readonly Diagnostic[]): { title: string; findings: Diagnostic[] }[] {
  const routing = findings.filter(isRoutingTest);
  const policies = findings.filter((f) => !isRoutingTest(f));
  return [
    { title: 'Policy findings', findings: policies },
    { title: 'Routing tests', findings: routing },
  ].filter((section) => section.findings.length > 0);
}

/**
 * The findings of a plan for people, errors first: one entry each with its construct, place and
 * policy; the routing tests' in a section of their own.
 */
export function findingsText(findings: readonly Diagnostic[], s: Style, cwd?: string): string[] {
  return sections(findings).flatMap((section) => sectionText(section.title, section.findings, s, cwd));
}

function sectionText(title: string, findings: readonly Diagnostic[], s: Style, cwd?: string): string[] {
  const counts = findingCounts(findings);
  const head = `${title} (${findingTotals(findings)})${counts.error > 0 ? ': deploy refuses while an error stands' : ''}:`;
  const out = [counts.error > 0 ? s.red(s.bold(head)) : s.bold(head)];
  for (const f of ordered(findings)) {
    const label = findingLabel(f);
    const paint = label === 'error' ? s.red : label === 'warning' ? s.yellow : s.dim;
    const subject = f.construct === undefined ? '' : ` ${f.construct} ${s.bold(t(f.logicalId ?? ''))}`;
    const at = f.location === undefined ? '' : s.dim(`  ${t(place(f, cwd))}`);
    const tag = isRoutingTest(f) ? '' : `  ${s.dim(`[${t(f.policy ?? '')}]`)}`;
    out.push(`  ${paint(label.padEnd(7))}${subject}${at}${tag}`);
    out.push(`      ${t(findingMessage(f), { multiline: true })}`);
    if (f.hint !== undefined && f.waived === undefined) out.push(s.dim(`      hint: ${t(f.hint)}`));
  }
  out.push('');
  return out;
}

/**
 * The findings as markdown tables, errors first (the routing tests' in a table of their own), in at
 * most `budget` characters (the rest counted).
 */
export function findingsMarkdown(findings: readonly Diagnostic[], budget = Number.POSITIVE_INFINITY): string {
  const parts = sections(findings);
  return parts
    .map((section) => sectionMarkdown(section.title, section.findings, budget / parts.length))
    .join('');
}

function sectionMarkdown(title: string, findings: readonly Diagnostic[], budget: number): string {
  const counts = findingCounts(findings);
  const all = ordered(findings).map((f) => {
    const label = findingLabel(f);
    const severity = label === 'error' ? '**error**' : label;
    const subject =
      f.construct === undefined ? '' : `${f.construct} ${code(f.logicalId ?? '', { inTable: true })}`;
    const at = f.location === undefined ? '' : `${f.location.file.split('/').pop()}:${f.location.line}`;
    const hint = f.hint === undefined || f.waived !== undefined ? '' : ` _${text(f.hint)}_`;
    return `| ${severity} | ${code(f.policy ?? '', { inTable: true })} | ${subject} | ${text(at)} | ${text(findingMessage(f))}${hint} |`;
  });
  const note = counts.error > 0 ? ': deploy refuses while an error stands' : '';
  const head = `#### ${title} (${findingTotals(findings)})${note}\n\n| | policy | construct | at | finding |\n| --- | --- | --- | --- | --- |\n`;
  const rows: string[] = [];
  let size = head.length + 200;
  for (const row of all) {
    if (size + row.length + 1 > budget) break;
    rows.push(row);
    size += row.length + 1;
  }
  const left = all.length - rows.length;
  const more =
    left === 0
      ? ''
      : `\n_${left} more finding${left === 1 ? '' : 's'} not shown: run monitor diff to see them all._\n`;
  return `${head}${rows.join('\n')}\n${more}\n`;
}

/** The findings as data: positions as in the plan's conflicts, waivers with their reasons. */

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2, waived: 3 };

function ordered(findings: readonly Diagnostic[]): Diagnostic[] {
  return [...findings].sort((a, b) => (RANK[findingLabel(a)] ?? 4) - (RANK[findingLabel(b)] ?? 4));
}

function place(f: Diagnostic, cwd: string | undefined): string {
  const l = f.location;
  if (l === undefined) return '';
  return `${cwd === undefined ? l.file : relative(cwd, l.file)}:${l.line}:${l.column}`;
}
