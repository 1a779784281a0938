import { JsonWhenWritten, KINDS, redactPayload, SENSITIVE_VALUE } from '@monitor/api';
import type { Diagnostic } from '@monitor/constructs';
import { conflictRedactor, describeConflict } from './conflict-text.js';
import { hasChanges, isResendOnly } from './queries.js';
import type { RoutingChanges } from './types.js';
import { type Conflict, type Operation, PLAN_FORMAT_VERSION, type Plan } from './types.js';

/** The plan as JSON, for scripts and saved plans: the plan's own form, apart from any renderer. */

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
  /** References to other projects' constructs: those of what the plan writes, uses recorded with no call, what it orphans. */
  projectRefs?: NonNullable<Plan['projectRefs']>;
  usesChanged?: NonNullable<Plan['usesChanged']>;
  orphaned?: NonNullable<Plan['orphaned']>;
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
  routing?: Omit<RoutingChanges, 'picture'>;
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
    ...(plan.projectRefs === undefined ? {} : { projectRefs: plan.projectRefs }),
    ...(plan.usesChanged === undefined ? {} : { usesChanged: plan.usesChanged }),
    ...(plan.orphaned === undefined ? {} : { orphaned: plan.orphaned }),
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
    // The picture is the markdown's: the changes say the same as data.
    ...(plan.routing === undefined
      ? {}
      : { routing: { changes: plan.routing.changes, unrouted: plan.routing.unrouted } }),
  };
}

/** The policy findings as the plan's JSON carries them. */
export function findingsToJson(findings: readonly Diagnostic[]): Record<string, unknown>[] {
  return findings.map((f) => ({
    policy: f.policy ?? null,
    severity: f.severity,
    construct: f.construct ?? null,
    logicalId: f.logicalId ?? null,
    path: f.path,
    message: f.message,
    ...(f.hint === undefined ? {} : { hint: f.hint }),
    location:
      f.location === undefined
        ? null
        : { file: f.location.file, line: f.location.line, column: f.location.column },
    waived: f.waived ?? null,
  }));
}
