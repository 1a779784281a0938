import { KINDS, nearest } from '@monitor/api/definitions';
import type { Policy, PolicySeverity } from '@monitor/constructs';
import { BUILT_IN_POLICIES } from './builtins.js';

/** A policy as a project runs it: with the severity its config gives it. */
export interface ActivePolicy {
  policy: Policy;
  severity: PolicySeverity;
  builtIn: boolean;
}

/** The policies a project runs, and the names of every policy it knows (those turned off too). */
export interface PolicySet {
  active: ActivePolicy[];
  known: ReadonlySet<string>;
  /** How long the policies of one stage may run (the config's `policyTimeoutSeconds`). @default 30 s */
  timeLimitMs?: number;
}

/** A problem with the config's `policies` or `policySeverity`, at its path in the config. */
export interface PolicyConfigProblem {
  path: string;
  message: string;
}

const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];
const NAME = /^[A-Za-z0-9@][A-Za-z0-9@/._:-]*$/;

/**
 * The built-in policies and the config's own, each at the severity `policySeverity` gives it
 * (`off` leaves it out). Every problem is collected: a policy that is not one, two of one name, a
 * severity for a policy that does not exist (with the nearest name).
 */
export function selectPolicies(
  given: readonly unknown[],
  severities: Readonly<Record<string, string>>,
): { set: PolicySet; problems: PolicyConfigProblem[] } {
  const problems: PolicyConfigProblem[] = [];
  const all: { policy: Policy; builtIn: boolean }[] = BUILT_IN_POLICIES.map((policy) => ({
    policy,
    builtIn: true,
  }));
  const names = new Set(BUILT_IN_POLICIES.map((p) => p.name));
  for (const [i, candidate] of given.entries()) {
    const path = `policies[${i}]`;
    const problem = policyProblem(candidate);
    if (problem !== undefined) {
      problems.push({ path, message: problem });
      continue;
    }
    const policy = candidate as Policy;
    if (names.has(policy.name)) {
      const builtIn = BUILT_IN_POLICIES.some((p) => p.name === policy.name);
      problems.push({
        path,
        message: `policy "${policy.name}" is ${builtIn ? 'a built-in policy' : 'listed twice'}: each policy needs a name of its own`,
      });
      continue;
    }
    names.add(policy.name);
    all.push({ policy, builtIn: false });
  }
  for (const name of Object.keys(severities)) {
    if (names.has(name)) continue;
    const near = nearest(name, names);
    problems.push({
      path: `policySeverity.${name}`,
      message: `there is no policy "${name}"${near === undefined ? '' : `; did you mean "${near}"?`}`,
    });
  }
  const active: ActivePolicy[] = [];
  for (const { policy, builtIn } of all) {
    const chosen = severities[policy.name] ?? policy.severity;
    if (chosen === 'off') continue;
    active.push({ policy, builtIn, severity: chosen as PolicySeverity });
  }
  return { set: { active, known: names }, problems };
}

/** What is wrong with something given as a policy; undefined when it is one. */
function policyProblem(candidate: unknown): string | undefined {
  const hint = 'make it with definePolicy({ name, description, severity, check }) from @monitor/constructs';
  if (typeof candidate !== 'object' || candidate === null) {
    return `is ${candidate === null ? 'null' : typeof candidate}, not a policy: ${hint}`;
  }
  const p = candidate as Record<string, unknown>;
  if (typeof p.name !== 'string' || !NAME.test(p.name)) {
    return `needs a name of letters, digits and - _ . / @ : (got ${describe(p.name)}): ${hint}`;
  }
  const it = `policy "${p.name}"`;
  if (typeof p.description !== 'string' || p.description.trim() === '')
    return `${it} needs a description: one sentence saying what it asks for`;
  if (typeof p.severity !== 'string' || !SEVERITIES.includes(p.severity))
    return `${it} has severity ${describe(p.severity)}: use 'error', 'warning' or 'info'`;
  if (typeof p.check !== 'function') return `${it} has no check function`;
  if (p.scope !== undefined && p.scope !== 'construct' && p.scope !== 'plan')
    return `${it} has scope ${describe(p.scope)}: use 'construct' (the default) or 'plan'`;
  if (p.kinds !== undefined) {
    if (!Array.isArray(p.kinds)) return `${it}: kinds must be a list of kinds, e.g. ['CheckGroup']`;
    const unknown = p.kinds.find((k) => typeof k !== 'string' || !(k in KINDS));
    if (unknown !== undefined) {
      const near = typeof unknown === 'string' ? nearest(unknown, Object.keys(KINDS)) : undefined;
      return `${it}: ${describe(unknown)} is not a kind${near === undefined ? '' : `; did you mean "${near}"?`}`;
    }
  }
  return undefined;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : value === undefined ? 'none' : typeof value;
}
