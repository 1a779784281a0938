import type { DesiredResource } from '@monitor/constructs';
import type { PlanMode } from './types.js';

/**
 * The targeting stage: which constructs the plan places. All of them; none when destroying, which
 * is planning against a project that declares nothing.
 */
export function resolveTargets(code: readonly DesiredResource[], mode: PlanMode): readonly DesiredResource[] {
  return mode === 'destroy' ? [] : code;
}
