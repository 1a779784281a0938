import { createHash, randomUUID } from 'node:crypto';
import { defaultError } from './outcomes.js';
import { viewSession } from './sessions.js';
import type { AccountData, Row } from './store.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DATE_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g;

/** The message an error group is keyed by: ids and timestamps that differ per run taken out. */
export function cleanErrorMessage(raw: string): string {
  return raw.replace(UUID, '<id>').replace(DATE_TIME, '<time>');
}

const hashOf = (cleaned: string) => createHash('sha256').update(cleaned).digest('hex').slice(0, 16);

/** The error group of a check's failures with this message, when there is one. */
export function findErrorGroup(account: AccountData, checkId: string, raw: string): Row | undefined {
  const cleaned = cleanErrorMessage(raw);
  return Object.values(account.tables.errorGroups).find(
    (g) => g.checkId === checkId && g.cleanedErrorMessage === cleaned,
  );
}

/** One failure seen at `atMs`: its group's lastSeen moves on (and it is unarchived), or a new group appears. */
function countFailure(account: AccountData, checkId: string, raw: string, atMs: number): void {
  const day = new Date(atMs).toISOString().slice(0, 10);
  const group = findErrorGroup(account, checkId, raw);
  if (group !== undefined) {
    if (String(group.lastSeen) < day) group.lastSeen = day;
    group.rawErrorMessage = raw;
    group.archivedUntilNextEvent = false;
    return;
  }
  const cleaned = cleanErrorMessage(raw);
  const id = randomUUID();
  account.tables.errorGroups[id] = {
    id,
    checkId,
    errorHash: hashOf(cleaned),
    cleanedErrorMessage: cleaned,
    rawErrorMessage: raw,
    firstSeen: day,
    lastSeen: day,
    archivedUntilNextEvent: false,
    rootCauseAnalyses: [],
  };
}

/** The error a failed result reports. */
export function errorOf(session: Row, result: { error?: string | undefined }): string {
  return result.error ?? defaultError(session.checkType as string);
}

/**
 * Count the failed results that have come to pass by `now` (emulator time) in their error
 * groups, once each. Sessions leave the list when they are final, or once forgotten.
 */
export function countErrors(account: AccountData, now: number): void {
  const still: string[] = [];
  for (const id of account.uncountedErrors) {
    const session = account.tables.checkSessions[id];
    if (session === undefined) continue;
    const view = viewSession(session, now);
    const counted = (session.countedResults as string[] | undefined) ?? [];
    for (const result of view.results) {
      if (!result.failed || counted.includes(result.checkResultId)) continue;
      countFailure(account, session.checkId as string, errorOf(session, result), result.stoppedAtMs);
      counted.push(result.checkResultId);
    }
    session.countedResults = counted;
    if (!view.final) still.push(id);
  }
  account.uncountedErrors = still;
}
