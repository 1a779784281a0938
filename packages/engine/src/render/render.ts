import { relative } from 'node:path';
import { KINDS, redactPayload, SENSITIVE_VALUE } from '@monitor/api';
import type { StructuredPatchHunk } from 'diff';
// The one function used, by its module: the package index loads every diff algorithm (54 files).
import { structuredPatch } from 'diff/lib/patch/create.js';
import { describeConflict } from '../plan/conflict-text.js';
import type { Change } from '../plan/diff.js';
import type { Operation, Plan, ReplaceOperation, UpdateOperation } from '../plan/plan.js';
import { hasChanges, isResendOnly } from '../plan/queries.js';
import { ROUTING_TEST } from '../routing-tests/findings.js';
import { escapeTerminal as t } from './escape.js';
import { findingCounts, findingsText } from './findings.js';
import { maskPhones, planPhoneNumbers } from './phone.js';
import { projectRefsText } from './project-refs.js';
import { routingSectionText, routingWarningText } from './routing.js';
import type { Style } from './style.js';

/** `+` create, `~` update, `-` delete, `=` adopt, `>` move, `-/+` replace. */
export const ACTION_SYMBOL: Record<Operation['action'], string> = {
  create: '+',
  update: '~',
  delete: '-',
  adopt: '=',
  move: '>',
  replace: '-/+',
};

function colorOf(action: Operation['action'], s: Style): (text: string) => string {
  if (action === 'create') return s.green;
  if (action === 'delete' || action === 'replace') return s.red;
  if (action === 'update') return s.yellow;
  return s.cyan;
}

/** Strings longer than this, or with a newline, are shown as a unified diff. */
const LONG_STRING = 80;

/** A value as a plan shows it: JSON, `null` for absent. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  return JSON.stringify(v);
}

function isLong(v: unknown): v is string {
  return typeof v === 'string' && (v.length > LONG_STRING || v.includes('\n'));
}

/** What a change of a masked sensitive value says instead of its values; undefined for any other change. */
export function sensitiveNote(change: Change): string | undefined {
  if (change.sensitive !== true || change.before !== SENSITIVE_VALUE || change.after !== SENSITIVE_VALUE)
    return undefined;
  return change.unverified === true
    ? '(sensitive value not compared: no state secret, sent again)'
    : '(sensitive value changed)';
}

/**
 * A change of a long or multi-line string as the hunks of a unified diff, line by line as people
 * read text (a changed one-line value is one `-` line and one `+` line); undefined when both sides
 * are short and show as `before → after`.
 */
export function textHunks(change: Change, context: number): StructuredPatchHunk[] | undefined {
  if (!isLong(change.before) && !isLong(change.after)) return undefined;
  const before = typeof change.before === 'string' ? change.before : '';
  const after = typeof change.after === 'string' ? change.after : '';
  return structuredPatch('live', 'code', `${before}\n`, `${after}\n`, undefined, undefined, { context })
    .hunks;
}

function unifiedDiff(hunks: StructuredPatchHunk[], s: Style, indent: string): string[] {
  const out: string[] = [];
  for (const hunk of hunks) {
    out.push(s.cyan(`${indent}@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      const paint = line.startsWith('+') ? s.green : line.startsWith('-') ? s.red : (x: string) => x;
      out.push(paint(`${indent}${t(line)}`));
    }
  }
  return out;
}

/** What a field changed in both the code and the account since the last deploy says beside it. */
export const BOTH_NOTE = "changed in the account too; the deploy writes the code's value";

function changeLines(change: Change, s: Style, indent: string): string[] {
  const note = sensitiveNote(change);
  const path = t(change.path);
  const both = change.cause === 'both' ? s.yellow(`  (${BOTH_NOTE})`) : '';
  if (note !== undefined) return [`${indent}${path}: ${s.yellow(note)}${both}`];
  const hunks = textHunks(change, 3);
  if (hunks !== undefined) return [`${indent}${path}:${both}`, ...unifiedDiff(hunks, s, `${indent}  `)];
  return [
    `${indent}${path}: ${s.red(t(formatValue(change.before)))} → ${s.green(t(formatValue(change.after)))}${both}`,
  ];
}

/** A change's cause; a saved plan from before causes were told has the resource's as a whole. */
function causeIn(op: UpdateOperation, change: Change): 'code' | 'account' | 'both' {
  return change.cause ?? (op.drift ? 'account' : 'code');
}

/**
 * The plan's operations (deletions aside) as the two sections people read: what the deploy writes
 * because the code says so (each update with its fields from the code, and those changed in both
 * places), and the drift (each update with the fields only the account changed). A resource with
 * both is in both, each time with its own fields.
 */
export function sectionsOf(plan: Plan): { fromCode: Operation[]; drift: UpdateOperation[] } {
  const fromCode: Operation[] = [];
  const drift: UpdateOperation[] = [];
  for (const op of plan.operations) {
    if (op.action === 'delete' || isResendOnly(op)) continue;
    if (op.action !== 'update') {
      fromCode.push(op);
      continue;
    }
    // A subscription moved to a resource made again is told under its replace (`repointedBy`).
    const own = op.changes.filter((c) => c.replaced === undefined);
    const account = own.filter((c) => causeIn(op, c) === 'account');
    const code = own.filter((c) => causeIn(op, c) !== 'account');
    if (code.length > 0) fromCode.push({ ...op, changes: code });
    if (account.length > 0) drift.push({ ...op, changes: account });
  }
  return { fromCode, drift };
}

/** The resources a replace points at the resource made again (`Kind logicalId "name"`), from the plan's updates. */
export function repointedBy(plan: Plan, key: string): string[] {
  return plan.operations.flatMap((op) =>
    op.action !== 'delete' &&
    op.action !== 'create' &&
    op.action !== 'replace' &&
    op.changes.some((c) => c.replaced === key)
      ? [`${op.kind} ${op.logicalId}${op.name === undefined ? '' : ` ${JSON.stringify(op.name)}`}`]
      : [],
  );
}

/** What a replace's lines add: the values it is made with, what it loses, and what it re-subscribes. */
export function replaceDetails(
  op: ReplaceOperation,
  plan: Plan,
): { made: string[]; lost: string[]; repointed: string[] } {
  const payload = redactPayload(KINDS[op.kind], op.payload) as Record<string, unknown>;
  return {
    made: Object.entries(payload).map(([k, v]) => `+ ${k}: ${formatValue(v)}`),
    lost: (op.lost ?? []).map(
      (c) =>
        `${c.path}: ${formatValue(c.before)} in the account is lost (ignoreChanges keeps it on an update, not through a replace): made with ${formatValue(c.after)}`,
    ),
    repointed: repointedBy(plan, `${op.kind}:${op.logicalId}`),
  };
}

function physical(op: Operation): string {
  return op.action === 'create' ? '' : ` (id ${t(String(op.physicalId))})`;
}

function operationLines(op: Operation, s: Style, plan?: Plan): string[] {
  const paint = colorOf(op.action, s);
  const name = op.name === undefined ? '' : ` ${t(JSON.stringify(op.name))}`;
  const head = `  ${paint(ACTION_SYMBOL[op.action])} ${op.kind} ${s.bold(t(op.logicalId))}${name}${s.dim(physical(op))}`;
  if (op.action === 'create') {
    return [
      `${head}${op.recreate ? s.dim('  recreate: the resource in state is gone from the account') : ''}`,
    ];
  }
  if (op.action === 'delete') return [head];
  if (op.action === 'replace') {
    const lines = [`${head}${s.dim('  replace: deleted, then created again from the code')}`];
    if (plan === undefined) return lines;
    const { made, lost, repointed } = replaceDetails(op, plan);
    for (const line of made) lines.push(`      ${s.green(t(line))}`);
    for (const line of lost) lines.push(`      ${s.yellow(`! ${t(line)}`)}`);
    if (repointed.length > 0)
      lines.push(
        `      ${s.dim(`subscribed again to the new one in this deploy: ${t(repointed.join(', '))}`)}`,
      );
    return lines;
  }
  const note =
    op.action === 'adopt'
      ? s.dim(
          op.resumed === true
            ? '  adopt: created by an interrupted deploy, found in the account'
            : '  adopt: true, found in the account by its natural key',
        )
      : op.action === 'move' && op.from !== undefined
        ? s.dim(`  move: renamed from "${t(op.from)}"`)
        : '';
  const lines = [`${head}${note}`];
  for (const change of op.changes) lines.push(...changeLines(change, s, '      '));
  if (op.changes.length > 0 && op.unchangedAttributes > 0) {
    lines.push(
      s.dim(
        `      (${op.unchangedAttributes} unchanged attribute${op.unchangedAttributes === 1 ? '' : 's'} hidden)`,
      ),
    );
  }
  return lines;
}

/** `Plan: 3 to create, 2 to update, 1 to delete, 1 to adopt, 40 unchanged.` */
export function summaryLine(plan: Plan): string {
  const { summary } = plan;
  const parts = [
    `${summary.create} to create`,
    `${summary.update} to update`,
    `${summary.delete} to delete`,
    `${summary.adopt} to adopt`,
    ...(summary.move > 0 ? [`${summary.move} to move`] : []),
    ...(summary.replace > 0 ? [`${summary.replace} to replace`] : []),
    ...(summary.resend > 0 ? [`${summary.resend} to send secrets again`] : []),
    `${summary.unchanged} unchanged`,
    ...(plan.conflicts.length > 0
      ? [`${plan.conflicts.length} conflict${plan.conflicts.length === 1 ? '' : 's'}`]
      : []),
    ...policyErrors(plan),
  ];
  return `Plan: ${parts.join(', ')}.`;
}

/** `2 policy errors`, `1 routing test failed`: what makes a deploy refuse beside conflicts. */
function policyErrors(plan: Plan): string[] {
  const routing = findingCounts(plan.findings.filter((f) => f.policy === ROUTING_TEST)).error;
  const policies = findingCounts(plan.findings).error - routing;
  return [
    ...(policies === 0 ? [] : [`${policies} policy error${policies === 1 ? '' : 's'}`]),
    ...(routing === 0 ? [] : [`${routing} routing test${routing === 1 ? '' : 's'} failed`]),
  ];
}

/** What a partial plan says first: what it covers, and that the rest was not compared. */
export function partialNote(targets: readonly string[]): string {
  return `Partial plan (--target): only ${targets.join(', ')}, and what they need created first. The rest of the project was not compared: a full diff may show more.`;
}

const list = (keys: string[]) => keys.map((k) => t(k)).join(', ');

/**
 * The plan for people: deletes first under a warning, then changes from the code, then drift
 * (changed outside monitor), each update with only its changed paths; a summary line at the end.
 */
export function renderPlanText(plan: Plan, s: Style, options: { cwd?: string } = {}): string {
  const out: string[] = [];
  if (plan.targets !== undefined) out.push(s.yellow(partialNote(plan.targets)), '');
  out.push(...routingWarningText(plan.routing, plan.findings, s));
  out.push(...operationsText(plan, s));
  out.push(...projectRefsText(plan, s));
  out.push(...conflictsText(plan.conflicts, s, options.cwd));
  out.push(...findingsText(plan.findings, s, options.cwd));
  out.push(...stateNotesText(plan, s));
  out.push(closingLine(plan, s));
  return maskPhones(`${out.join('\n')}\n`, planPhoneNumbers(plan));
}

/**
 * The operations in three sections: deletions (a replacement deletes the resource too) under a
 * warning, changes from the code, and drift; who gets paged comes between the first two, before
 * the field-level details, because it is what a reviewer asks first.
 */
function operationsText(plan: Plan, s: Style): string[] {
  const out: string[] = [];
  const deletes = plan.operations.filter((o) => o.action === 'delete' || o.action === 'replace');
  // Updates that only send unverifiable secrets again are a note of stateNotesText, not changes.
  const sections = sectionsOf(plan);
  const code = sections.fromCode.filter((o) => o.action !== 'replace');
  const section = (heading: string, ops: readonly Operation[]) => {
    if (ops.length === 0) return;
    out.push(heading);
    for (const op of ops) out.push(...operationLines(op, s, plan));
    out.push('');
  };
  section(
    s.red(
      s.bold(
        `! ${deletes.length} resource${deletes.length === 1 ? '' : 's'} will be DELETED from the account:`,
      ),
    ),
    deletes,
  );
  out.push(...routingSectionText(plan.routing, s));
  section(s.bold('Changes from the code:'), code);
  section(
    s.bold("Drift: changed outside monitor since the last deploy (deploy restores the code's values):"),
    sections.drift,
  );
  return out;
}

/** The constructs in conflict with the account, each where it is written, with its hint. */
function conflictsText(conflicts: Plan['conflicts'], s: Style, cwd: string | undefined): string[] {
  if (conflicts.length === 0) return [];
  const out = [
    s.red(
      s.bold(
        `! ${conflicts.length} construct${conflicts.length === 1 ? '' : 's'} in conflict with the account: deploy refuses until resolved`,
      ),
    ),
  ];
  for (const c of conflicts) {
    const { message, hint } = describeConflict(c);
    const file =
      c.location === undefined ? '' : cwd === undefined ? c.location.file : relative(cwd, c.location.file);
    const at = c.location === undefined ? '' : s.dim(`  ${t(file)}:${c.location.line}:${c.location.column}`);
    out.push(`  ${s.red('!')} ${c.kind} ${s.bold(t(c.logicalId))}${at}`);
    out.push(`      ${t(message)}`);
    out.push(s.dim(`      hint: ${t(hint)}`));
  }
  out.push('');
  return out;
}

/**
 * What the plan records or leaves without a call: resources kept, protect switches, secrets sent
 * again, and the state entries it drops (gone, mismatched, abandoned creates).
 */
function stateNotesText(plan: Plan, s: Style): string[] {
  const out: string[] = [];
  if (plan.protectedKept.length > 0) {
    out.push(s.dim(`Kept (protect: true, removed from code): ${list(plan.protectedKept)}`));
  }
  if (plan.keptForProtected.length > 0) {
    out.push(
      s.dim(
        `Kept (removed from code, but a protected resource refers to it): ${list(plan.keptForProtected.map((k) => `${k.key} (by ${k.by})`))}`,
      ),
    );
  }
  if (plan.protectChanged.length > 0) {
    out.push(
      `Recorded in state, no call: ${list(plan.protectChanged.map((p) => `${p.key} protect: ${String(p.protect)}`))}`,
    );
  }
  if (plan.unverifiedSecrets > 0) {
    out.push(
      s.yellow(
        `${plan.unverifiedSecrets} sensitive value${plan.unverifiedSecrets === 1 ? '' : 's'} the service masks could not be compared without a state secret, and will be sent again. Set MONITOR_STATE_SECRET (see docs/deploy.md).`,
      ),
    );
    // Which ones, for the updates that send nothing else (they are no change: not listed above).
    for (const op of plan.operations.filter(isResendOnly)) {
      const paths = op.action === 'update' ? op.changes.map((c) => t(c.path)).join(', ') : '';
      out.push(s.dim(`  sent again: ${op.kind} ${t(op.logicalId)}: ${paths}`));
    }
  }
  const mismatched = new Set(plan.mismatched.map((m) => m.key));
  const gone = plan.forget.filter((key) => !mismatched.has(key));
  if (gone.length > 0) {
    out.push(s.dim(`Dropped from state (gone from the account and the code): ${list(gone)}`));
  }
  for (const m of plan.mismatched) {
    out.push(
      s.yellow(
        `Not deleted, dropped from state: ${t(m.key)} was id ${t(String(m.physicalId))} with ${t(m.recorded)}, but that id now holds a resource with ${t(m.found)}. It is not this project's: left as it is.`,
      ),
    );
  }
  if (plan.abandonedCreates.length > 0) {
    out.push(
      s.yellow(
        `Dropped from state: interrupted create${plan.abandonedCreates.length === 1 ? '' : 's'} of ${list(plan.abandonedCreates)}, gone from the code. If the service made ${plan.abandonedCreates.length === 1 ? 'it, it is' : 'them, they are'} in the account, not managed by monitor.`,
      ),
    );
  }
  return out;
}

/** "No changes." with the count of resources that match, or the summary of the changes. */
function closingLine(plan: Plan, s: Style): string {
  if (!hasChanges(plan) && plan.conflicts.length === 0 && findingCounts(plan.findings).error === 0) {
    return `${s.green('No changes.')} ${plan.unchanged === 1 ? '1 resource matches' : `${plan.unchanged} resources match`} the code.`;
  }
  return s.bold(summaryLine(plan));
}
