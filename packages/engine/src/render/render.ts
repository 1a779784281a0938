import { relative } from 'node:path';
import { JsonWhenWritten, KINDS, messageRedactor, redactPayload, SENSITIVE_VALUE } from '@monitor/api';
import type { StructuredPatchHunk } from 'diff';
// The one function used, by its module: the package index loads every diff algorithm (54 files).
import { structuredPatch } from 'diff/lib/patch/create.js';
import type { Change } from '../plan/diff.js';
import {
  type Conflict,
  isResendOnly,
  type Operation,
  PLAN_FORMAT_VERSION,
  type Plan,
  type UpdateOperation,
} from '../plan/plan.js';
import type { RoutingChanges } from '../routing/changes.js';
import { escapeTerminal as t } from './escape.js';
import { findingCounts, findingsText, findingsToJson } from './findings.js';
import { routingSectionText, routingWarningText } from './routing.js';

/** How text is painted: the CLI passes colours (or none); the engine never decides. */
export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const same = (s: string) => s;
/** No colour at all. */
export const PLAIN: Style = { red: same, yellow: same, green: same, cyan: same, dim: same, bold: same };

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
    const account = op.changes.filter((c) => causeIn(op, c) === 'account');
    const code = op.changes.filter((c) => causeIn(op, c) !== 'account');
    if (code.length > 0) fromCode.push({ ...op, changes: code });
    if (account.length > 0) drift.push({ ...op, changes: account });
  }
  return { fromCode, drift };
}

function physical(op: Operation): string {
  return op.action === 'create' ? '' : ` (id ${t(String(op.physicalId))})`;
}

function operationLines(op: Operation, s: Style): string[] {
  const paint = colorOf(op.action, s);
  const name = op.name === undefined ? '' : ` ${t(JSON.stringify(op.name))}`;
  const head = `  ${paint(ACTION_SYMBOL[op.action])} ${op.kind} ${s.bold(t(op.logicalId))}${name}${s.dim(physical(op))}`;
  if (op.action === 'create') {
    return [
      `${head}${op.recreate ? s.dim('  recreate: the resource in state is gone from the account') : ''}`,
    ];
  }
  if (op.action === 'delete') return [head];
  if (op.action === 'replace')
    return [`${head}${s.dim('  replace: deleted, then created again from the code')}`];
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

/**
 * What a conflict's field and value may show: through the kind's message redactor, which knows
 * whether the field is sensitive (only the field and its value are known here).
 */
function conflictRedactor(c: Conflict): (text: string) => string {
  return messageRedactor(KINDS[c.kind], { [c.field]: c.value }, { partial: true });
}

/** What a conflict is, and the ways out, for people (diagnostics) and scripts (`--json`). */
export function describeConflict(c: Conflict): { message: string; hint: string } {
  const { message, hint } = conflictText(c);
  const safe = conflictRedactor(c);
  return { message: safe(message), hint: safe(hint) };
}

function conflictText(c: Conflict): { message: string; hint: string } {
  const { noun } = KINDS[c.kind];
  const live = `id ${String(c.live.id)}${c.live.name === undefined ? '' : `, ${JSON.stringify(c.live.name)}`}`;
  const holder = c.holder ?? '';
  if (c.reason === 'identity') {
    return c.holder === undefined
      ? {
          message: `state records it at id ${String(c.live.id)}, but the account holds another resource there (${live}): a state problem, so nothing is changed there`,
          hint: `if the state was edited by hand or belongs to another account or service, restore it; to forget the entry, monitor state rm ${c.kind}:${c.logicalId}, then adopt the resource or let the deploy create one`,
        }
      : {
          message: `state records it at id ${String(c.live.id)}, but that id holds the resource state records for "${holder}" (${live}): the state's ids were swapped or edited by hand`,
          hint: `give each entry its own id again (monitor state show, then monitor state push of a corrected copy), or forget both (monitor state rm) and find them again with monitor import --recover`,
        };
  }
  if (c.reason === 'rename') {
    return {
      message: `would be created while ${c.kind} "${holder}" (${live}), which has the same ${c.field} "${c.value}", leaves the code: a renamed logical id`,
      hint: `if "${c.logicalId}" is "${holder}" renamed, add \`aliases: ['${holder}']\` to the construct, so the resource keeps its id and only its logical id moves; if it is another resource, deploy the removal of "${holder}" first`,
    };
  }
  if (c.reason === 'owned') {
    return {
      message: `${article(noun)} ${noun} with ${c.field} "${c.value}" (${live}) belongs to project "${holder}", which shares this state database`,
      hint: `use another ${c.field}; or have project "${holder}" remove it from its code (or forget it: monitor state rm) before adopting it here`,
    };
  }
  if (c.reason === 'taken') {
    return {
      message: `${c.field} "${c.value}" is held by ${c.kind} "${holder}" (${live}), which this project owns and keeps`,
      hint: `use another ${c.field}, or remove "${holder}" in an earlier deploy`,
    };
  }
  return {
    message: `${article(noun)} ${noun} with ${c.field} "${c.value}" already exists in the account (${live}) and this project does not own it`,
    hint: `to manage that ${noun} from this construct, add \`adopt: true\` (it is adopted once, then owned); if this project's state was lost, monitor import --recover finds its constructs in the account again; otherwise use another ${c.field}`,
  };
}

/** `a` or `an`, by the sound the noun starts with (the kinds' nouns start with a letter sounded as written). */
function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? 'an' : 'a';
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

function policyErrors(plan: Plan): string[] {
  const n = findingCounts(plan.findings).error;
  return n === 0 ? [] : [`${n} policy error${n === 1 ? '' : 's'}`];
}

/** What a partial plan says first: what it covers, and that the rest was not compared. */
export function partialNote(targets: readonly string[]): string {
  return `Partial plan (--target): only ${targets.join(', ')}, and what they need created first. The rest of the project was not compared: a full diff may show more.`;
}

/** How many resources the plan deletes, replacements included: what needs consent to delete. */
export function deletionCount(plan: Plan): number {
  return plan.summary.delete + plan.summary.replace;
}

/**
 * Whether the plan changes anything a diff reports: an operation, or an entry of state to drop or
 * record. Updates that only send unverifiable secrets again do not count (`isResendOnly`).
 */
export function hasChanges(plan: Plan): boolean {
  return (
    plan.operations.some((op) => !isResendOnly(op)) ||
    plan.forget.length > 0 ||
    plan.abandonedCreates.length > 0 ||
    plan.protectChanged.length > 0
  );
}

/** Whether a deploy of the plan has anything to do: what `hasChanges` reports, or secrets to send again. */
export function hasWork(plan: Plan): boolean {
  return hasChanges(plan) || plan.operations.length > 0;
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
  out.push(...conflictsText(plan.conflicts, s, options.cwd));
  out.push(...findingsText(plan.findings, s, options.cwd));
  out.push(...stateNotesText(plan, s));
  out.push(closingLine(plan, s));
  return `${out.join('\n')}\n`;
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
    for (const op of ops) out.push(...operationLines(op, s));
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

export interface PlanJson {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  mode: Plan['mode'];
  createdAt: string;
  summary: Plan['summary'];
  changes: boolean;
  /** As JSON writes them: a field that does not apply is an own key holding `undefined` here. */
  operations: Record<string, unknown>[];
  forget: string[];
  /** A partial plan's targets (state keys): the rest of the project was not compared. */
  targets?: string[];
  /** Constructs deleted and created again on purpose. */
  replace?: string[];
  mismatched: Plan['mismatched'];
  protectedKept: string[];
  keptForProtected: Plan['keptForProtected'];
  protectChanged: Plan['protectChanged'];
  abandonedCreates: string[];
  conflicts: (Omit<Conflict, 'location'> & {
    location: { file: string; line: number; column: number } | null;
    message: string;
    hint: string;
  })[];
  /** What the project's policies found (construct and plan rules); deploy refuses an `error`. */
  findings: Record<string, unknown>[];
  unverifiedSecrets: number;
  stateSerial: number;
  /** The groups whose route the plan changes (absent when the plan was made without reading routes). */
  routing?: RoutingChanges;
}

/**
 * An operation as the plan's JSON shows it: one object literal per action, a field that does not
 * apply left `undefined` (JSON leaves it out). Not spread (in Node 20's V8, `{ ...base, action }`
 * gives every object a hidden class of its own), nor `Object.assign` onto a first few fields:
 * that made a deploy of 30,000 creates move about 50 MB to the old generation while it printed
 * its `--json` (old space 173 → 225 MB; now 174 → 182 MB), and peak at 458–466 MB (now 411–418 MB).
 */
function operationToJson(op: Operation): Record<string, unknown> {
  switch (op.action) {
    case 'delete':
      return {
        action: op.action,
        kind: op.kind,
        logicalId: op.logicalId,
        name: op.name,
        physicalId: op.physicalId,
      };
    case 'create':
      return {
        action: op.action,
        kind: op.kind,
        logicalId: op.logicalId,
        name: op.name,
        construct: op.construct,
        dependsOn: op.dependsOn,
        protect: op.protect,
        recreate: op.recreate,
        after: redactPayload(KINDS[op.kind], op.payload),
      };
    case 'replace':
      return {
        action: op.action,
        kind: op.kind,
        logicalId: op.logicalId,
        name: op.name,
        physicalId: op.physicalId,
        construct: op.construct,
        dependsOn: op.dependsOn,
        protect: op.protect,
        after: redactPayload(KINDS[op.kind], op.payload),
      };
    default:
      return {
        action: op.action,
        kind: op.kind,
        logicalId: op.logicalId,
        name: op.name,
        physicalId: op.physicalId,
        construct: op.construct,
        dependsOn: op.dependsOn,
        protect: op.protect,
        from: op.from,
        resumed: op.resumed === true ? true : undefined,
        // Sent again by a deploy, but no change: its secrets could not be compared (no state secret).
        resendOnly: isResendOnly(op) ? true : undefined,
        drift: op.drift,
        changes: op.changes.map((c) => ({
          path: c.path,
          before: c.before ?? null,
          after: c.after ?? null,
          sensitive: c.sensitive ? true : undefined,
          unverified: c.unverified ? true : undefined,
          cause: c.cause,
        })),
        unchangedAttributes: op.unchangedAttributes,
      };
  }
}

/** The plan for scripts: every operation with its change paths, before and after; secrets redacted. */
export function planToJson(plan: Plan): PlanJson {
  return planJsonWith(plan, plan.operations.map(operationToJson));
}

/**
 * `planToJson` to be written out once (`--json`): each operation's JSON is made as it is written,
 * by its `toJSON`. `JSON.stringify` of it is that of `planToJson`. A deploy of 30,000 creates held
 * the JSON of every operation at once, a redacted copy of each payload, at the end of its run.
 */
export function planToPrintedJson(plan: Plan): PrintedPlanJson {
  return planJsonWith(
    plan,
    plan.operations.map((op) => new JsonWhenWritten(op, operationToJson)),
  );
}

export type PrintedPlanJson = Omit<PlanJson, 'operations'> & {
  operations: { toJSON(): Record<string, unknown> }[];
};

function planJsonWith<O>(plan: Plan, operations: O[]): Omit<PlanJson, 'operations'> & { operations: O[] } {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    mode: plan.mode,
    createdAt: plan.createdAt,
    summary: plan.summary,
    changes: hasChanges(plan),
    operations,
    forget: plan.forget,
    ...(plan.targets === undefined ? {} : { targets: plan.targets }),
    ...(plan.replace === undefined ? {} : { replace: plan.replace }),
    mismatched: plan.mismatched,
    protectedKept: plan.protectedKept,
    keptForProtected: plan.keptForProtected,
    protectChanged: plan.protectChanged,
    abandonedCreates: plan.abandonedCreates,
    conflicts: plan.conflicts.map((c) => ({
      ...c,
      value:
        conflictRedactor(c)(JSON.stringify(c.value)) === JSON.stringify(c.value) ? c.value : SENSITIVE_VALUE,
      location:
        c.location === undefined
          ? null
          : { file: c.location.file, line: c.location.line, column: c.location.column },
      ...describeConflict(c),
    })),
    findings: findingsToJson(plan.findings),
    unverifiedSecrets: plan.unverifiedSecrets,
    stateSerial: plan.stateSerial,
    ...(plan.routing === undefined ? {} : { routing: plan.routing }),
  };
}
