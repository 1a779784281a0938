import { KINDS, messageRedactor, nearest, type ResourceKind } from '@monitor/api/definitions';
import {
  type ConstructPolicy,
  type DesiredResource,
  type Diagnostic,
  type PlanPolicy,
  type PolicyPlan,
  type PolicyProject,
  refKey,
} from '@monitor/constructs';
import type { Live, Plan } from '../plan/types.js';
import { atPropLocation } from '../positions/prop-location.js';
import type { SourceReader } from '../positions/source-reader.js';
import {
  capped,
  DEFAULT_POLICY_TIME_LIMIT_MS,
  describeRunning,
  describeSubject,
  type Running,
  runStage,
  secretScrubber,
} from './limits.js';
import type { ActivePolicy, PolicySet } from './select.js';
import { desiredOf, type ProjectView, planView, projectView, type ResourceView } from './views.js';

/** What a finding says before it is placed: its message, and a prop path and hint when given. */
interface Violation {
  message: string;
  path: string;
  hint: string | undefined;
  kind?: ResourceKind | undefined;
  logicalId?: string | undefined;
}

/**
 * The findings of the construct rules on every construct, waivers applied, each at its prop
 * (`atPropLocation`), and a warning for each `policyExceptions` entry that names no policy the
 * project knows. A rule that throws or returns what is not a finding is one error naming it (and
 * is not run on the rest): never a crash.
 *
 * Construct by construct, every rule on each: constructs come file by file, so each source file
 * is read while its constructs are judged, then let go. A rule of several kinds goes through
 * them kind by kind, as it names them, on its own: which constructs it has judged when it throws
 * is then as it always was. Each rule judges its constructs in the same order either way, and
 * findings are sorted by place and policy (`inSourceOrder`), so the result does not depend on it.
 */
export function runConstructPolicies(
  resources: readonly DesiredResource[],
  policies: PolicySet,
  options: ConstructRuleOptions,
): Diagnostic[] {
  const active = policies.active.filter((a) => a.policy.scope !== 'plan');
  // No stage for none to run (every built-in turned off, no policy of the project's own): its views
  // would be made for nothing, and its watchdog thread takes up to 10 ms to end on a busy machine.
  const out = active.length === 0 ? [] : judgeConstructs(resources, active, policies, options);
  for (const unknown of unknownExceptions(resources, policies))
    out.push(atPropLocation(unknown, options.sourceOf));
  return out;
}

interface ConstructRuleOptions {
  environment: string | undefined;
  sourceOf: SourceReader;
  /** Constructs whose secrets are also kept out of what the policies say (the code's, for `audit`). */
  scrubAlso?: readonly DesiredResource[];
}

/** What the construct rules `active` find on every construct, in one stage that can be stopped. */
function judgeConstructs(
  resources: readonly DesiredResource[],
  active: readonly ActivePolicy[],
  policies: PolicySet,
  options: ConstructRuleOptions,
): Diagnostic[] {
  // Frozen copies only where a policy that is not monitor's own may read them.
  const copies = active.some((a) => !a.builtIn);
  const view = projectView(resources, options.environment, options.sourceOf, copies);
  const rules = active.map((a) => {
    const policy = a.policy as ConstructPolicy;
    const kinds = policy.kinds === undefined ? undefined : new Set<ResourceKind>(policy.kinds);
    return { active: a, policy, kinds, broken: false };
  });
  const out: Diagnostic[] = [];
  const said = spoken(resources, undefined, options.scrubAlso);
  const running: Running = { policy: undefined, subject: undefined };
  /** Judge `subject` (made from `resource`) by `rule`; false when the rule broke (and is not run on the rest). */
  const judge = (rule: (typeof rules)[number], subject: ResourceView, resource: DesiredResource): boolean => {
    running.policy = rule.policy.name;
    running.subject = subject;
    const found = checkConstruct(rule.active, subject, view.project, said);
    if (isBroken(found)) {
      out.push(found);
      rule.broken = true;
      return false;
    }
    for (let v = 0; v < found.length; v++)
      out.push(atPropLocation(finding(rule.active, found[v] as Violation, resource, said), options.sourceOf));
    return true;
  };
  const ofSeveralKinds = rules.filter((rule) => (rule.policy.kinds?.length ?? 0) > 1);
  const byConstruct = rules.filter((rule) => !ofSeveralKinds.includes(rule));
  // The rules that judge each kind, in their order: asked once per kind, not per rule and construct.
  const rulesOf = new Map<ResourceKind, typeof byConstruct>();
  const rulesFor = (kind: ResourceKind) => {
    let found = rulesOf.get(kind);
    if (found === undefined) {
      found = byConstruct.filter((rule) => rule.kinds === undefined || rule.kinds.has(kind));
      rulesOf.set(kind, found);
    }
    return found;
  };
  runStage(
    () => {
      // The views are in the order of the resources they show. Loops by index: in code not yet
      // optimised, for…of makes an iterator and a result for each step, thousands a validate.
      for (let i = 0; i < resources.length; i++) {
        const subject = view.views[i] as ResourceView;
        const judges = rulesFor(subject.kind);
        for (let r = 0; r < judges.length; r++) {
          const rule = judges[r] as (typeof judges)[number];
          if (!rule.broken) judge(rule, subject, resources[i] as DesiredResource);
        }
      }
      for (const rule of ofSeveralKinds) {
        const subjects = (rule.policy.kinds ?? []).flatMap((kind) =>
          view.views.filter((v) => v.kind === kind),
        );
        for (const subject of subjects)
          if (!judge(rule, subject, desiredOf(subject) as DesiredResource)) break;
      }
    },
    active,
    policies.timeLimitMs ?? DEFAULT_POLICY_TIME_LIMIT_MS,
    running,
    (seconds) => out.push(stopped(running, seconds)),
  );
  return out;
}

/** The plan rules' findings on a plan, waivers applied where the finding names a construct. */
export function runPlanPolicies(
  plan: Plan,
  live: Live,
  resources: readonly DesiredResource[],
  policies: PolicySet,
  options: { environment: string | undefined; sourceOf: SourceReader },
): Diagnostic[] {
  const planRules = policies.active.filter((a) => a.policy.scope === 'plan');
  if (planRules.length === 0) return [];
  const view: ProjectView = projectView(resources, options.environment, options.sourceOf);
  const seen = planView(plan, live, view);
  // Made on the first finding that names a construct: most plans have none.
  let byKey: Map<string, DesiredResource> | undefined;
  const resourceOf = (kind: ResourceKind, logicalId: string) => {
    byKey ??= new Map(resources.map((r) => [refKey(r.kind, r.logicalId), r]));
    return byKey.get(refKey(kind, logicalId));
  };
  const out: Diagnostic[] = [];
  const said = spoken(resources, live);
  const running: Running = { policy: undefined, subject: undefined };
  runStage(
    () => {
      for (const active of planRules) {
        running.policy = active.policy.name;
        const found = checkPlan(active, seen, said);
        if (isBroken(found)) {
          out.push(found);
          continue;
        }
        for (const v of found) {
          const resource =
            v.kind === undefined || v.logicalId === undefined ? undefined : resourceOf(v.kind, v.logicalId);
          out.push(finding(active, v, resource, said));
        }
      }
    },
    planRules,
    policies.timeLimitMs ?? DEFAULT_POLICY_TIME_LIMIT_MS,
    running,
    (seconds) => out.push(stopped(running, seconds)),
  );
  return out;
}

/** The error a stage past its time ends with: which policy was checking what, where. */
function stopped(running: Running, seconds: number): Diagnostic {
  const subject = running.subject;
  return {
    severity: 'error',
    path: '',
    message: `the policies were stopped after ${seconds} s: ${describeRunning(running)} and had not finished; the policies after it were not run`,
    ...(running.policy === undefined ? {} : { policy: running.policy }),
    ...(subject === undefined
      ? {}
      : { construct: subject.construct, logicalId: subject.logicalId, location: subject.location }),
    hint: 'a policy must return at once: fix it (a loop that never ends?), or turn it off with policySeverity; policyTimeoutSeconds in monitor.config.ts sets the limit',
  };
}

/**
 * What a policy says, made fit to show: each resource's own secrets described (its message
 * redactor, made once however many findings it has) and cut to size; and for a policy that is not
 * built in (the project's own, a pack from npm), every other secret of the project and the account
 * removed. The built-ins are monitor's own code over the masked views: looking for thousands of
 * secrets in each of their thousands of findings cost 0.6 s at 5,000 constructs.
 */
type Spoken = (text: string, resource: DesiredResource | undefined, active: ActivePolicy) => string;

function spoken(
  resources: readonly DesiredResource[],
  live: Live | undefined,
  also: readonly DesiredResource[] = [],
): Spoken {
  const made = new Map<DesiredResource, (text: string) => string>();
  const scrub = secretScrubber(also.length === 0 ? resources : [...resources, ...also], live);
  const ownOf = (resource: DesiredResource) => {
    let own = made.get(resource);
    if (own === undefined) {
      // A kind with nothing sensitive (a maintenance window) has nothing to describe.
      const kind = KINDS[resource.kind];
      own = kind.sensitive.length === 0 ? unchanged : messageRedactor(kind, resource.payload);
      made.set(resource, own);
    }
    return own;
  };
  return (text, resource, active) => {
    const own = resource === undefined ? text : ownOf(resource)(text);
    return capped(active.builtIn ? own : scrub(own));
  };
}

const unchanged = (text: string) => text;

/** A finding as a diagnostic: at its construct, secrets kept out, waived when the construct says so. */
function finding(
  active: ActivePolicy,
  v: Violation,
  resource: DesiredResource | undefined,
  said: Spoken,
): Diagnostic {
  const waiver = resource?.options.policyExceptions?.find((e) => e.policy === active.policy.name);
  return {
    severity: waiver === undefined ? active.severity : 'info',
    ...(resource !== undefined
      ? { construct: resource.construct, logicalId: resource.logicalId, location: resource.location }
      : v.kind !== undefined && v.logicalId !== undefined
        ? { construct: v.kind, logicalId: v.logicalId }
        : {}),
    path: capped(v.path, 200),
    message: said(v.message, resource, active),
    ...(v.hint === undefined ? {} : { hint: said(v.hint, resource, active) }),
    policy: active.policy.name,
    ...(waiver === undefined ? {} : { waived: { severity: active.severity, reason: waiver.reason } }),
  };
}

/**
 * One construct rule's check of `subject`: what it returned as violations, or the error that
 * names the policy. Called as it is, with no closure made for it: a validate runs the built-ins
 * a thousand times and more.
 */
function checkConstruct(
  active: ActivePolicy,
  subject: ResourceView,
  project: PolicyProject,
  said: Spoken,
): readonly Violation[] | Diagnostic {
  let returned: unknown;
  try {
    returned = (active.policy as ConstructPolicy).check(subject, project);
  } catch (e) {
    return threw(active, subject, said, e);
  }
  return returnedBy(active, subject, said, returned);
}

/** One plan rule's check of the plan, as `checkConstruct`. */
function checkPlan(active: ActivePolicy, plan: PolicyPlan, said: Spoken): readonly Violation[] | Diagnostic {
  let returned: unknown;
  try {
    returned = (active.policy as PlanPolicy).check(plan);
  } catch (e) {
    return threw(active, undefined, said, e);
  }
  return returnedBy(active, undefined, said, returned);
}

/** The error of a check that threw `e` on `subject` (undefined: the plan). */
function threw(
  active: ActivePolicy,
  subject: ResourceView | undefined,
  said: Spoken,
  e: unknown,
): Diagnostic {
  const error = e instanceof Error ? e : new Error(String(e));
  // A write to a view (frozen) is the policy's error: say what it tried.
  const wrote =
    e instanceof TypeError &&
    /read[- ]only|not extensible|Cannot (add|assign|delete|define)/.test(error.message);
  return broken(
    active,
    subject,
    said,
    `policy "${active.policy.name}" ${wrote ? 'tried to change what it checks' : 'threw'} while checking ${onWhat(subject)}: ${error.name}: ${error.message}${wrote ? ' (policies see frozen copies: they report, never change)' : ''}`,
    error.stack,
  );
}

/** What a check returned, as violations, or the error when it is not something a check may return. */
function returnedBy(
  active: ActivePolicy,
  subject: ResourceView | undefined,
  said: Spoken,
  returned: unknown,
): readonly Violation[] | Diagnostic {
  const violations = violationsOf(returned);
  if (violations !== undefined) return violations;
  return broken(
    active,
    subject,
    said,
    `policy "${active.policy.name}" returned ${describe(returned)} for ${onWhat(subject)}: a check returns nothing, a message, { message, path?, hint? }, or a list of them`,
  );
}

/** Whether a check ended in the policy's error rather than its violations. */
const isBroken = (found: readonly Violation[] | Diagnostic): found is Diagnostic => !Array.isArray(found);

const onWhat = (subject: ResourceView | undefined) =>
  subject === undefined ? 'the plan' : describeSubject(subject);

/** The error of a policy that broke on `subject` (undefined: the plan): it is not run on the rest. */
function broken(
  active: ActivePolicy,
  subject: ResourceView | undefined,
  said: Spoken,
  message: string,
  detail?: string,
): Diagnostic {
  const resource = subject === undefined ? undefined : desiredOf(subject);
  return {
    severity: 'error',
    path: '',
    message: said(message, resource, active),
    policy: active.policy.name,
    ...(subject === undefined
      ? {}
      : { construct: subject.construct, logicalId: subject.logicalId, location: subject.location }),
    ...(detail === undefined ? {} : { detail: said(detail, resource, active) }),
    hint: `fix the policy${active.builtIn ? '' : ', or turn it off with policySeverity'}; it was not run on the rest of the project`,
  };
}

const NO_VIOLATIONS: readonly Violation[] = Object.freeze([]);

/** What a check returned, as violations; undefined when it is not something a check may return. */
function violationsOf(returned: unknown): readonly Violation[] | undefined {
  if (returned === undefined || returned === null) return NO_VIOLATIONS;
  if (!Array.isArray(returned)) {
    const one = violationOf(returned);
    return one === undefined ? undefined : [one];
  }
  const out: Violation[] = [];
  for (let i = 0; i < returned.length; i++) {
    const one = violationOf(returned[i]);
    if (one === undefined) return undefined;
    out.push(one);
  }
  return out;
}

/** One finding a check returned; undefined when it is not one. */
function violationOf(item: unknown): Violation | undefined {
  if (typeof item === 'string') return item === '' ? undefined : { message: item, path: '', hint: undefined };
  if (typeof item !== 'object' || item === null) return undefined;
  const { message, path, hint, kind, logicalId } = item as Record<string, unknown>;
  if (typeof message !== 'string' || message === '') return undefined;
  if (path !== undefined && typeof path !== 'string') return undefined;
  if (hint !== undefined && typeof hint !== 'string') return undefined;
  if (kind !== undefined && !(typeof kind === 'string' && kind in KINDS)) return undefined;
  if (logicalId !== undefined && typeof logicalId !== 'string') return undefined;
  return { message, path: path ?? '', hint, kind: kind as ResourceKind | undefined, logicalId };
}

function describe(value: unknown): string {
  if (value instanceof Promise || (typeof value === 'object' && value !== null && 'then' in value))
    return 'a Promise (checks are synchronous)';
  if (Array.isArray(value)) return 'a list holding something that is not a finding';
  if (typeof value === 'object' && value !== null) return 'an object with no message';
  if (typeof value === 'string') return 'an empty message';
  return `${typeof value} ${String(value)}`;
}

/** `policyExceptions` entries naming a policy no one defined: a typo would waive nothing, silently. */
function unknownExceptions(resources: readonly DesiredResource[], policies: PolicySet): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (let n = 0; n < resources.length; n++) {
    const r = resources[n] as DesiredResource;
    const exceptions = r.options.policyExceptions;
    if (exceptions === undefined || exceptions.length === 0) continue;
    for (const [i, e] of exceptions.entries()) {
      if (policies.known.has(e.policy)) continue;
      const near = nearest(e.policy, policies.known);
      out.push({
        severity: 'warning',
        construct: r.construct,
        logicalId: r.logicalId,
        location: r.location,
        path: `policyExceptions[${i}]`,
        pathIn: 'options',
        message: `there is no policy "${e.policy}" to waive${near === undefined ? '' : `; did you mean "${near}"?`}`,
      });
    }
  }
  return out;
}

/** Whether any finding blocks a deploy: an `error` that no exception waives. */
export function blockingFindings(findings: readonly Diagnostic[]): Diagnostic[] {
  return findings.filter((f) => f.severity === 'error');
}

/** Findings in source order, then by policy: how `monitor validate` lists them. */
export function inSourceOrder(findings: readonly Diagnostic[]): Diagnostic[] {
  return [...findings].sort(bySourceOrder);
}

// Compared field by field, with no key made for each comparison: a sort of thousands makes tens of thousands.
function bySourceOrder(a: Diagnostic, b: Diagnostic): number {
  const fa = a.location?.file ?? '';
  const fb = b.location?.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  const la = a.location?.line ?? 0;
  const lb = b.location?.line ?? 0;
  if (la !== lb) return la - lb;
  const ca = a.location?.column ?? 0;
  const cb = b.location?.column ?? 0;
  if (ca !== cb) return ca - cb;
  const pa = a.policy ?? '';
  const pb = b.policy ?? '';
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}
