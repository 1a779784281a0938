import { KINDS, redactPayload } from '@monitor/api';
import type { OperationResult } from '../apply/apply.js';
import type { ApplyOutcome } from '../flows/deploy.js';
import { describeConflict } from '../plan/conflict-text.js';
import type { Change } from '../plan/diff.js';
import type { Operation, Plan } from '../plan/plan.js';
import { hasChanges } from '../plan/queries.js';
import { markdownCode as code, markdownFence, escapeMarkdown as text } from './escape.js';
import { findingsMarkdown } from './findings.js';
import { maskedPhone, maskPhones, planPhoneNumbers } from './phone.js';
import { projectRefsMarkdown } from './project-refs.js';
import {
  ACTION_SYMBOL,
  BOTH_NOTE,
  formatValue,
  partialNote,
  replaceDetails,
  sectionsOf,
  sensitiveNote,
  summaryLine,
  textHunks,
} from './render.js';
import { routingSectionMarkdown, routingWarningMarkdown } from './routing.js';
import { renderVerificationMarkdown } from './verification.js';

/** GitHub's limit on a comment's body; GitLab's is larger. */
export const GITHUB_COMMENT_LIMIT = 65_536;

export interface MarkdownOptions {
  project: string;
  /** The environment, when the project defines environments. */
  environment?: string | undefined;
  account: string;
  /** The embedded emulator's account. */
  local?: boolean;
  /** @default GITHUB_COMMENT_LIMIT */
  maxLength?: number;
  /** Where the whole plan is when the comment has to leave resources out. */
  fullPlanHint?: string;
}

/** One change as lines of a `diff` block: `-` live, `+` code, `!` a masked sensitive value. */
function changeLines(change: Change): string[] {
  const note = sensitiveNote(change);
  const both = change.cause === 'both' ? [`! ${change.path}: ${BOTH_NOTE}`] : [];
  if (note !== undefined) return [`! ${change.path}: ${note}`, ...both];
  const hunks = textHunks(change, 2);
  if (hunks !== undefined) {
    return [
      ...both,
      `  ${change.path}:`,
      ...hunks.flatMap((h) =>
        h.lines.filter((l) => !l.startsWith('\\')).map((l) => `${l[0]}     ${l.slice(1)}`),
      ),
    ];
  }
  return [
    ...both,
    `- ${change.path}: ${formatValue(change.before)}`,
    `+ ${change.path}: ${formatValue(change.after)}`,
  ];
}

function title(op: Operation): string {
  const name = op.name === undefined ? '' : ` “${text(op.name)}”`;
  const id = op.action === 'create' ? '' : ` (id ${text(String(op.physicalId))})`;
  return `<code>${ACTION_SYMBOL[op.action]}</code> ${op.kind} <b>${text(op.logicalId)}</b>${name}${id}`;
}

/** One resource: a `<details>` with its field-level diff. */
function resourceBlock(op: Operation, plan: Plan): string {
  let lines: string[];
  let what: string;
  if (op.action === 'replace') {
    const { made, lost, repointed } = replaceDetails(op, plan);
    lines = [
      ...made,
      ...lost.map((line) => `! ${line}`),
      ...(repointed.length === 0
        ? []
        : [`  subscribed again to the new one in this deploy: ${repointed.join(', ')}`]),
    ];
    what = 'replace: deleted, then created again';
  } else if (op.action === 'create') {
    const payload = redactPayload(KINDS[op.kind], op.payload) as Record<string, unknown>;
    lines = Object.entries(payload).map(([k, v]) => `+ ${k}: ${formatValue(v)}`);
    what = op.recreate ? 'recreate: gone from the account' : 'create';
  } else if (op.action === 'delete') {
    lines = [];
    what = 'delete';
  } else {
    lines = op.changes.flatMap(changeLines);
    const n = op.changes.length;
    what =
      op.action === 'adopt'
        ? `adopt${op.resumed === true ? ' (created by an interrupted deploy)' : ''}`
        : op.action === 'move'
          ? `move from “${text(op.from ?? '')}”`
          : `${n} change${n === 1 ? '' : 's'}`;
    if (n > 0 && op.unchangedAttributes > 0)
      lines.push(`  (${op.unchangedAttributes} unchanged attributes hidden)`);
  }
  const body = lines.length === 0 ? '' : `\n\n${markdownFence('diff', lines.join('\n'))}\n`;
  return `<details>\n<summary>${title(op)}: ${what}</summary>${body}\n</details>\n`;
}

function conflictsTable(plan: Plan): string {
  const rows = plan.conflicts.map((c) => {
    const { message, hint } = describeConflict(c);
    const at = c.location === undefined ? '' : `${c.location.file.split('/').pop()}:${c.location.line}`;
    return `| ${c.kind} ${code(c.logicalId, { inTable: true })} | ${text(at)} | ${text(message)} | ${text(hint)} |`;
  });
  return `#### Conflicts: deploy refuses until they are resolved\n\n| construct | at | problem | way out |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n\n`;
}

/** `### monitor diff: project → account `id``, the first line of every comment. */
export function markdownHeading(
  command: string,
  options: Pick<MarkdownOptions, 'project' | 'environment' | 'account' | 'local'>,
): string {
  const where = `account ${code(options.account)}${options.local === true ? ' (local emulator)' : ''}`;
  const environment = options.environment === undefined ? '' : ` (${text(options.environment)})`;
  return `### monitor ${command}: ${text(options.project)}${environment} → ${where}`;
}

/** The deletions, always listed in full: one bullet each, or per kind in one line when many. */
function deletionBanner(deletes: Operation[], budget: number): string {
  const head = `> [!CAUTION]\n> **${deletes.length} resource${deletes.length === 1 ? '' : 's'} will be deleted from the account:**\n`;
  const bullets = deletes.map((op) => {
    const name = op.name === undefined ? '' : ` “${text(op.name)}”`;
    return `> - ${op.kind} ${code(op.logicalId)}${name}${op.action === 'replace' ? ' (then created again)' : ''}`;
  });
  const full = `${head}${bullets.join('\n')}\n`;
  if (full.length <= budget) return full;
  const byKind = new Map<string, string[]>();
  for (const op of deletes) byKind.set(op.kind, [...(byKind.get(op.kind) ?? []), op.logicalId]);
  const lines = [...byKind].map(([kind, ids]) => `> - ${kind} (${ids.length}): ${ids.map(text).join(', ')}`);
  return `${head}${lines.join('\n')}\n`;
}

/**
 * The plan as GitHub-flavoured markdown (GitLab renders it too), for a pull-request comment or a
 * job summary: a title, the summary line, a caution banner listing every deletion, the changes
 * from the code and the drift as one `<details>` per resource, the conflicts as a table. Secrets
 * are masked as everywhere else. It fits `maxLength`: the title, the summary and the deletions
 * always stay; resources that do not fit are counted at the end.
 */
export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions): string {
  return maskPhonesInMarkdown(planMarkdown(plan, options), planPhoneNumbers(plan));
}

function planMarkdown(plan: Plan, options: MarkdownOptions): string {
  const max = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const head: string[] = [markdownHeading('diff', options), ''];
  const empty = !hasChanges(plan) && plan.conflicts.length === 0;
  head.push(
    empty
      ? `**No changes.** ${plan.unchanged === 1 ? '1 resource matches' : `${plan.unchanged} resources match`} the code.`
      : `**${summaryLine(plan)}**`,
    '',
  );
  const deletes = plan.operations.filter((o) => o.action === 'delete' || o.action === 'replace');
  const { fromCode, drift } = sectionsOf(plan);

  let out = `${head.join('\n')}\n`;
  if (plan.targets !== undefined) out += `> [!NOTE]\n> ${text(partialNote(plan.targets))}\n\n`;
  out += routingWarningMarkdown(plan.routing, plan.findings);
  if (deletes.length > 0) out += `${deletionBanner(deletes, Math.floor(max * 0.6))}\n`;
  // What the reviewer decides on comes before the resource details.
  out += findingsMarkdown(plan.findings, Math.floor(max * 0.3));
  if (plan.conflicts.length > 0) out += conflictsTable(plan);
  if (plan.mismatched.length > 0) out += mismatchedNote(plan);
  out += projectRefsMarkdown(plan, Math.floor(max * 0.1));
  // Who gets paged goes above the resource details: it is what a reviewer asks first.
  out += routingSectionMarkdown(plan.routing, Math.floor(max * 0.2));

  // Resources in order of importance, each in whole or not at all (deletions are all in the banner).
  const sections: { heading: string; ops: Operation[] }[] = [
    { heading: '#### Changes from the code', ops: fromCode },
    { heading: "#### Drift: changed outside monitor (deploy restores the code's values)", ops: drift },
  ];
  const total = fromCode.length + drift.length;
  const footerFor = (left: number) =>
    `\n_${left} more resource${left === 1 ? '' : 's'} not shown: ${text(options.fullPlanHint ?? 'see the job summary, or save the whole plan with monitor diff --out plan.json')}._\n`;
  const reserve = footerFor(total).length + 200;
  let shown = 0;
  let full = false;
  for (const { heading, ops } of sections) {
    if (ops.length === 0 || full) continue;
    let part = `${heading}\n\n`;
    let inPart = 0;
    for (const op of ops) {
      const block = `${resourceBlock(op, plan)}\n`;
      if (out.length + part.length + block.length + reserve > max) {
        full = true;
        break;
      }
      part += block;
      inPart++;
    }
    if (inPart > 0) out += part;
    shown += inPart;
  }
  const notes: string[] = [];
  if (plan.unchanged > 0 && !empty) notes.push(`${plan.unchanged} unchanged`);
  if (plan.protectedKept.length > 0)
    notes.push(`kept (protect: true, removed from code): ${plan.protectedKept.length}`);
  if (plan.unverifiedSecrets > 0)
    notes.push(
      `${plan.unverifiedSecrets} sensitive value${plan.unverifiedSecrets === 1 ? '' : 's'} not compared (set MONITOR_STATE_SECRET)`,
    );
  if (notes.length > 0) out += `\n<sub>${notes.join(' · ')}</sub>\n`;
  if (shown < total) out += footerFor(total - shown);
  return out;
}

/** State entries whose ids now hold other resources: never deleted, dropped from state. */
function mismatchedNote(plan: Plan): string {
  const n = plan.mismatched.length;
  const lines = plan.mismatched.map(
    (m) =>
      `> - ${code(m.key)} was id ${code(String(m.physicalId))} with ${text(m.recorded)}; that id now holds a resource with ${text(m.found)}`,
  );
  return `> [!WARNING]\n> **${n} resource${n === 1 ? '' : 's'} not deleted: ${n === 1 ? 'its id holds' : 'their ids hold'} another resource now (dropped from state, left as ${n === 1 ? 'it is' : 'they are'}):**\n${lines.join('\n')}\n\n`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function resultItem(r: OperationResult): string {
  const id = r.physicalId === undefined ? '' : ` (id ${text(String(r.physicalId))})`;
  return `<code>${ACTION_SYMBOL[r.action]}</code> ${r.kind} ${code(r.logicalId, { inTable: true })}${id}`;
}

/**
 * How a deploy (or destroy) ended, as markdown for the merged pull request or the commit: a
 * title, one line with the totals, every failure with its error and hint, and what was done in a
 * `<details>`. It fits `maxLength`: the title, the totals and the first failures always stay.
 */
export function renderApplyMarkdown(
  outcome: ApplyOutcome,
  options: MarkdownOptions & { command?: 'deploy' | 'destroy' },
): string {
  const text = applyMarkdown(outcome, options);
  return 'plan' in outcome && outcome.plan !== undefined
    ? maskPhonesInMarkdown(text, planPhoneNumbers(outcome.plan))
    : text;
}

/** Phone numbers masked in markdown, as written and as escaped (`maskPhones`). */
function maskPhonesInMarkdown(markdown: string, numbers: ReadonlySet<string>): string {
  if (numbers.size === 0) return markdown;
  const escaped = new Map([...numbers].map((n) => [text(n), text(maskedPhone(n))]));
  let out = maskPhones(markdown, numbers);
  for (const [number, masked] of escaped) if (out.includes(number)) out = out.split(number).join(masked);
  return out;
}

function applyMarkdown(
  outcome: ApplyOutcome,
  options: MarkdownOptions & { command?: 'deploy' | 'destroy' },
): string {
  const max = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  let out = `${markdownHeading(options.command ?? 'deploy', options)}\n\n`;
  switch (outcome.status) {
    case 'no-changes':
      return `${out}**No changes.** The account already matches the code; nothing was applied.\n`;
    case 'stale':
      return `${out}**Not applied: the saved plan is stale.** Nothing was changed:\n\n${outcome.stale.map((s) => `- ${text(s)}`).join('\n')}\n`;
    case 'conflicts':
      return `${out}**Not applied: ${outcome.plan.conflicts.length} construct${outcome.plan.conflicts.length === 1 ? '' : 's'} in conflict with the account.** Nothing was changed.\n\n${conflictsTable(outcome.plan)}`;
    case 'policy-errors':
      return `${out}**Not applied: ${outcome.errors.length} policy error${outcome.errors.length === 1 ? '' : 's'}.** Nothing was changed.\n\n${findingsMarkdown(outcome.plan.findings, max * 0.8)}`;
    case 'refused':
      return `${out}**Not applied: ${text(outcome.reason)}**\n`;
    case 'applied':
      break;
  }
  const { result } = outcome;
  const done = result.results.filter((r) => r.status === 'done');
  const count = (action: Operation['action']) => done.filter((r) => r.action === action).length;
  const totals = `${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('adopt')} adopted, ${count('move')} moved${count('replace') > 0 ? `, ${count('replace')} replaced` : ''}`;
  const by = (s: OperationResult['status']) => result.results.filter((r) => r.status === s);
  if (result.ok) {
    out += `**✓ Applied in ${seconds(result.elapsedMs)}:** ${totals}; ${result.requests} API call${result.requests === 1 ? '' : 's'}.\n\n`;
  } else {
    out += `**✗ Stopped after ${seconds(result.elapsedMs)}:** ${by('failed').length} failed, ${done.length} done (${totals}), ${by('skipped').length} skipped, ${by('not-started').length} not started.\n\n`;
    out += '> [!WARNING]\n> State holds everything that was done: run the deploy again to continue.\n\n';
  }
  const footer = (left: number, what: string) => `\n_${left} more ${what} not shown: see the job log._\n`;
  const problems = [...by('failed'), ...by('skipped')];
  if (problems.length > 0) {
    const rows: string[] = [];
    const head = '| operation | status | error | hint |\n| --- | --- | --- | --- |\n';
    let size = out.length + head.length + 200;
    for (const r of problems) {
      const row = `| ${resultItem(r)} | ${r.status} | ${text(r.error?.message ?? '')} | ${text(r.error?.hint ?? '')} |`;
      if (size + row.length + 1 > max * 0.8) break;
      rows.push(row);
      size += row.length + 1;
    }
    out += `${head}${rows.join('\n')}\n`;
    if (rows.length < problems.length) out += footer(problems.length - rows.length, 'failures');
    out += '\n';
  }
  if (outcome.verification !== undefined) {
    // Verification comes before the list of done operations: it is what the reviewer reads next.
    out += `${renderVerificationMarkdown(outcome.verification, max * 0.9 - out.length)}\n`;
  }
  if (done.length > 0) {
    const items: string[] = [];
    let size = out.length + 200;
    for (const r of done) {
      const item = `- ${resultItem(r)}`;
      if (size + item.length + 1 > max) break;
      items.push(item);
      size += item.length + 1;
    }
    out += `<details>\n<summary>Done (${done.length})</summary>\n\n${items.join('\n')}\n${items.length < done.length ? footer(done.length - items.length, 'operations') : ''}\n</details>\n`;
  }
  return out;
}
