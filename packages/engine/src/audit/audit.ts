import type { ResourceKind } from '@monitor/api';
import type { DesiredResource, Diagnostic, SourceLocation } from '@monitor/constructs';
import type { ByPhysicalId } from '../identity.js';
import type { Live } from '../plan/types.js';
import { runConstructPolicies } from '../policy/run.js';
import type { PolicySet } from '../policy/select.js';
import type { SourceReader } from '../positions/source-reader.js';
import type { State } from '../state/state.js';
import { type AuditedResource, liveConstructs, type Unreadable } from './live-constructs.js';
import { ownershipOf } from './ownership.js';

/** One finding of the audit: a policy's, about a resource of the account (none when about the run). */
export interface AuditFinding {
  /** `info` for a finding a `policyExceptions` of this project's code waives (see `waived`). */
  severity: Diagnostic['severity'];
  policy?: string;
  /** The field, as the construct's prop path: `alertChannels`, `cards[0]`. */
  path: string;
  message: string;
  hint?: string;
  detail?: string;
  waived?: { severity: Diagnostic['severity']; reason: string };
  resource?: AuditedResource;
  /** Where this project's code makes the resource, when it owns it. */
  location?: SourceLocation;
  /** For a resource no project owns: the command that takes it over (`monitor import --kind … --id …`). */
  importCommand?: string;
}

/** How many resources the policies judged, by who owns them. */
export interface AuditCounts {
  total: number;
  here: number;
  elsewhere: number;
  unowned: number;
}

export interface AuditReport {
  resources: AuditCounts;
  /** Errors first, then warnings, info and waived ones; in the account's order within each. */
  findings: AuditFinding[];
  /** Resources the policies could not judge, and why. */
  unreadable: Unreadable[];
  /** The numbers of the account's SMS and call channels: personal data, masked in output for people. */
  phoneNumbers: string[];
}

export interface AuditInput {
  project: string;
  environment: string | undefined;
  live: Live;
  state: State;
  otherOwners?: ByPhysicalId<string> | undefined;
  otherStates?: ReadonlyMap<string, State> | undefined;
  /** The project's constructs: where the resources it owns are made, and their waivers. */
  code: readonly DesiredResource[];
  policies: PolicySet;
  sourceOf: SourceReader;
  /** How a take-over is spelled. @default `monitor import --kind <kind> --id <id>` */
  importCommand?: (kind: ResourceKind, id: string | number) => string;
}

const defaultImportCommand = (kind: ResourceKind, id: string | number) =>
  `monitor import --kind ${kind} --id ${String(id)}`;

/**
 * The project's construct policies and the built-ins over every resource of the account, owned by
 * this project, by another, or by none: each read as the construct that would make it, judged
 * through the same frozen, masked views and limits as the code's constructs are in `validate`.
 * Plan rules are not run: there is no plan. Pure: it reads nothing and writes nothing.
 */
export function auditAccount(input: AuditInput): AuditReport {
  const ownerOf = ownershipOf(input);
  const { subjects, unreadable } = liveConstructs(input.live, ownerOf, input.code, input.policies.known);
  const byKey = new Map(subjects.map((s) => [`${s.desired.construct}\u0000${s.desired.logicalId}`, s]));
  const found = runConstructPolicies(
    subjects.map((s) => s.desired),
    input.policies,
    { environment: input.environment, sourceOf: input.sourceOf, scrubAlso: input.code },
  );
  const importCommand = input.importCommand ?? defaultImportCommand;
  const findings = found.map((d) => {
    const subject =
      d.construct === undefined || d.logicalId === undefined
        ? undefined
        : byKey.get(`${d.construct}\u0000${d.logicalId}`);
    return auditFinding(d, subject?.resource, importCommand);
  });
  const counts: AuditCounts = { total: subjects.length, here: 0, elsewhere: 0, unowned: 0 };
  for (const { resource } of subjects) counts[resource.owner.owned]++;
  return {
    resources: counts,
    findings: bySeverity(findings),
    unreadable,
    phoneNumbers: phoneNumbers(input.live),
  };
}

function auditFinding(
  d: Diagnostic,
  resource: AuditedResource | undefined,
  importCommand: (kind: ResourceKind, id: string | number) => string,
): AuditFinding {
  return {
    severity: d.severity,
    ...(d.policy === undefined ? {} : { policy: d.policy }),
    path: d.path,
    message: d.message,
    ...(d.hint === undefined ? {} : { hint: d.hint }),
    ...(d.detail === undefined ? {} : { detail: d.detail }),
    ...(d.waived === undefined ? {} : { waived: d.waived }),
    ...(resource === undefined ? {} : { resource }),
    ...(d.location === undefined || resource?.owner.owned !== 'here' ? {} : { location: d.location }),
    ...(resource?.owner.owned === 'unowned'
      ? { importCommand: importCommand(resource.kind, resource.physicalId) }
      : {}),
  };
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** Errors first, then warnings, then info, waived last; a stable sort keeps the account's order within each. */
function bySeverity(findings: AuditFinding[]): AuditFinding[] {
  const rank = (f: AuditFinding) => (f.waived === undefined ? RANK[f.severity] : 3);
  return findings.sort((a, b) => rank(a) - rank(b));
}

/** Whether a finding is one to act on: an error or a warning that nothing waives. */
export function actionable(f: AuditFinding): boolean {
  return f.waived === undefined && (f.severity === 'error' || f.severity === 'warning');
}

function phoneNumbers(live: Live): string[] {
  const out = new Set<string>();
  for (const channel of live.AlertChannel) {
    const config = channel.config as { number?: unknown } | undefined;
    if ((channel.type === 'SMS' || channel.type === 'CALL') && typeof config?.number === 'string')
      out.add(config.number);
  }
  return [...out];
}
