import { type Answer, type Call, mustGet, ok, pageAnswer, table } from '../context.js';
import { checkOutcome } from '../outcomes.js';
import type { Row } from '../store.js';

const STATUS_OF_OUTCOME = { PASSED: 'passing', FAILED: 'failing', DEGRADED: 'degraded' } as const;

/** A check in a group, with the group's tags and locations applied when asked. */
function withGroupSettings(call: Call, check: Row): Row {
  const group = check.groupId === null ? undefined : table(call, 'checkGroups')[String(check.groupId)];
  if (group === undefined) return check;
  return {
    ...check,
    tags: [...new Set([...(check.tags as string[]), ...(group.tags as string[])])].sort(),
    locations: (group.locations as string[]).length > 0 ? group.locations : check.locations,
    muted: (check.muted as boolean) || (group.muted as boolean),
    activated: (check.activated as boolean) && (group.activated as boolean),
  };
}

export const checkHandlers = {
  'checks.list': (call: Call): Answer => {
    const q = call.query;
    const tags = [q.tag ?? []].flat() as string[];
    const rows = Object.values(table(call, 'checks'))
      .map((c) => (q.applyGroupSettings === true ? withGroupSettings(call, c) : c))
      .filter((c) => tags.length === 0 || tags.some((t) => (c.tags as string[]).includes(t)))
      .filter((c) => q.checkType === undefined || c.checkType === q.checkType)
      .filter(
        (c) =>
          q.search === undefined || (c.name as string).toLowerCase().includes(String(q.search).toLowerCase()),
      )
      .filter((c) => q.status === undefined || STATUS_OF_OUTCOME[checkOutcome(call.account, c)] === q.status)
      .filter(
        (c) =>
          q.apiCheckUrlFilterPattern === undefined ||
          String((c.request as Row | null)?.url ?? '').includes(String(q.apiCheckUrlFilterPattern)),
      );
    return pageAnswer(rows, q);
  },

  'checks.get': (call: Call): Answer => {
    const check = mustGet(table(call, 'checks'), call.params.id, 'Check');
    const shown = call.query.applyGroupSettings === true ? withGroupSettings(call, check) : check;
    if (call.query.includeDependencies === true) return ok({ ...shown, dependencies: [] });
    return ok(shown);
  },
};
