import type { RoutingTestResult } from '../routing-tests/judge.js';
import { planAgainst } from './diff.js';
import { type ProjectsInput, planAcrossProjects } from './other-projects.js';
import { planRoutingTests } from './routes.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

/**
 * `monitor routes --test --live`: the project's routing tests against the account once the code is
 * deployed (the after-state of the plan diff and deploy make), without running the policies.
 */
export async function accountRoutingTests(
  target: Target,
  options: { now?: Date; snapshot?: Promise<AccountSnapshot> } = {},
): Promise<RoutingTestResult[]> {
  const account = await (options.snapshot ?? readAccount(target));
  const now = options.now ?? new Date();
  // As diff plans: other projects' channels resolved by their states, which tell them apart.
  let projectStates: ProjectsInput['projectStates'];
  const made = await planAcrossProjects(target, false, (projects) => {
    projectStates = projects.projectStates;
    return planAgainst(target, account, 'apply', now, { projects });
  });
  const { resources, config } = target.project;
  return planRoutingTests(made, account, { resources, tests: config.routingTests }, projectStates);
}
