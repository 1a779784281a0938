import { type UnseenSecrets, unseenSecrets } from '../live/unseen.js';
import { plan } from '../plan/plan.js';
import { type SavedPlan, savePlan } from '../plan/saved-plan.js';
import type { Live, Plan, PlanMode } from '../plan/types.js';
import { runPlanPolicies } from '../policy/run.js';
import { atPropLocation } from '../positions/prop-location.js';
import { sourceReader } from '../positions/source-reader.js';
import { routingTestFindings } from '../routing-tests/findings.js';
import { type ProjectsInput, planAcrossProjects } from './other-projects.js';
import { planRouting, planRoutingTests } from './routes.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

/** What a plan covers, beside the code: targets and replacements (`PlanOptions`). */
export interface Scope {
  /** Plan only these constructs (and what they need created first). */
  targets?: readonly string[] | undefined;
  /** Delete and create again these constructs. */
  replace?: readonly string[] | undefined;
}

export interface DiffOptions extends Scope {
  /** @default new Date() */
  now?: Date;
  /**
   * The account as `readAccount` read it for this target, started early (diff takes no lock, so
   * reading before the project has loaded changes nothing). @default read now
   */
  snapshot?: Promise<AccountSnapshot>;
}

export interface DiffResult {
  plan: Plan;
  /** The plan as `deploy --plan` takes it, with fingerprints of the live resources it touches. */
  saved: SavedPlan;
  /** API calls the diff made. */
  requests: number;
  /** What no diff can see: secrets the service masks (one changed in the UI never shows as drift). */
  unseen: UnseenSecrets;
}

/** Read state and the live account, and plan: what a deploy would change. Reads only; takes no lock. */
export async function diff(target: Target, options: DiffOptions = {}): Promise<DiffResult> {
  const snapshot = options.snapshot ?? readAccount(target);
  const { plan: made, live } = await makePlan(target, 'apply', options.now ?? new Date(), {
    snapshot,
    scope: options,
  });
  return {
    plan: made,
    saved: savePlan(made, live, {
      accountId: target.accountId,
      projectName: target.project.config.projectName,
    }),
    requests: (await snapshot).requests,
    unseen: unseenSecrets((await snapshot).state, live, made.secrets.keyed),
  };
}

/** Read what a plan needs (or take the snapshot read earlier) and plan. */
export async function makePlan(
  target: Target,
  mode: PlanMode,
  now: Date,
  options: {
    forceProtected?: boolean;
    /** Delete and replace what other projects reference anyway (`--force-orphan`). */
    forceOrphan?: boolean;
    snapshot?: Promise<AccountSnapshot>;
    scope?: Scope;
  } = {},
): Promise<{ plan: Plan; live: Live }> {
  const account = await (options.snapshot ?? readAccount(target));
  // With the other projects' states: what the code references of theirs, and what they reference of this one.
  // The other projects' states are kept: the routing tests tell their channels by them.
  let projectStates: ProjectsInput['projectStates'];
  const made = await planAcrossProjects(target, options.forceOrphan === true, (projects) => {
    projectStates = projects.projectStates;
    return planAgainst(target, account, mode, now, { ...options, projects });
  });
  const { live } = account;
  // Policies judge what the code asks for; a destroy asks for nothing, and deletes every group:
  // no route is left to compare.
  if (mode === 'destroy') return { plan: made, live };
  const routed = { ...made, routing: planRouting(made, account) };
  return { plan: withFindings(routed, account, target, projectStates), live };
}

/** The plan of the project against an account read: no policies, no routing. */
export function planAgainst(
  target: Target,
  { state, live, otherOwners }: AccountSnapshot,
  mode: PlanMode,
  now: Date,
  options: { forceProtected?: boolean; scope?: Scope; projects?: ProjectsInput } = {},
): Plan {
  const { targets, replace } = options.scope ?? {};
  return plan(target.project.resources, live, state, {
    ...options.projects,
    now,
    mode,
    forceProtected: options.forceProtected === true,
    secretKey: target.secretKey,
    ...(otherOwners === undefined ? {} : { otherOwners }),
    ...(targets === undefined || targets.length === 0 ? {} : { targets }),
    ...(replace === undefined || replace.length === 0 ? {} : { replace }),
  });
}

/**
 * The plan with the project's findings: the construct rules' (from the load), the plan rules', and
 * the routing tests judged against the account once the plan is applied.
 */
function withFindings(
  made: Plan,
  account: AccountSnapshot,
  target: Target,
  projectStates: ProjectsInput['projectStates'],
): Plan {
  const { project } = target;
  const sourceOf = sourceReader();
  const planFindings = runPlanPolicies(made, account.live, project.resources, project.config.policies, {
    environment: project.config.environment,
    sourceOf,
  }).map((f) => atPropLocation(f, sourceOf));
  const routingTests = routingTestFindings(
    planRoutingTests(
      made,
      account,
      { resources: project.resources, tests: project.config.routingTests },
      projectStates,
    ),
  );
  return { ...made, findings: [...project.findings, ...planFindings, ...routingTests] };
}
