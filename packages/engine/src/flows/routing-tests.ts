import type { RoutingTestResult } from '../routing-tests/judge.js';
import { planAgainst } from './diff.js';
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
  const made = planAgainst(target, account, 'apply', options.now ?? new Date());
  const { resources, config } = target.project;
  return planRoutingTests(made, account, { resources, tests: config.routingTests });
}
