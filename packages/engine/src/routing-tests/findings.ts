import type { Diagnostic } from '@monitor/constructs';
import type { RoutingTestResult } from './judge.js';

/** What a routing test's finding is named by, where policy findings name their policy. */
export const ROUTING_TEST = 'routing-test';

/**
 * The results that are not passes, as findings beside the policies': a failure or a test written
 * wrong is an error at the test's line (deploy refuses it), one that cannot be judged from the code
 * a warning.
 */
export function routingTestFindings(results: readonly RoutingTestResult[]): Diagnostic[] {
  return results
    .filter((r) => r.status !== 'passed')
    .map((r) => ({
      severity: r.status === 'unjudged' ? ('warning' as const) : ('error' as const),
      ...(r.group === '' ? {} : { construct: 'CheckGroup', logicalId: r.group }),
      path: r.event ?? '',
      message: r.message,
      ...(r.hint === undefined ? {} : { hint: r.hint }),
      location: r.location,
      policy: ROUTING_TEST,
    }));
}
