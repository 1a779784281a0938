import type { DesiredResource } from '@monitor/constructs';
import { displayNameOf } from './resource.js';
import type { Conflict, LiveResource } from './types.js';

/** A conflict of construct `d` over `colliding` (the field and value that clash) with the live `holder`. */
export function conflictOf(
  reason: Conflict['reason'],
  d: DesiredResource,
  colliding: { field: string; value: string },
  holder: LiveResource,
  holderLogicalId?: string,
): Conflict {
  const name = displayNameOf(d.kind, holder);
  return {
    reason,
    kind: d.kind,
    logicalId: d.logicalId,
    construct: d.construct,
    location: d.location,
    field: colliding.field,
    value: colliding.value,
    live: { id: holder.id, ...(name === undefined ? {} : { name }) },
    ...(holderLogicalId === undefined ? {} : { holder: holderLogicalId }),
  };
}
