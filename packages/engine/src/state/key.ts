import type { ResourceKind } from '@monitor/api';

/**
 * The key of a resource in the state, by kind and logical id. Apart from `state.ts` (which makes
 * the state's schemas when it loads): loading a project reads it without the state.
 */
export function stateKey(kind: ResourceKind, logicalId: string): string {
  return `${kind}:${logicalId}`;
}
