import { isResourceKind, nearest } from '@monitor/api';
import { UnknownGroupError } from './errors.js';
import type { GroupRoute } from './routes.js';

/**
 * The routes of the groups `ids` name (a logical id, `CheckGroup:logicalId`, or the group's id in
 * the account), in the order named; all of them when `ids` is empty. An id that names no group is
 * an `UnknownGroupError` with the nearest group's name.
 */
export function selectRoutes(
  routes: readonly GroupRoute[],
  ids: readonly string[],
  /** Groups of the code that `routes` (read from the account) does not have yet: named as such. */
  undeployed: readonly string[] = [],
): GroupRoute[] {
  if (ids.length === 0) return [...routes];
  return ids.map((id) => {
    const colon = id.indexOf(':');
    const kind = colon < 0 ? undefined : id.slice(0, colon);
    if (kind !== undefined && isResourceKind(kind) && kind !== 'CheckGroup') {
      throw new UnknownGroupError(
        `${id} is a ${kind}: routes are of check groups`,
        'name a check group: its logical id or CheckGroup:logicalId',
      );
    }
    const bare = kind === 'CheckGroup' ? id.slice(colon + 1) : id;
    const found = routes.find(
      (r) => r.logicalId === bare || (r.physicalId !== undefined && String(r.physicalId) === bare),
    );
    if (found !== undefined) return found;
    if (undeployed.includes(bare)) {
      throw new UnknownGroupError(
        `${id}: the check group is in the code but not in the account yet`,
        'deploy it first, or leave out --live to see its route from the code',
      );
    }
    const near = nearest(
      bare,
      routes.flatMap((r) => (r.logicalId === undefined ? [] : [r.logicalId])),
    );
    throw new UnknownGroupError(
      `${id}: the project has no check group of that name`,
      near === undefined
        ? `its groups are: ${routes.map((r) => r.logicalId ?? r.group).join(', ') || 'none'}`
        : `did you mean ${near}?`,
    );
  });
}
